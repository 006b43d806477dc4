/**
 * The app's texts of a language come in two chunks (built from the one catalogue file per language by the
 * `wildtrack-i18n-parts` plugin in vite.config.ts): the signed-out pages' namespaces, which /login waits
 * for before its first render, and the rest, which every signed-in screen waits for (app/screens.ts). All
 * texts in /login's first load had taken it to 349.6 of its 350 kB budget (gzip) with 42 namespaces, and
 * every new screen's texts made it heavier; the signed-out part is about 1.4 kB of the 13 kB.
 * i18n/parts.test.tsx renders the signed-out pages with this part alone and fails on any missing key.
 */
export const SIGNED_OUT_NAMESPACES: readonly string[] = ['account', 'api', 'app', 'common', 'language', 'layout', 'login', 'route', 'routeError'];

export type CataloguePart = 'signedOut' | 'signedIn';

/** The module id a catalogue part is imported by (`virtual:wildtrack-i18n/<file>-<part>`, e.g. zh-CN-signedOut). */
export const CATALOGUE_MODULE_PREFIX = 'virtual:wildtrack-i18n/';

/** A catalogue's namespaces of one part. */
export function cataloguePart(all: Record<string, unknown>, part: CataloguePart): Record<string, unknown> {
  return Object.fromEntries(Object.entries(all).filter(([ns]) => SIGNED_OUT_NAMESPACES.includes(ns) === (part === 'signedOut')));
}

/**
 * The contract's message catalogue (namespace `contract`, i18n/contract-messages.ts) is cut the same way:
 * what a signed-out page can show of it is a form's sentence about a field (`validation.*`, with the field's
 * label `field.*`); the server's own messages come already said in the caller's language.
 */
export const SIGNED_OUT_MESSAGE_PREFIXES: readonly string[] = ['validation.', 'field.'];

/** The catalogue's messages of one part. */
export function messagesPart(all: Record<string, string>, part: CataloguePart): Record<string, string> {
  return Object.fromEntries(Object.entries(all).filter(([key]) => SIGNED_OUT_MESSAGE_PREFIXES.some((p) => key.startsWith(p)) === (part === 'signedOut')));
}
