import { LOCALE_TAG, messageResources, type Lang } from '@wildtrack/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { addMessages } from './contract-messages';
import type * as DatesModule from './dates';
import { getLang } from './language';
import type { CataloguePart } from './parts';

/**
 * One i18next instance: the app's own texts in the default namespace (nested, namespaced keys), and the
 * contract's message catalogue as namespace `contract`, so validation keys coming from the contract's zod
 * schemas (e.g. 'validation.password.rule') translate in forms without a second copy.
 *
 * The app's texts of a language are two chunks of their own (i18n/parts.ts), fetched when first needed:
 * the signed-out pages' part before the first render (main.tsx waits for `i18nReady`), the whole language
 * before a signed-in screen renders (app/screens.ts), the other language after sign-in while the browser is
 * idle (app/screens.ts), so a switch works offline too. Every text in /login's first load had taken it to
 * the edge of its 350 kB budget as the screens' texts grew.
 */
const catalogues: Record<Lang, Record<CataloguePart, () => Promise<{ default: Record<string, unknown>; contract: Record<string, string> }>>> = {
  zh: { signedOut: () => import('virtual:wildtrack-i18n/zh-CN-signedOut'), signedIn: () => import('virtual:wildtrack-i18n/zh-CN-signedIn') },
  en: { signedOut: () => import('virtual:wildtrack-i18n/en-US-signedOut'), signedIn: () => import('virtual:wildtrack-i18n/en-US-signedIn') },
};
const ALL_PARTS: readonly CataloguePart[] = ['signedOut', 'signedIn'];

void i18n.use(initReactI18next).init({
  resources: {
    [LOCALE_TAG.zh]: { contract: messageResources('zh') },
    [LOCALE_TAG.en]: { contract: messageResources('en') },
  },
  partialBundledLanguages: true,
  lng: LOCALE_TAG[getLang()],
  fallbackLng: LOCALE_TAG.en,
  defaultNS: 'translation',
  ns: ['translation', 'contract'],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  showSupportNotice: false,
});

/** dayjs in the page's language (dates.ts), once a signed-in part brought it. */
let dates: typeof DatesModule | undefined;
let datesLoading: Promise<void> | undefined;

function loadDates(): Promise<void> {
  datesLoading ??= import('./dates').then(
    (module) => {
      dates = module;
      module.setDatesLang(getLang());
    },
    (error: unknown) => {
      datesLoading = undefined;
      throw error;
    },
  );
  return datesLoading;
}

/** Moves dayjs to the language, when it is here (a signed-out page has no dates). */
export function setDatesLang(lang: Lang): void {
  dates?.setDatesLang(lang);
}

const loaded = new Set<string>();
const loading = new Map<string, Promise<void>>();

/** Whether a language's app texts (all of them, or the parts named) are here (a switch to it can then happen at once). */
export function languageLoaded(lang: Lang, parts: readonly CataloguePart[] = ALL_PARTS): boolean {
  return parts.every((part) => loaded.has(`${lang}/${part}`));
}

function loadPart(lang: Lang, part: CataloguePart): Promise<void> {
  const key = `${lang}/${part}`;
  if (loaded.has(key)) return Promise.resolve();
  let pending = loading.get(key);
  if (!pending) {
    pending = Promise.all([catalogues[lang][part](), part === 'signedIn' ? loadDates() : undefined]).then(
      ([module]) => {
        i18n.addResourceBundle(LOCALE_TAG[lang], 'translation', module.default, true, true);
        // The contract's messages come with the part in the built app (contract-messages.ts); the dev
        // server and tests have them all from the start, which this repeats harmlessly.
        i18n.addResourceBundle(LOCALE_TAG[lang], 'contract', module.contract, true, true);
        addMessages(lang, module.contract);
        loaded.add(key);
        loading.delete(key);
      },
      (error: unknown) => {
        loading.delete(key);
        throw error;
      },
    );
    loading.set(key, pending);
  }
  return pending;
}

/** Fetches a language's app texts (all, or the parts named) once; a failed fetch (offline) may be tried again. */
export function loadLanguage(lang: Lang, parts: readonly CataloguePart[] = ALL_PARTS): Promise<void> {
  return Promise.all(parts.map((part) => loadPart(lang, part))).then(() => undefined);
}

/** The page's language is ready to render. */
export const i18nReady: Promise<void> = loadLanguage(getLang(), ['signedOut']);

export default i18n;
