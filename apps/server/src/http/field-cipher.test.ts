import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  callKeys as clientKeys,
  calls,
  CIPHER_PREFIX,
  Code,
  decodeTrackSet,
  decryptBytes as clientDecrypt,
  DeviceType,
  encryptBytes as clientEncrypt,
  encryptJson,
  ENCRYPTED_FIELD,
  fromBase64,
  LanguageId,
  LIVE_STREAM_PATH,
  newRequestCode,
  openData,
  parseCredential,
  prepareCall,
  signedHeaders,
  signingKey,
  SpeciesType,
  toBase64,
} from '@wildtrack/contract';
import { openLiveReader } from '../live/live-client.js';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';
import { callKeys, decryptBytes, encryptParts } from './field-cipher.js';

describe('the server cipher writes what the client cipher reads (native ChaCha20-Poly1305 under the XChaCha subkey)', () => {
  it('derives the same keys and opens each other\'s bytes', () => {
    const key = signingKey('token');
    const code = newRequestCode();
    const client = clientKeys(key, code);
    const server = callKeys(key, code);
    expect(toBase64(server.request)).toBe(toBase64(client.request));
    expect(toBase64(server.answer)).toBe(toBase64(client.answer));
    for (const size of [0, 1, 63, 64, 65, 5000]) {
      const plain = Uint8Array.from({ length: size }, (_, i) => (i * 31 + 7) % 256);
      expect(Array.from(clientDecrypt(client.answer, client.aad, encryptParts(server.answer, server.aad, [plain.subarray(0, size >> 1), plain.subarray(size >> 1)])))).toEqual(Array.from(plain));
      expect(Array.from(decryptBytes(server.request, server.aad, clientEncrypt(client.request, client.aad, plain)))).toEqual(Array.from(plain));
    }
    const sealed = encryptParts(server.answer, server.aad, [Uint8Array.of(1, 2, 3)]);
    sealed[30]! ^= 1;
    expect(() => decryptBytes(server.answer, server.aad, sealed)).toThrow();
  });
});

