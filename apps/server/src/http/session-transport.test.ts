import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  calls,
  Code,
  generateSealKeyPair,
  Header,
  imageKey,
  newRequestCode,
  openSecret,
  parseCredential,
  sealSecret,
  sessionCredential,
  signedHeaders,
  signingKey,
  toBase64,
  TOKEN_COOKIE,
} from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';

/**
 * §7.1 and docs/api.md "Sessions and signing": after sign-in the token never travels; a request names
 * its session by id and proves the token by the signature; the sign-in answer carries the token sealed
 * to a key the client made for it. What an eavesdropper holds after watching a sign-in and a call is
 * tried here against the server.
 */
describe.each(DIALECTS)('session transport on %s', (dialect) => {
  let t: TestApp;
  const password = 'Black-Stork-42';
  let publicKey: string;

  /** A sign-in as captured on the wire: the request body, the raw answer, and what only the client knows. */
  async function captureSignIn(): Promise<{ requestBody: string; answer: string; sessionId: string; sealed: string; token: string; requestCode: string }> {
    const requestCode = newRequestCode();
    const client = generateSealKeyPair();
    const requestBody = JSON.stringify({ account: 'stork01', pwd: sealSecret(publicKey, password, requestCode), timeZone: '+08:00', clientKey: toBase64(client.publicKey) });
    const { res, body } = await t.call(calls.PasswordLogin.path, undefined, { raw: requestBody, requestCode });
    expect(body.Code).toBe(Code.Success);
    const data = body.Data as { Token: string; SessionId: string };
    return { requestBody, answer: res.body, sessionId: data.SessionId, sealed: data.Token, token: openSecret(client.secretKey, data.Token, requestCode, 'token'), requestCode };
  }

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.services.users.createUser({ orgName: 'Stork Lab', userName: 'stork01', password });
    publicKey = ((await t.call(calls.GetPublicKey.path, {})).body.Data as { PublicKey: string }).PublicKey;
  });
  afterAll(async () => t.close());

  it('answers the token sealed to the client key: the captured answer and request do not reveal it', async () => {
    const c = await captureSignIn();
    expect(c.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(c.answer).not.toContain(c.token);
    expect(c.requestBody).not.toContain(c.token);
    expect(c.sealed).toMatch(/^wt1\./);
    // What the eavesdropper can try: the session id with the sealed text as a token, or with nothing.
    for (const guess of [c.sealed, '', c.sessionId]) {
      const r = await t.call(calls.Heartbeat.path, {}, { token: sessionCredential(c.sessionId, guess) });
      expect(r.body.Code, guess).toBe(Code.BadSignature);
    }
    // Only the key the client made opens it, and only for the request code it signed in with.
    expect(() => openSecret(generateSealKeyPair().secretKey, c.sealed, c.requestCode, 'token')).toThrow();
    // The client, holding the token, is served.
    expect((await t.call(calls.Heartbeat.path, {}, { token: sessionCredential(c.sessionId, c.token) })).body.Code).toBe(Code.Success);
  });

  it('sends the session id, never the token, and refuses a signature made with a wrong token', async () => {
    const c = await captureSignIn();
    const body = JSON.stringify({});
    const headers = signedHeaders({ token: sessionCredential(c.sessionId, c.token), path: calls.Heartbeat.path, body });
    expect(headers[Header.session]).toBe(c.sessionId);
    expect(JSON.stringify(headers)).not.toContain(c.token);
    const wrong = await t.call(calls.Heartbeat.path, {}, { token: sessionCredential(c.sessionId, `${c.token}x`), lang: 'en' });
    expect(wrong.body).toEqual({ Code: Code.BadSignature, Msg: 'Invalid request signature; the request may have been tampered with', Data: null });
    // Another session's id with this session's token: refused as well (the key is the named session's).
    const other = await captureSignIn();
    expect((await t.call(calls.Heartbeat.path, {}, { token: sessionCredential(other.sessionId, c.token) })).body.Code).toBe(Code.BadSignature);
  });

  it('refuses the old clear token header, even on a request otherwise signed right', async () => {
    const c = await captureSignIn();
    const credential = sessionCredential(c.sessionId, c.token);
    for (const lang of ['en', 'zh'] as const) {
      const r = await t.call(calls.Heartbeat.path, {}, { token: credential, lang, headers: { [Header.token]: c.token } });
      expect(r.body.Code).toBe(Code.BadSignature);
      expect(r.body.Msg).toBe(lang === 'en' ? 'The request must not carry the token in clear (x-token); send the session id (x-session) and sign with the token' : '请求不得携带明文令牌（x-token），请用会话编号（x-session）并以令牌签名');
    }
    // The old transport as a whole: the token in x-token, signed with its key, no session id.
    const old = await t.call(calls.Heartbeat.path, {}, { token: c.token, headers: { [Header.token]: c.token } });
    expect(old.body.Code).toBe(Code.BadSignature);
    expect((await t.call(calls.Heartbeat.path, {}, { token: credential })).body.Code).toBe(Code.Success);
  });

  it('refuses a sign-in without a client key, or with one that is not a 32-byte X25519 key, naming the field in the caller language', async () => {
    const send = (clientKey: unknown, lang: 'en' | 'zh') => {
      const requestCode = newRequestCode();
      return t.call(calls.PasswordLogin.path, { account: 'stork01', pwd: sealSecret(publicKey, password, requestCode), timeZone: '+08:00', clientKey }, { requestCode, lang });
    };
    const missing = await send(undefined, 'en');
    expect(missing.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'clientKey' } });
    const short = await send(toBase64(new Uint8Array(31)), 'en');
    expect(short.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'clientKey' } });
    expect(short.body.Msg).toContain('must be the base64 of a 32-byte X25519 public key');
    const zh = await send('not a key', 'zh');
    expect(zh.body.Msg).toContain('应为 32 字节 X25519 公钥的 base64');
    const sessions = await t.database.db.selectFrom('sessions').select('id').execute();
    expect((await send(toBase64(generateSealKeyPair().publicKey), 'en')).body.Code).toBe(Code.Success);
    expect(await t.database.db.selectFrom('sessions').select('id').execute()).toHaveLength(sessions.length + 1);
  });

  it('serves pictures by the image cookie (session id and image key), not by the token', async () => {
    const c = await captureSignIn();
    const credential = sessionCredential(c.sessionId, c.token);
    const url = `${API_BASE}/files/uploads/1/${'0'.repeat(32)}.png`;
    const get = (cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie: `${TOKEN_COOKIE}=${encodeURIComponent(cookie)}` } });
    // The right cookie gets past the session check to "no such file"; the token or a guess gets 1004.
    expect((await get(`${c.sessionId}.${imageKey(signingKey(c.token))}`)).statusCode).toBe(404);
    for (const cookie of [credential, c.token, `${c.sessionId}.${'0'.repeat(64)}`, `${c.sessionId}.${imageKey(signingKey('wrong'))}`]) {
      expect((await get(cookie)).json().Code, cookie).toBe(Code.SessionExpired);
    }
    expect(parseCredential(credential).token).toBe(c.token);
  });
});
