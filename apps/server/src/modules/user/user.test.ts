import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountSettingSchema, calls, Code, UserSchema } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';

describe.each(DIALECTS)('user calls on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('records the language toggle and returns it in the user info', async () => {
    const { token } = await t.userWithToken();
    expect(UserSchema.parse((await t.call(calls.GetUserInfo.path, {}, { token })).body.Data).Lcid).toBe(2052);
    expect((await t.call(calls.ModifyLcid.path, { lcid: 1033 }, { token })).body.Code).toBe(Code.Success);
    expect(UserSchema.parse((await t.call(calls.GetUserInfo.path, {}, { token })).body.Data).Lcid).toBe(1033);
  });

  it('returns the account settings with the time zone given at sign-in', async () => {
    const { token } = await t.userWithToken();
    const data = AccountSettingSchema.parse((await t.call(calls.GetAccountSetting.path, {}, { token })).body.Data);
    expect(data).toEqual({ TdtKey: '', ReceiveNotification: { APP: 1, Email: 0 }, TimeZone: '+08:00' });
  });

  it('tells the shell when a user has neither e-mail nor phone (safety prompt)', async () => {
    const bare = await t.userWithToken();
    const safe = (await t.call(calls.GetAccountSafeSetting.path, {}, { token: bare.token })).body.Data;
    expect(safe).toEqual({ CountryCode: '86', Phone: '', Email: '', PasswordOnly: true });
    const mailed = await t.userWithToken({ email: 'crane@example.net' });
    const safe2 = (await t.call(calls.GetAccountSafeSetting.path, {}, { token: mailed.token })).body.Data;
    expect(safe2).toMatchObject({ Email: 'crane@example.net', PasswordOnly: false });
  });

  it('each user reads only their own settings: the token decides, not the body', async () => {
    const a = await t.userWithToken();
    const b = await t.userWithToken();
    await t.call(calls.ModifyLcid.path, { lcid: 1033 }, { token: a.token });
    const infoB = UserSchema.parse((await t.call(calls.GetUserInfo.path, { UserId: 1 }, { token: b.token })).body.Data);
    expect(infoB.UserName).toBe(b.userName);
    expect(infoB.Lcid).toBe(2052);
  });

  it('refuses every user call without a token', async () => {
    for (const c of [calls.Exit, calls.ModifyLcid, calls.GetAccountSetting, calls.GetUserInfo, calls.GetAccountSafeSetting]) {
      const { body } = await t.call(c.path, c === calls.ModifyLcid ? { lcid: 1033 } : {});
      expect(body.Code, c.path).toBe(Code.SessionExpired);
    }
  });

  it('validates operator-created users with the contract rules', async () => {
    await expect(t.services.users.createUser({ orgName: 'X', userName: 'ab', password: 'Field-Station-1' })).rejects.toThrow(/user name/);
    await expect(t.services.users.createUser({ orgName: 'X', userName: 'validname', password: 'weak' })).rejects.toThrow(/password/);
    await expect(t.services.users.createUser({ orgName: 'X', userName: 'has@sign', password: 'Field-Station-1' })).rejects.toThrow(/user name/);
  });
});