describe.each(DIALECTS)('encrypted bodies and answers on %s (FIELD_CIPHER on)', (dialect) => {
  let t: TestApp;
  let token: string;
  let imei: string;

  beforeAll(async () => {
    t = await createTestApp(dialect, { FIELD_CIPHER: 'on' });
    const user = await t.userWithToken({ org: 'Cipher Org' });
    token = user.token;
    const orgId = await t.services.devices.orgIdByName('Cipher Org');
    imei = '861000000000042';
    await t.services.devices.register({ orgId, imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], caption: 'Stork Anna' });
  });
  afterAll(async () => t.close());

  const inject = (path: string, payload: string | undefined, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: API_BASE + path, headers, ...(payload === undefined ? {} : { payload }) });

  it('accepts an encrypted body and answers its Data encrypted, bound to the request', async () => {
    const call = prepareCall({ credential: token, path: calls.GetDetailByFolder.path, body: { folderId: '-1', currentPage: 1, pageSize: 20, timeZone: '+08:00' }, lcid: LanguageId.en });
    const res = await inject(calls.GetDetailByFolder.path, call.payload, call.headers);
    const wire = res.json() as { Code: number; Msg: string; Data: unknown };
    expect(wire.Code).toBe(Code.Success);
    expect(wire.Msg).toBe('Operation successful');
    expect(typeof wire.Data === 'string' && wire.Data.startsWith(CIPHER_PREFIX)).toBe(true);
    expect(res.body).not.toContain('Stork Anna');
    expect(res.body).not.toContain(imei);
    const opened = await call.open(res.body);
    expect((opened.Data as { List: { Caption: string }[] }).List.map((d) => d.Caption)).toEqual(['Stork Anna']);
    // Another request's keys don't open it.
    const other = clientKeys(signingKey(parseCredential(token).token), newRequestCode());
    await expect(openData(other.answer, other.aad, wire.Data as string)).rejects.toThrow();
  });

  it('opens the one GET\'s encrypted query (?Encrypted=wte1.…), signed over the path with it', async () => {
    const code = newRequestCode();
    const keys = clientKeys(signingKey(parseCredential(token).token), code);
    const url = `${calls.GetDetailByIMEI.path}?${ENCRYPTED_FIELD}=${encodeURIComponent(encryptJson(keys.request, keys.aad, { imei, timeZone: '+08:00' }))}`;
    expect(url).not.toContain(imei);
    const res = await t.app.inject({ method: 'GET', url: API_BASE + url, headers: signedHeaders({ token, method: 'GET', path: url, body: undefined, lcid: LanguageId.en, requestCode: code }) });
    const wire = res.json() as { Code: number; Data: string };
    expect(wire.Code).toBe(Code.Success);
    expect(((await openData(keys.answer, keys.aad, wire.Data)).value as { Caption: string }).Caption).toBe('Stork Anna');
  });

  it('encrypts a track as its bytes (no base64 inside), the same bytes a clear answer carries in base64', async () => {
    const body = { imei, startTime: '2026-01-01 00:00:00', endTime: '2026-01-02 00:00:00', timeZone: '+08:00' };
    const call = prepareCall({ credential: token, path: calls.GetFixList.path, body, lcid: LanguageId.en });
    const opened = await call.open((await inject(calls.GetFixList.path, call.payload, call.headers)).body);
    expect(opened.Code).toBe(Code.Success);
    expect(decodeTrackSet(opened.bytes!)[0]!.imei).toBe(imei);
    expect(opened.Data).toBe(toBase64(opened.bytes!));
  });

  it('refuses a body in clear with 1024 in the caller\'s language, and accepts an empty one (nothing to hide)', async () => {
    const payload = JSON.stringify({ imeis: [imei], timeZone: '+08:00' });
    const path = calls.GetLastFixList.path;
    const en = await inject(path, payload, { ...signedHeaders({ token, path, body: payload, lcid: LanguageId.en }), 'content-type': 'application/json' });
    expect(en.json()).toEqual({ Code: Code.BadEncryption, Msg: 'A signed-in request must send its body encrypted (Encrypted); the request in clear was refused', Data: null });
    const zh = await inject(path, payload, { ...signedHeaders({ token, path, body: payload, lcid: LanguageId.zh }), 'content-type': 'application/json' });
    expect(zh.json()).toMatchObject({ Code: Code.BadEncryption, Msg: '登录后的请求内容须加密发送（Encrypted），明文请求已被拒绝' });
    // An empty body is served; its answer's Data still goes encrypted.
    const beat = await inject(calls.Heartbeat.path, '{}', { ...signedHeaders({ token, path: calls.Heartbeat.path, body: '{}', lcid: LanguageId.en }), 'content-type': 'application/json' });
    expect(beat.json()).toMatchObject({ Code: Code.Success });
    expect(String(beat.json().Data).startsWith(CIPHER_PREFIX)).toBe(true);
  });

  it('refuses a changed ciphertext byte and a body encrypted for another request code with 1024, changing nothing', async () => {
    const before = (await t.call(calls.GetUserInfo.path, {}, { token })).body.Data as { Lcid: number };
    const call = prepareCall({ credential: token, path: calls.ModifyLcid.path, body: { lcid: before.Lcid === 2052 ? 1033 : 2052 } });
    const sealed = fromBase64((JSON.parse(call.payload) as Record<string, string>)[ENCRYPTED_FIELD]!.slice(CIPHER_PREFIX.length));
    sealed[40]! ^= 1;
    const tampered = JSON.stringify({ [ENCRYPTED_FIELD]: CIPHER_PREFIX + toBase64(sealed) });
    const code = newRequestCode();
    const res = await inject(calls.ModifyLcid.path, tampered, { ...signedHeaders({ token, path: calls.ModifyLcid.path, body: tampered, lcid: LanguageId.en, requestCode: code }), 'content-type': 'application/json' });
    expect(res.json()).toEqual({ Code: Code.BadEncryption, Msg: 'The request\'s encrypted body could not be decrypted; it may have been tampered with', Data: null });
    // Encrypted right, but with the keys of another request code: signed over what is sent, still refused.
    const keys = clientKeys(signingKey(parseCredential(token).token), newRequestCode());
    const moved = JSON.stringify({ [ENCRYPTED_FIELD]: encryptJson(keys.request, keys.aad, { lcid: 1033 }) });
    const res2 = await inject(calls.ModifyLcid.path, moved, { ...signedHeaders({ token, path: calls.ModifyLcid.path, body: moved, lcid: LanguageId.en }), 'content-type': 'application/json' });
    expect(res2.json().Code).toBe(Code.BadEncryption);
    expect(((await t.call(calls.GetUserInfo.path, {}, { token })).body.Data as { Lcid: number }).Lcid).toBe(before.Lcid);
  });

  it('keeps a refusal\'s Code and Msg clear and encrypts its Data', async () => {
    const call = prepareCall({ credential: token, path: calls.ModifyLcid.path, body: { lcid: 9 }, lcid: LanguageId.en });
    const res = await inject(calls.ModifyLcid.path, call.payload, call.headers);
    const wire = res.json() as { Code: number; Msg: string; Data: unknown };
    expect(wire.Code).toBe(Code.Invalid);
    expect(wire.Msg).toBe('The language must be 2052 (Chinese) or 1033 (English).');
    expect(String(wire.Data).startsWith(CIPHER_PREFIX)).toBe(true);
    expect((await call.open(res.body)).Data).toEqual({ Field: 'lcid' });
  });

  it('encrypts each live-stream message for the stream\'s request', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    const code = newRequestCode();
    const keys = clientKeys(signingKey(parseCredential(token).token), code);
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      http.get(base + API_BASE + LIVE_STREAM_PATH, { headers: signedHeaders({ token, method: 'GET', path: LIVE_STREAM_PATH, body: '', requestCode: code }), agent: false }, resolve).on('error', reject);
    });
    let text = '';
    for await (const chunk of res) {
      text += String(chunk);
      if (text.includes('data: ') && text.slice(text.indexOf('data: ')).includes('\n\n')) break;
    }
    res.destroy();
    const data = text.slice(text.indexOf('data: ') + 6, text.indexOf('\n\n', text.indexOf('data: ')));
    expect(data.startsWith(CIPHER_PREFIX)).toBe(true);
    expect(((await openData(keys.answer, keys.aad, data)).value as { type: string }).type).toBe('ready');
    // The tests' reader opens them as the console does.
    const live = await openLiveReader(base, token);
    expect((await live.waitFor((m) => m.type === 'ready')).type).toBe('ready');
    live.close();
  });

  it('leaves public calls as they were', async () => {
    const res = await inject(calls.GetPublicKey.path, '{}', { ...signedHeaders({ path: calls.GetPublicKey.path, body: '{}' }), 'content-type': 'application/json' });
    expect(typeof (res.json().Data as { PublicKey: string }).PublicKey).toBe('string');
  });
});

describe('FIELD_CIPHER off (debugging)', () => {
  it('serves a clear body in clear, and still answers an encrypted one encrypted', async () => {
    const t = await createTestApp('sqlite', { FIELD_CIPHER: 'off' });
    try {
      const { token } = await t.userWithToken();
      const clear = await t.call(calls.GetUserInfo.path, {}, { token, clear: true });
      expect(typeof (clear.res.json().Data as { Lcid: number }).Lcid).toBe('number');
      const encrypted = await t.call(calls.GetUserInfo.path, {}, { token });
      expect(String(encrypted.res.json().Data).startsWith(CIPHER_PREFIX)).toBe(true);
      expect(typeof (encrypted.body.Data as { Lcid: number }).Lcid).toBe('number');
    } finally {
      await t.close();
    }
  });
});
