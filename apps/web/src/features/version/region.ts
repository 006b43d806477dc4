import type { VersionRegion } from '@wildtrack/contract';

/** Countries whose downloads come from the North American host. */
const NORTH_AMERICA = new Set(['US', 'CA', 'MX']);

/**
 * The version page's region (§2.4 Version): na for a North American browser locale, en for another
 * English interface, other for the rest (the Chinese interface outside North America).
 */
export function versionRegion(lang: 'zh' | 'en', locales: readonly string[]): VersionRegion {
  const country = locales
    .map((l) => /^[a-z]{2,3}(?:-[A-Za-z]{4})?-([A-Z]{2})\b/i.exec(l)?.[1]?.toUpperCase())
    .find((c): c is string => c !== undefined);
  if (country && NORTH_AMERICA.has(country)) return 'na';
  return lang === 'en' ? 'en' : 'other';
}

export function browserLocales(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}
