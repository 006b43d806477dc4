import { LOCALE_TAG, type Lang } from '@wildtrack/contract';
import dayjs from 'dayjs';
import 'dayjs/locale/en';
import 'dayjs/locale/zh-cn';
import i18n from './i18n';
import { getLang, onLangChange } from './language';

export { default as i18n } from './i18n';
export { getLang, setLang, useLang, onLangChange } from './language';

export const DAYJS_LOCALE: Record<Lang, string> = { zh: 'zh-cn', en: 'en' };

function apply(lang: Lang): void {
  void i18n.changeLanguage(LOCALE_TAG[lang]);
  dayjs.locale(DAYJS_LOCALE[lang]);
  if (typeof document !== 'undefined') document.documentElement.lang = LOCALE_TAG[lang];
}

apply(getLang());
onLangChange(apply);
