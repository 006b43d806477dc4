import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import {
  calls,
  Code,
  LoginResultSchema,
  newRequestCode,
  parseCredential,
  sealSecret,
  SafeSettingSchema,
  sessionCredential,
  signingKey,
} from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { advanceClock, setClock } from '../../test/clock.js';
import { BASE, NOW } from '../../test/fixed-time.js';
import { SIGN_IN_LOCK_MS } from './service.js';

describe.each(DIALECTS)('sign-in and sessions on %s', (dialect) => {
  let t: TestApp;
  const password = 'Ringed-Plover-7';

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.services.users.createUser({ orgName: 'Plover Lab', userName: 'plover01', password, email: 'Ringer@Example.org' });
  });
  afterAll(async () => t.close());

  it('hands out the public key without a session', async () => {
    const { body } = await t.call(calls.GetPublicKey.path, {});
    expect(body.Code).toBe(Code.Success);
    expect((body.Data as { PublicKey: string }).PublicKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
  });

  it('signs in by user name or e-mail, case-insensitively, and returns the contract login result', async () => {
    for (const account of ['plover01', 'PLOVER01', 'ringer@example.org']) {
      const { body } = await t.login(account, password);
      expect(body.Code, account).toBe(Code.Success);
      const data = LoginResultSchema.parse(body.Data);
      expect(data.UserName).toBe('plover01');
      expect(data.Token).toMatch(/^wt1\./); // sealed to the client key (session-transport.test.ts)
      expect(data.SessionId).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(data.User.CustomerName).toBe('Plover Lab');
      expect(data.User.TimeZone).toBe('+08:00');
      expect(data.WeakPassword).toBe(false);
    }
  });

  it('answers a wrong password and an unknown account with the same generic message, in the caller language', async () => {
    const wrong = await t.login('plover01', 'Wrong-Pass-1', 'en');
    const unknown = await t.login('nobody-here', 'Wrong-Pass-1', 'en');
    expect(wrong.body).toEqual({ Code: Code.SignInFailed, Msg: 'Incorrect account or password', Data: null });
    expect(unknown.body).toEqual(wrong.body);
    const zh = await t.login('plover01', 'Wrong-Pass-1', 'zh');
    expect(zh.body.Msg).toBe('账号或密码错误');
    await t.login('plover01', password); // a success clears the failures counted above
  });

  it('locks an account for 15 minutes after 5 failures in 15 minutes, even for the right password', async () => {
    setClock(NOW);
    await t.services.users.createUser({ orgName: 'Plover Lab', userName: 'locked01', password });
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await t.login('locked01', 'Not-The-One-9')).body.Code);
    expect(codes).toEqual([Code.SignInFailed, Code.SignInFailed, Code.SignInFailed, Code.SignInFailed, Code.AccountLocked]);
    const right = await t.login('locked01', password);
    expect(right.body.Code).toBe(Code.AccountLocked);
    expect(right.body.Msg).toBe('Too many failed sign-ins; the account is locked, try again in 15 minutes');
    // Once the lock has passed, the right password works again.
    advanceClock(SIGN_IN_LOCK_MS);
    expect((await t.login('locked01', password)).body.Code).toBe(Code.Success);
  });

  it('locks unknown accounts the same way, so the lock does not reveal which accounts exist', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await t.login('ghost-account', 'Not-The-One-9')).body.Code);
    expect(codes[4]).toBe(Code.AccountLocked);
  });

  it('refuses a password sealed for another request code (a captured password cannot be reused)', async () => {
    const key = await t.call(calls.GetPublicKey.path, {});
    const sealed = sealSecret((key.body.Data as { PublicKey: string }).PublicKey, password, 'some-other-code');
    const { body } = await t.call(calls.PasswordLogin.path, { account: 'plover01', pwd: sealed, timeZone: '+08:00' }, { requestCode: newRequestCode() });
    expect(body.Code).toBe(Code.BadCiphertext);
    expect(body.Msg).toContain('pwd');
  });

  it('refuses a plain-text password: passwords must be sealed', async () => {
    const { body } = await t.call(calls.PasswordLogin.path, { account: 'plover01', pwd: password, timeZone: '+08:00' });
    expect(body.Code).toBe(Code.BadCiphertext);
  });

  it('keeps a session alive with its token and ends it on Exit', async () => {
    const { credential: token } = await t.login('plover01', password);
    expect((await t.call(calls.Heartbeat.path, {}, { token })).body.Code).toBe(Code.Success);
    const safe = await t.call(calls.GetAccountSafeSetting.path, undefined, { token });
    expect(SafeSettingSchema.parse(safe.body.Data)).toEqual({ CountryCode: '86', Phone: '', Email: 'Ringer@Example.org', PasswordOnly: false });
    expect((await t.call(calls.Exit.path, undefined, { token })).body.Code).toBe(Code.Success);
    const after = await t.call(calls.Heartbeat.path, {}, { token });
    expect(after.body).toEqual({ Code: Code.SessionExpired, Msg: 'Your session has expired, please sign in again', Data: null });
  });

  it('answers 1004 without a session and for an unknown or malformed session id', async () => {
    expect((await t.call(calls.Heartbeat.path, {})).body.Code).toBe(Code.SessionExpired);
    expect((await t.call(calls.Heartbeat.path, {}, { token: sessionCredential('A'.repeat(22), 'not-a-real-token') })).body.Code).toBe(Code.SessionExpired);
    expect((await t.call(calls.Heartbeat.path, {}, { token: sessionCredential('short', 'not-a-real-token') })).body.Code).toBe(Code.SessionExpired);
  });

  it('stores neither the token nor its hash: the session id and the signing key derived from the token', async () => {
    const { credential } = await t.login('plover01', password);
    const { id, token } = parseCredential(credential!);
    const row = await t.database.db.selectFrom('sessions').selectAll().where('public_id', '=', id).executeTakeFirstOrThrow();
    expect(row.signing_key).toBe(Buffer.from(signingKey(token)).toString('hex'));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(createHash('sha256').update(token).digest('hex'));
  });
});

describe.each(DIALECTS)('session inactivity on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect, { SESSION_IDLE_SECONDS: '60' });
  });
  afterAll(async () => t.close());

  it('expires a session idle longer than the limit with 1004, and keeps a used one', async () => {
    // The server's clock (lib/clock.ts) is held at BASE for the sign-in and moved for each call.
    setClock(BASE);
    const { token } = await t.userWithToken();
    // 59 s idle: still alive, and the use moves last_seen_at to that instant.
    setClock(BASE + 59_000);
    expect((await t.call(calls.Heartbeat.path, {}, { token })).body.Code).toBe(Code.Success);
    expect(await t.database.db.selectFrom('sessions').select('last_seen_at').execute()).toEqual([{ last_seen_at: BASE + 59_000 }]);
    // 61 s idle after that use: expired, and the row is gone.
    setClock(BASE + 59_000 + 61_000);
    expect((await t.call(calls.Heartbeat.path, {}, { token })).body.Code).toBe(Code.SessionExpired);
    expect(await t.database.db.selectFrom('sessions').selectAll().execute()).toHaveLength(0);
  });
});
