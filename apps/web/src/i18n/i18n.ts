import { LOCALE_TAG, messageResources } from '@wildtrack/contract';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from './en-US.json';
import zhCN from './zh-CN.json';
import { getLang } from './language';

/**
 * One i18next instance: the app's own texts in the default namespace (nested, namespaced keys), and the
 * contract's message catalogue as namespace `contract`, so validation keys coming from the contract's zod
 * schemas (e.g. 'validation.password.rule') translate in forms without a second copy.
 */
void i18n.use(initReactI18next).init({
  resources: {
    [LOCALE_TAG.zh]: { translation: zhCN, contract: messageResources('zh') },
    [LOCALE_TAG.en]: { translation: enUS, contract: messageResources('en') },
  },
  lng: LOCALE_TAG[getLang()],
  fallbackLng: LOCALE_TAG.en,
  defaultNS: 'translation',
  ns: ['translation', 'contract'],
  interpolation: { escapeValue: false },
  initAsync: false,
  returnNull: false,
  showSupportNotice: false,
});

export default i18n;
