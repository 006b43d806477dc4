/** Interface languages (§1). The server is told the language by its id in a header. */
export const LanguageId = { zh: 2052, en: 1033 } as const;
export type Lang = keyof typeof LanguageId;
export type LanguageIdValue = (typeof LanguageId)[Lang];
export const LANGS: readonly Lang[] = ['zh', 'en'];

/** Locale tags used by i18next, antd and dayjs for each language. */
export const LOCALE_TAG: Record<Lang, string> = { zh: 'zh-CN', en: 'en-US' };

export function langFromId(id: unknown): Lang {
  const n = typeof id === 'string' ? Number(id) : id;
  return n === LanguageId.zh ? 'zh' : 'en';
}

/** §1: Chinese when the browser language is zh-CN, otherwise English. */
export function defaultLang(browserLanguage: string | undefined): Lang {
  return browserLanguage?.toLowerCase() === 'zh-cn' ? 'zh' : 'en';
}
