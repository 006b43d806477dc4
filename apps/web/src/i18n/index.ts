import { LOCALE_TAG, type Lang } from '@wildtrack/contract';
import i18n, { languageLoaded, loadLanguage, setDatesLang } from './i18n';
import { getLang, onLangChange } from './language';
import type { CataloguePart } from './parts';

export { default as i18n, i18nReady, languageLoaded, loadLanguage } from './i18n';
export { getLang, setLang, useLang, onLangChange } from './language';

function applyNow(lang: Lang): void {
  void i18n.changeLanguage(LOCALE_TAG[lang]);
  setDatesLang(lang);
  if (typeof document !== 'undefined') document.documentElement.lang = LOCALE_TAG[lang];
}

/**
 * Moves i18next, dayjs and the page's lang together: at once when the language's texts are here (after
 * sign-in both are), else once they have been fetched (the screen keeps the old language meanwhile, never
 * showing keys). A fetch that fails leaves the old language. The texts needed are those the page has of
 * the language it leaves: the signed-out part on /login (i18n/parts.ts), all of them on a signed-in screen.
 */
function apply(lang: Lang, parts: readonly CataloguePart[]): void {
  if (languageLoaded(lang, parts)) {
    applyNow(lang);
    return;
  }
  loadLanguage(lang, parts).then(
    () => {
      if (getLang() === lang) applyNow(lang);
    },
    () => undefined,
  );
}

let current = getLang();
apply(current, ['signedOut']);
onLangChange((lang) => {
  const parts: readonly CataloguePart[] = languageLoaded(current, ['signedIn']) ? ['signedOut', 'signedIn'] : ['signedOut'];
  current = lang;
  apply(lang, parts);
});
