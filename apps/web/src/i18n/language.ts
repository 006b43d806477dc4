import { defaultLang, LANGS, type Lang } from '@wildtrack/contract';
import { useSyncExternalStore } from 'react';
import { oneOf, readStored, writeStored } from '../browser/storage';

/**
 * The interface language is kept per browser session (§1); without a choice it follows the browser
 * (Chinese for zh-CN, otherwise English). Switching notifies the listeners, which move i18next, the
 * antd locale and the dayjs locale together (see app/providers).
 */
const STORAGE_KEY = 'wildtrack_lang';

function readInitial(): Lang {
  return readStored('session', STORAGE_KEY, oneOf(LANGS)) ?? defaultLang(typeof navigator === 'undefined' ? undefined : navigator.language);
}

let current: Lang = readInitial();
const listeners = new Set<(lang: Lang) => void>();

export function getLang(): Lang {
  return current;
}

export function setLang(lang: Lang): void {
  // storage blocked: the choice lasts until reload
  writeStored('session', STORAGE_KEY, lang);
  if (lang === current) return;
  current = lang;
  for (const listener of listeners) listener(lang);
}

export function onLangChange(listener: (lang: Lang) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-reads the stored choice; tests use it after changing sessionStorage or navigator.language. */
export function reloadLangForTests(): void {
  current = readInitial();
}

export function useLang(): Lang {
  return useSyncExternalStore(
    (cb) => onLangChange(cb),
    getLang,
    getLang,
  );
}
