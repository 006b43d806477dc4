import type { Lang } from '@wildtrack/contract';
import dayjs from 'dayjs';
import 'dayjs/locale/en';
import 'dayjs/locale/zh-cn';

export const DAYJS_LOCALE: Record<Lang, string> = { zh: 'zh-cn', en: 'en' };

/**
 * dayjs in the page's language. No signed-out page shows a date, so dayjs and its two locales come with a
 * language's signed-in part (i18n.ts), not with /login's first load (about 4 kB gzip of its budget).
 */
export function setDatesLang(lang: Lang): void {
  dayjs.locale(DAYJS_LOCALE[lang]);
}
