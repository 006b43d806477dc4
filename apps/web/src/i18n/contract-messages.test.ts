import { isMessageKey, message, MESSAGES, messageResources, type Lang } from '@wildtrack/contract';
import { describe, expect, it, vi } from 'vitest';
import { messagesPart } from './parts';

/**
 * The built app's stand-in for the contract's message catalogue (contract-messages.ts; the dev server and
 * these tests use the contract's own module) says every message as the contract does once both parts of a
 * language are loaded, and the signed-out part alone has every form sentence's text.
 */
const LANGS: readonly Lang[] = ['zh', 'en'];
const keys = Object.keys(MESSAGES);

describe('the catalogue cut in parts', () => {
  it('splits each language in two parts without losing or repeating a key', () => {
    for (const lang of LANGS) {
      const all = messageResources(lang);
      const signedOut = messagesPart(all, 'signedOut');
      const signedIn = messagesPart(all, 'signedIn');
      expect(Object.keys(signedOut).filter((k) => k in signedIn)).toEqual([]);
      expect({ ...signedOut, ...signedIn }).toEqual(all);
      expect(Object.keys(signedOut).every((k) => k.startsWith('validation.') || k.startsWith('field.'))).toBe(true);
      // the point of the cut: /login carries a small part of it
      expect(JSON.stringify(signedOut).length).toBeLessThan(JSON.stringify(all).length / 2);
    }
  });

  it('says each message as the contract does once a language is loaded', async () => {
    // a fresh module: the test set-up has loaded both languages into the one the app uses
    vi.resetModules();
    const built = await import('./contract-messages');
    expect(built.isMessageKey('validation.required')).toBe(false);
    expect(built.message('en', 'validation.required')).toBe('validation.required');
    for (const lang of LANGS) built.addMessages(lang, messagesPart(messageResources(lang), 'signedOut'));
    expect(built.isMessageKey('field.account')).toBe(true);
    expect(built.message('zh', 'validation.required', { field: '账号' })).toBe(message('zh', 'validation.required', { field: '账号' }));
    expect(built.isMessageKey('auth.failed')).toBe(false);
    for (const lang of LANGS) built.addMessages(lang, messagesPart(messageResources(lang), 'signedIn'));
    const params = { field: 'F', minimum: 1, maximum: 9, minutes: 15, requestId: 'r', path: '/p', keys: 'k', options: 'o', expected: 'e' };
    for (const lang of LANGS) {
      for (const key of keys) {
        expect(built.message(lang, key, params), key).toBe(message(lang, key, params));
        expect(built.message(lang, key), key).toBe(message(lang, key));
      }
      expect(built.messageResources(lang)).toEqual(messageResources(lang));
    }
    for (const key of [...keys, 'nope', 'field.nope']) expect(built.isMessageKey(key), key).toBe(isMessageKey(key));
  });
});
