import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { advanceClock, now, setClock } from '../../test/clock.js';
import { BASE } from '../../test/fixed-time.js';

describe.each(DIALECTS)('sign-in lockout per account on %s', (dialect) => {
  let t: TestApp;
  const password = 'Ringed-Plover-7';

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.services.users.createUser({ orgName: 'Plover Lab', userName: 'godwit01', password, email: 'Godwit@Example.org' });
  });
  afterAll(async () => t.close());

  it('counts failures per account, whichever name it was typed as: 5 guesses in all, not 5 per name', async () => {
    const codes: number[] = [];
    for (const account of ['godwit01', 'godwit@example.org', 'GODWIT01', 'Godwit@Example.org', 'godwit01']) {
      codes.push((await t.login(account, 'Not-The-One-9')).body.Code);
    }
    expect(codes).toEqual([Code.SignInFailed, Code.SignInFailed, Code.SignInFailed, Code.SignInFailed, Code.AccountLocked]);
    // Locked under both names, even with the right password.
    expect((await t.login('godwit@example.org', password)).body.Code).toBe(Code.AccountLocked);
    expect((await t.login('godwit01', password)).body.Code).toBe(Code.AccountLocked);
  });

  it('forgets failures once their window and lock have passed (a job), so guessed names do not pile up', async () => {
    for (const name of ['ghost-1', 'ghost-2']) expect((await t.login(name, 'Not-The-One-9')).body.Code).toBe(Code.SignInFailed);
    const keys = () => t.database.db.selectFrom('sign_in_failures').select('account_key').where('account_key', 'in', ['name:ghost-1', 'name:ghost-2']).orderBy('account_key').execute();
    expect((await keys()).map((r) => r.account_key)).toEqual(['name:ghost-1', 'name:ghost-2']);
    // ghost-1's window opened 16 minutes ago: nothing of it counts any more.
    await t.database.db.updateTable('sign_in_failures').set({ window_start: now() - 16 * 60_000 }).where('account_key', '=', 'name:ghost-1').execute();
    expect(await t.services.auth.sweepSignInFailures()).toBe(1);
    expect((await keys()).map((r) => r.account_key)).toEqual(['name:ghost-2']);
  });

  it('still locks a name that is no account, so a lock does not reveal which accounts exist', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 5; i++) codes.push((await t.login('no-such-bird', 'Not-The-One-9')).body.Code);
    expect(codes.at(-1)).toBe(Code.AccountLocked);
  });
});

describe.each(DIALECTS)('sign-in rate limit per client address on %s', (dialect) => {
  let t: TestApp;
  const LIMIT = 4;

  beforeAll(async () => {
    t = await createTestApp(dialect, { SIGN_IN_RATE_LIMIT: String(LIMIT), TRUST_PROXY: '1' });
  });
  afterAll(async () => t.close());

  const fromAddress = (ip: string, lang: 'en' | 'zh' = 'en') => t.call(calls.GetPublicKey.path, {}, { lang, headers: { 'x-forwarded-for': ip } });
  const codeCount = async () => Number((await t.database.db.selectFrom('request_codes').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it(`answers public calls past ${LIMIT} a minute from one address with 1012 and a localised message, not other addresses`, async () => {
    // At the start of a one-minute window (shared-state windowOf), held there: the count is not cut in two.
    setClock(BASE);
    const codes: number[] = [];
    for (let i = 0; i < LIMIT; i++) codes.push((await fromAddress('203.0.113.7')).body.Code);
    expect(codes).toEqual(Array(LIMIT).fill(Code.Success));
    const stored = await codeCount();

    const refused = await fromAddress('203.0.113.7');
    expect(refused.body).toMatchObject({ Code: Code.TooManyRequests, Data: null });
    expect(refused.body.Msg).toBe('Too many sign-in attempts from your address; try again in 60 seconds');
    expect(refused.res.headers['retry-after']).toBe('60');
    const zh = await fromAddress('203.0.113.7', 'zh');
    expect(zh.body.Code).toBe(Code.TooManyRequests);
    expect(zh.body.Msg).toBe('登录请求过于频繁，请 60 秒后再试');
    // The sign-in itself is refused the same way, before its password is looked at.
    const login = await t.call(calls.PasswordLogin.path, { account: 'x', pwd: 'y', timeZone: '+08:00' }, { headers: { 'x-forwarded-for': '203.0.113.7' } });
    expect(login.body.Code).toBe(Code.TooManyRequests);
    // Refused calls leave no request code behind: an address can't make the server remember more than its limit.
    expect(await codeCount()).toBe(stored);

    expect((await fromAddress('198.51.100.20')).body.Code).toBe(Code.Success);

    // Half a minute on it is refused with the half minute left; once the window has turned, the address may call again.
    advanceClock(30_000);
    expect((await fromAddress('203.0.113.7')).body.Msg).toBe('Too many sign-in attempts from your address; try again in 30 seconds');
    advanceClock(30_000);
    expect((await fromAddress('203.0.113.7')).body.Code).toBe(Code.Success);
  });

  it('does not count signed-in calls', async () => {
    const { token } = await t.userWithToken();
    for (let i = 0; i < LIMIT + 2; i++) {
      expect((await t.call(calls.Heartbeat.path, {}, { token, headers: { 'x-forwarded-for': '192.0.2.9' } })).body.Code).toBe(Code.Success);
    }
  });
});
