import { describe, expect, it } from 'vitest';
import * as calls from './calls/index.js';
import type { CallDef } from './call.js';
import { callKeys, CIPHER_PREFIX, CipherForm, decryptBytes, deflate, DEFLATED, encryptBytes, encryptJson, ENCRYPTED_FIELD, openData, openPlaintext, prepareCall } from './field-cipher.js';
import { fromBase64, toBase64 } from './seal.js';
import { signingKey } from './wire.js';

const key = signingKey('a-session-token');
const code = '0123456789abcdef0123456789abcdef';

describe('field cipher', () => {
  it('opens what it encrypted, as JSON, with the request code of the call', async () => {
    const keys = callKeys(key, code);
    const value = { imei: '861234567890123', startTime: '2026-01-01 00:00:00', list: [1, 2.5, 'χ'] };
    const text = encryptJson(keys.request, keys.aad, value);
    expect(text.startsWith(CIPHER_PREFIX)).toBe(true);
    expect(text).not.toContain('861234567890123');
    expect((await openData(keys.request, keys.aad, text)).value).toEqual(value);
  });

  it('derives different keys per direction, per request code and per session', () => {
    const a = callKeys(key, code);
    expect(toBase64(a.request)).not.toBe(toBase64(a.answer));
    expect(toBase64(callKeys(key, `${code}0`).request)).not.toBe(toBase64(a.request));
    expect(toBase64(callKeys(signingKey('another'), code).request)).not.toBe(toBase64(a.request));
    // Fixed vector: the server's native derivation (apps/server/src/http/field-cipher.test.ts) gives the same.
    expect(a.request.length).toBe(32);
  });

  it('refuses another request code, the other direction and a changed byte', async () => {
    const keys = callKeys(key, code);
    const text = encryptJson(keys.answer, keys.aad, { Longitude: 116.4 });
    const other = callKeys(key, 'ffffffffffffffffffffffffffffffff');
    await expect(openData(other.answer, other.aad, text)).rejects.toThrow();
    await expect(openData(keys.answer, other.aad, text)).rejects.toThrow();
    await expect(openData(keys.request, keys.aad, text)).rejects.toThrow();
    const sealed = fromBase64(text.slice(CIPHER_PREFIX.length));
    for (const at of [0, 23, 24, sealed.length - 1]) {
      const changed = sealed.slice();
      changed[at]! ^= 1;
      expect(() => decryptBytes(keys.answer, keys.aad, changed)).toThrow();
    }
    expect(() => decryptBytes(keys.answer, keys.aad, sealed.subarray(0, 30))).toThrow();
  });

  it('carries binary Data as its bytes, and an object with one binary field, deflated or not', async () => {
    const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) % 256);
    expect(await openPlaintext(Uint8Array.of(CipherForm.Bytes, ...bytes))).toEqual({ value: '', bytes });
    const deflated = await deflate(bytes);
    expect(await openPlaintext(Uint8Array.of(CipherForm.Bytes | DEFLATED, ...deflated))).toEqual({ value: '', bytes });
    const json = new TextEncoder().encode(JSON.stringify({ Count: 2, SampleCount: 9, Data: '' }));
    const head = [CipherForm.JsonWithBytes, 4, ...new TextEncoder().encode('Data'), 0, 0, 0, json.length];
    const opened = await openPlaintext(Uint8Array.of(...head, ...json, ...bytes));
    expect(opened).toEqual({ value: { Count: 2, SampleCount: 9, Data: '' }, bytes, field: 'Data' });
  });

  it('prepareCall encrypts the whole body and opens the answer, a binary one back in base64', async () => {
    const credential = 'AAAAAAAAAAAAAAAAAAAAAA.a-session-token';
    const call = prepareCall({ credential, path: '/api/Fix/GetList', body: { imei: '861234567890123' }, requestCode: code });
    const sent = JSON.parse(call.payload) as Record<string, string>;
    expect(Object.keys(sent)).toEqual([ENCRYPTED_FIELD]);
    expect(call.payload).not.toContain('861234567890123');
    expect((await openData(call.keys.request, call.keys.aad, sent[ENCRYPTED_FIELD]!)).value).toEqual({ imei: '861234567890123' });
    const bytes = Uint8Array.of(1, 2, 3, 250);
    const data = CIPHER_PREFIX + toBase64(encryptBytes(call.keys.answer, call.keys.aad, Uint8Array.of(CipherForm.Bytes, ...bytes)));
    const answer = await call.open(JSON.stringify({ Code: 1000, Msg: 'ok', Data: data }));
    expect(answer).toEqual({ Code: 1000, Msg: 'ok', Data: toBase64(bytes), bytes });
    // An envelope without encrypted Data (a refusal before the session was known) is handed back as it is.
    expect(await call.open('{"Code":1004,"Msg":"expired","Data":null}')).toEqual({ Code: 1004, Msg: 'expired', Data: null });
  });

  it('every call whose Data is base64 binary declares it (`bytes`), so it is encrypted as bytes', () => {
    const undeclared = (Object.values(calls) as CallDef[])
      .filter((def) => typeof def === 'object' && def && 'path' in def && !def.bytes)
      .filter((def) => /base64/i.test(def.summary) && !/clientKey|PublicKey|QR/i.test(def.summary))
      .map((def) => def.path);
    expect(undeclared).toEqual([]);
  });
});
