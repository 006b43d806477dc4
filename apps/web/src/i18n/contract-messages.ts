import type { Lang } from '@wildtrack/contract';

/**
 * The contract's message catalogue (packages/contract/src/messages.ts) as the built web app has it: the
 * production build resolves the contract's `./messages.js` to this module (vite.config.ts,
 * `wildtrack-contract-messages`), so the catalogue's texts are not code of the contract's chunk but come
 * with each language's text parts (i18n/parts.ts `messagesPart`): the forms' sentences (`validation.*`,
 * field labels `field.*`) of the page's language with the signed-out part, the rest with the signed-in
 * part. Both languages' whole catalogue had been 14 kB gzip of /login's 350 kB budget.
 *
 * Same functions as the contract's module, over what has been loaded: the field sentences of
 * field-messages.ts (formSentence) and the i18next namespace `contract` read the same texts. Texts are in
 * i18next's form (`{{x}}`, made by the contract's `messageResources`). Dev server and tests use the contract's
 * own module (the whole catalogue).
 */
const loaded: Record<Lang, Record<string, string>> = { zh: {}, en: {} };

/** Adds texts of a language (a part of the catalogue, as `messageResources` writes it). */
export function addMessages(lang: Lang, texts: Record<string, string>): void {
  Object.assign(loaded[lang], texts);
}

export function isMessageKey(key: string): boolean {
  return Object.prototype.hasOwnProperty.call(loaded.zh, key) || Object.prototype.hasOwnProperty.call(loaded.en, key);
}

/** Formats a loaded message; unknown keys come back unchanged so a raw text can pass through. */
export function message(lang: Lang, key: string, params: Record<string, string | number> = {}): string {
  const template = Object.prototype.hasOwnProperty.call(loaded[lang], key) ? loaded[lang][key]! : key;
  // a placeholder without its value stays as the contract's module leaves it: `{name}`
  return template.replace(/\{\{(\w+)\}\}/g, (_whole, name: string) => (params[name] === undefined ? `{${name}}` : String(params[name])));
}

/** What has been loaded of a language, for i18next. */
export function messageResources(lang: Lang): Record<string, string> {
  return { ...loaded[lang] };
}
