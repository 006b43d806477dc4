import { describe, expect, it } from 'vitest';
import { formatOffset, offsetOfDate, parseOffset, TIME_ZONES } from './timezone.js';
import { batteryPercent } from './constants.js';
import { defaultLang, langFromId } from './lang.js';
import { message, MESSAGES, messageResources } from './messages.js';
import { generateSealKeyPair, openSecret, sealSecret, toBase64 } from './seal.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { imageKey, parseCredential, sessionCredential, signedHeaders, signingKey, signRequest } from './wire.js';

describe('request signing', () => {
  it('changes with every signed part', () => {
    const key = signingKey('token-1');
    const base = { method: 'POST', path: '/api/User/Exit', timestamp: 1, requestCode: 'abcdefgh', body: '{}' };
    const sig = signRequest(key, base);
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    for (const change of [{ method: 'GET' }, { path: '/api/User/Exiт' }, { timestamp: 2 }, { requestCode: 'abcdefgi' }, { body: '{ }' }]) {
      expect(signRequest(key, { ...base, ...change }), JSON.stringify(change)).not.toBe(sig);
    }
    expect(signRequest(signingKey('token-2'), base)).not.toBe(sig);
  });

  it('makes the headers the server expects: the session id, never the token', () => {
    const credential = sessionCredential('sid-1', 'secret-token');
    const h = signedHeaders({ token: credential, path: '/api/x', body: '{}', lcid: 1033, now: 5, requestCode: 'r'.repeat(32) });
    expect(h).toMatchObject({ 'x-timestamp': '5', 'x-request-code': 'r'.repeat(32), 'x-session': 'sid-1', 'x-lang': '1033' });
    expect(h['x-token']).toBeUndefined();
    expect(JSON.stringify(h)).not.toContain('secret-token');
    expect(h['x-signature']).toBe(signRequest(signingKey('secret-token'), { method: 'POST', path: '/api/x', timestamp: 5, requestCode: 'r'.repeat(32), body: '{}' }));
    expect(parseCredential(credential)).toEqual({ id: 'sid-1', token: 'secret-token' });
    expect(imageKey(signingKey('secret-token'))).toMatch(/^[0-9a-f]{64}$/);
    expect(imageKey(signingKey('secret-token'))).not.toBe(bytesToHex(signingKey('secret-token')));
  });
});

describe('password sealing', () => {
  it('round-trips only with the right key and request code', () => {
    const server = generateSealKeyPair();
    const sealed = sealSecret(toBase64(server.publicKey), 'Secret-Pass-1', 'code-1');
    expect(sealed).not.toContain('Secret');
    expect(openSecret(server.secretKey, sealed, 'code-1')).toBe('Secret-Pass-1');
    expect(() => openSecret(server.secretKey, sealed, 'code-2')).toThrow();
    expect(() => openSecret(generateSealKeyPair().secretKey, sealed, 'code-1')).toThrow();
    expect(sealSecret(toBase64(server.publicKey), 'Secret-Pass-1', 'code-1')).not.toBe(sealed);
  });

  it('seals a token to a client key for one purpose: a field sealed value does not open as a token', () => {
    const client = generateSealKeyPair();
    const sealed = sealSecret(toBase64(client.publicKey), 'the-token', 'code-1', 'token');
    expect(openSecret(client.secretKey, sealed, 'code-1', 'token')).toBe('the-token');
    expect(() => openSecret(client.secretKey, sealed, 'code-1', 'field')).toThrow();
    expect(() => sealSecret(toBase64(new Uint8Array(31)), 'x', 'code-1')).toThrow();
  });
});

describe('languages, time zones, constants and messages', () => {
  it('picks Chinese only for zh-CN browsers and maps language ids', () => {
    expect(defaultLang('zh-CN')).toBe('zh');
    expect(defaultLang('zh-TW')).toBe('en');
    expect(defaultLang('en-GB')).toBe('en');
    expect(langFromId(2052)).toBe('zh');
    expect(langFromId('1033')).toBe('en');
  });

  it('offers UTC-12:00 to UTC+12:00 hourly, displayed like +08:00', () => {
    expect(TIME_ZONES).toHaveLength(25);
    expect(TIME_ZONES[0]).toBe('-12:00');
    expect(TIME_ZONES[20]).toBe('+08:00');
    expect(parseOffset('UTC+08:00')).toBe(480);
    expect(parseOffset('+13:00')).toBeNull();
    expect(parseOffset('+05:30')).toBeNull();
    expect(formatOffset(-330)).toBe('-05:30');
    expect(offsetOfDate(new Date(Date.UTC(2026, 10, 1)))).toMatch(/^[+-]\d{2}:00$/);
  });

  it('maps voltages to the §9 battery levels', () => {
    expect([4.3, 4.2, 3.9, 3.8, 3.7, 3.5].map(batteryPercent)).toEqual([100, 50, 50, 30, 10, 0]);
  });

  it('has every message in both languages with the same placeholders', () => {
    for (const [key, texts] of Object.entries(MESSAGES)) {
      const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
      expect(texts.zh.trim(), key).not.toBe('');
      expect(texts.en.trim(), key).not.toBe('');
      expect(names(texts.zh), key).toEqual(names(texts.en));
    }
    expect(message('en', 'auth.locked', { minutes: 15 })).toContain('15 minutes');
    expect(messageResources('zh')['auth.locked']).toContain('{{minutes}}');
  });
});
