import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, calls, Code, Header, newRequestCode, sealSecret, signedHeaders } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';
import { NOW } from '../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../test/clock.js';

describe.each(DIALECTS)('transport on %s', (dialect) => {
  // The signature window is read on the server's clock: fixed at NOW.
  useFixedClock(NOW);
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    // A route that fails unexpectedly, to see what a caller gets from a 500.
    t.app.post(`${API_BASE}/test/boom`, async () => {
      throw new Error('secret internal detail: /etc/passwd');
    });
    ({ token } = await t.userWithToken());
  });
  afterAll(async () => t.close());

  const stillServes = async () => expect((await t.call(calls.Heartbeat.path, {}, { token })).body.Code).toBe(Code.Success);

  it('refuses a tampered body: the signature covers the body hash', async () => {
    const body = JSON.stringify({ lcid: 1033 });
    const headers = signedHeaders({ token, path: calls.ModifyLcid.path, body, now: clockNow() });
    const res = await t.app.inject({
      method: 'POST',
      url: API_BASE + calls.ModifyLcid.path,
      headers: { ...headers, 'content-type': 'application/json', [Header.lang]: '1033' },
      payload: JSON.stringify({ lcid: 2052 }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Code: Code.BadSignature, Msg: 'Invalid request signature; the request may have been tampered with', Data: null });
    const settings = await t.call(calls.GetUserInfo.path, {}, { token });
    expect((settings.body.Data as { Lcid: number }).Lcid).toBe(2052);
  });

  it('refuses a replayed request: the same signed request twice', async () => {
    const body = JSON.stringify({ lcid: 1033 });
    const headers = { ...signedHeaders({ token, path: calls.ModifyLcid.path, body, lcid: 2052, now: clockNow() }), 'content-type': 'application/json' };
    const send = () => t.app.inject({ method: 'POST', url: API_BASE + calls.ModifyLcid.path, headers, payload: body });
    expect((await send()).json().Code).toBe(Code.Success);
    const again = (await send()).json();
    expect(again).toEqual({ Code: Code.Replayed, Msg: '重复的请求已被拒绝', Data: null });
  });

  it('refuses a request signed with another token, a moved path and missing headers', async () => {
    const other = await t.call(calls.Heartbeat.path, {}, { token: `${token}x` });
    expect(other.body.Code).toBe(Code.BadSignature);
    const body = JSON.stringify({});
    const headers = { ...signedHeaders({ token, path: calls.Heartbeat.path, body, now: clockNow() }), 'content-type': 'application/json' };
    const moved = await t.app.inject({ method: 'POST', url: API_BASE + calls.GetAccountSetting.path, headers, payload: body });
    expect(moved.json().Code).toBe(Code.BadSignature);
    const missing = await t.call(calls.Heartbeat.path, {}, { token, headers: { [Header.signature]: undefined } });
    expect(missing.body).toEqual({ Code: Code.BadSignature, Msg: 'The request lacks signature headers: x-signature', Data: null });
  });

  it('refuses a timestamp more than 5 minutes old or ahead', async () => {
    for (const skew of [-5 * 60_000 - 5_000, 5 * 60_000 + 5_000]) {
      const { body } = await t.call(calls.Heartbeat.path, {}, { token, now: NOW + skew });
      expect(body.Code).toBe(Code.StaleTimestamp);
    }
    const { body } = await t.call(calls.Heartbeat.path, {}, { token, now: NOW - 4 * 60_000 });
    expect(body.Code).toBe(Code.Success);
  });

  it('names the failing field in the caller language (601), and changes nothing', async () => {
    const publicKey = ((await t.call(calls.GetPublicKey.path, {})).body.Data as { PublicKey: string }).PublicKey;
    const sealed = (body: Record<string, unknown>, lang: 'zh' | 'en') => {
      const requestCode = newRequestCode();
      return t.call(calls.PasswordLogin.path, { ...body, pwd: sealSecret(publicKey, 'Some-Pass-1', requestCode) }, { lang, requestCode });
    };
    const en = await sealed({ timeZone: '+08:00' }, 'en');
    expect(en.body).toEqual({ Code: Code.Invalid, Msg: 'Enter the account.', Data: { Field: 'account' } });
    const zh = await sealed({ timeZone: '+08:00' }, 'zh');
    expect(zh.body.Msg).toBe('请输入账号。');
    const tz = await sealed({ account: 'a', timeZone: '+8' }, 'en');
    expect(tz.body.Msg).toBe('The time zone must look like +08:00, between -12:00 and +12:00.');
    const lcid = await t.call(calls.ModifyLcid.path, { lcid: 9 }, { token, lang: 'zh' });
    expect(lcid.body).toEqual({ Code: Code.Invalid, Msg: '语言只能是 2052（中文）或 1033（英文）。', Data: { Field: 'lcid' } });
    const type = await t.call(calls.ModifyLcid.path, { lcid: '2052' }, { token, lang: 'en' });
    expect(type.body.Code).toBe(Code.Invalid);
    const missingBody = await t.call(calls.ModifyLcid.path, undefined, { token, lang: 'en' });
    expect(missingBody.body.Msg).toBe('The request has no body.');
    await stillServes();
  });

  it('answers invalid JSON with HTTP 400 and the envelope', async () => {
    const { res, body } = await t.call(calls.Heartbeat.path, undefined, { token, raw: '{"lcid": 10' });
    expect(res.statusCode).toBe(400);
    expect(body).toEqual({ Code: Code.BadJson, Msg: 'The request body is not valid JSON', Data: null });
    await stillServes();
  });

  it('answers a 10 MB body with HTTP 413 and the envelope, and keeps serving', async () => {
    const raw = JSON.stringify({ filler: 'x'.repeat(10 * 1024 * 1024) });
    const { res, body } = await t.call(calls.Heartbeat.path, undefined, { token, raw, lang: 'zh' });
    expect(res.statusCode).toBe(413);
    expect(body.Code).toBe(Code.TooLarge);
    expect(body.Msg).toBe('请求内容过大（上限 1024 KiB）');
    await stillServes();
  });

  it('answers an unknown path with HTTP 404 and the envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${API_BASE}/api/Nothing/Here`, payload: {} });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ Code: Code.UnknownPath, Msg: 'No such interface: POST /prod-api/api/Nothing/Here', Data: null });
  });

  it('answers a form-encoded body with 415 and the envelope', async () => {
    const res = await t.app.inject({ method: 'POST', url: API_BASE + calls.Heartbeat.path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=1' });
    expect(res.statusCode).toBe(415);
    expect(res.json().Code).toBe(Code.Invalid);
  });

  it('hides the details of an unexpected error behind a 500 with the request id', async () => {
    const res = await t.app.inject({ method: 'POST', url: `${API_BASE}/test/boom`, headers: { [Header.lang]: '1033' } });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body.Code).toBe(Code.ServerError);
    expect(body.Data.RequestId).toBe(res.headers[Header.requestId]);
    expect(body.Msg).toContain(body.Data.RequestId);
    expect(JSON.stringify(body)).not.toContain('passwd');
    await stillServes();
  });

  it('serves an OpenAPI document generated from the contract', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${API_BASE}/docs` });
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    for (const c of Object.values(calls)) expect(doc.paths[API_BASE + c.path]?.[c.method === 'GET' ? 'get' : 'post'], c.path).toBeDefined();
    const login = doc.paths[API_BASE + calls.PasswordLogin.path].post;
    expect(JSON.stringify(login.requestBody)).toContain('timeZone');
  });
});
