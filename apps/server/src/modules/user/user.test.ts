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

  const settingOf = async (token: string) =>
    AccountSettingSchema.parse((await t.call(calls.GetAccountSetting.path, {}, { token })).body.Data);

  it('saves the settings form and reads it back: switches, trimmed key, zone (also in the user info)', async () => {
    const { token } = await t.userWithToken();
    const saved = await t.call(
      calls.SetAccountSetting.path,
      { app: 0, email: 1, tdtKey: '  0123456789abcdef0123456789ABCDEF\t', timeZone: '-05:00' },
      { token },
    );
    expect(saved.body).toMatchObject({ Code: Code.Success, Data: null });
    expect(await settingOf(token)).toEqual({
      TdtKey: '0123456789abcdef0123456789ABCDEF',
      ReceiveNotification: { APP: 0, Email: 1 },
      TimeZone: '-05:00',
    });
    expect(UserSchema.parse((await t.call(calls.GetUserInfo.path, {}, { token })).body.Data).TimeZone).toBe('-05:00');

    // The spec's body (app, email, tdtKey) without a zone keeps the zone; an empty key removes the key;
    // "UTC+09:00" is stored in the one form the console shows.
    expect((await t.call(calls.SetAccountSetting.path, { app: 1, email: 0, tdtKey: '   ' }, { token })).body.Code).toBe(Code.Success);
    expect(await settingOf(token)).toEqual({ TdtKey: '', ReceiveNotification: { APP: 1, Email: 0 }, TimeZone: '-05:00' });
    expect((await t.call(calls.SetAccountSetting.path, { app: 1, email: 1, timeZone: 'UTC+09:00' }, { token })).body.Code).toBe(Code.Success);
    expect(await settingOf(token)).toEqual({ TdtKey: '', ReceiveNotification: { APP: 1, Email: 1 }, TimeZone: '+09:00' });
  });

  it('keeps the zone saved in Settings when the same account signs in from another zone; until then a sign-in sets it (issue 28 item 3)', async () => {
    const { token, userName, password } = await t.userWithToken();
    const zoneOf = async (credential: string) => UserSchema.parse((await t.call(calls.GetUserInfo.path, {}, { token: credential })).body.Data).TimeZone;
    // Nothing saved in Settings yet: the zone is the last sign-in's.
    const phone = await t.login(userName, password, 'en', '-05:00');
    expect(UserSchema.parse((phone.body.Data as { User: unknown }).User).TimeZone).toBe('-05:00');
    expect(await zoneOf(token)).toBe('-05:00');
    expect((await t.call(calls.SetAccountSetting.path, { app: 1, email: 0, tdtKey: '', timeZone: '+08:00' }, { token })).body.Code).toBe(Code.Success);
    // Saved: sign-ins from New York and Tokyo leave it, on every session of the account.
    const again = await t.login(userName, password, 'en', '-05:00');
    expect(UserSchema.parse((again.body.Data as { User: unknown }).User).TimeZone).toBe('+08:00');
    await t.login(userName, password, 'zh', '+09:00');
    expect(await zoneOf(token)).toBe('+08:00');
    expect(await zoneOf(again.credential!)).toBe('+08:00');
    expect((await settingOf(token)).TimeZone).toBe('+08:00');
    // A settings save without a zone keeps the choice; a new choice replaces it.
    expect((await t.call(calls.SetAccountSetting.path, { app: 1, email: 0, tdtKey: '' }, { token })).body.Code).toBe(Code.Success);
    await t.login(userName, password, 'en', '-05:00');
    expect(await zoneOf(token)).toBe('+08:00');
    expect((await t.call(calls.SetAccountSetting.path, { app: 1, email: 0, tdtKey: '', timeZone: '+01:00' }, { token: again.credential! })).body.Code).toBe(Code.Success);
    await t.login(userName, password, 'en', '-05:00');
    expect(await zoneOf(token)).toBe('+01:00');
  });

  it('refuses a bad settings form with 601 naming the field in the caller language, and changes nothing', async () => {
    const { token } = await t.userWithToken();
    const good = { app: 0, email: 1, tdtKey: 'goodkey01', timeZone: '+03:00' };
    expect((await t.call(calls.SetAccountSetting.path, good, { token })).body.Code).toBe(Code.Success);
    const before = await settingOf(token);

    const refusals: { body: Record<string, unknown>; lang: 'en' | 'zh'; msg: string; field: string }[] = [
      { body: { ...good, app: 2 }, lang: 'en', msg: 'The app notifications must be 1 (on) or 0 (off).', field: 'app' },
      { body: { ...good, app: 2 }, lang: 'zh', msg: 'App 通知只能是 1（开）或 0（关）。', field: 'app' },
      { body: { ...good, email: '1' }, lang: 'en', msg: 'The e-mail notifications must be 1 (on) or 0 (off).', field: 'email' },
      { body: { ...good, timeZone: '+13:00' }, lang: 'en', msg: 'The time zone must look like +08:00, between -12:00 and +12:00.', field: 'timeZone' },
      { body: { ...good, timeZone: '+05:30' }, lang: 'zh', msg: '时区格式应为 +08:00，范围 -12:00 至 +12:00。', field: 'timeZone' },
      { body: { ...good, tdtKey: 'key&tk=other' }, lang: 'en', msg: 'The map-service key may hold only letters and digits.', field: 'tdtKey' },
      { body: { ...good, tdtKey: 'k'.repeat(65) }, lang: 'zh', msg: '地图服务密钥最多 64 个字符。', field: 'tdtKey' },
      { body: { email: 1, tdtKey: '' }, lang: 'en', msg: 'The app notifications must be 1 (on) or 0 (off).', field: 'app' },
      { body: { ...good, userId: 7 }, lang: 'en', msg: 'This call does not take the field userId.', field: 'userId' },
      { body: { ...good, userId: 7 }, lang: 'zh', msg: '此接口不接受字段 userId。', field: 'userId' },
    ];
    for (const r of refusals) {
      const { body } = await t.call(calls.SetAccountSetting.path, r.body, { token, lang: r.lang });
      expect(body, JSON.stringify(r.body)).toEqual({ Code: Code.Invalid, Msg: r.msg, Data: { Field: r.field } });
    }
    expect(await settingOf(token)).toEqual(before);
    expect(before).toEqual({ TdtKey: 'goodkey01', ReceiveNotification: { APP: 0, Email: 1 }, TimeZone: '+03:00' });
  });

  it("one user's settings do not change another's", async () => {
    const a = await t.userWithToken();
    const b = await t.userWithToken({ org: 'Shared Org' });
    const c = await t.userWithToken({ org: 'Shared Org' });
    const bBefore = await settingOf(b.token);
    await t.call(calls.SetAccountSetting.path, { app: 0, email: 1, tdtKey: 'akey', timeZone: '-12:00' }, { token: a.token });
    await t.call(calls.SetAccountSetting.path, { app: 0, email: 0, tdtKey: 'ckey', timeZone: '+12:00' }, { token: c.token });
    expect(await settingOf(a.token)).toEqual({ TdtKey: 'akey', ReceiveNotification: { APP: 0, Email: 1 }, TimeZone: '-12:00' });
    expect(await settingOf(c.token)).toEqual({ TdtKey: 'ckey', ReceiveNotification: { APP: 0, Email: 0 }, TimeZone: '+12:00' });
    expect(await settingOf(b.token)).toEqual(bBefore);
    expect(bBefore).toEqual({ TdtKey: '', ReceiveNotification: { APP: 1, Email: 0 }, TimeZone: '+08:00' });
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
    // A body naming a user is refused (the call takes no field): the token decides.
    expect((await t.call(calls.GetUserInfo.path, { UserId: 1 }, { token: b.token })).body).toEqual({ Code: Code.Invalid, Msg: 'This call does not take the field UserId.', Data: { Field: 'UserId' } });
    const infoB = UserSchema.parse((await t.call(calls.GetUserInfo.path, {}, { token: b.token })).body.Data);
    expect(infoB.UserName).toBe(b.userName);
    expect(infoB.Lcid).toBe(2052);
  });

  it('refuses every user call without a token', async () => {
    const bodies = new Map<string, unknown>([
      [calls.ModifyLcid.path, { lcid: 1033 }],
      [calls.SetAccountSetting.path, { app: 0, email: 0, tdtKey: 'anykey', timeZone: '+01:00' }],
    ]);
    for (const c of [calls.Exit, calls.ModifyLcid, calls.GetAccountSetting, calls.SetAccountSetting, calls.GetUserInfo, calls.GetAccountSafeSetting]) {
      const { body } = await t.call(c.path, bodies.get(c.path) ?? {});
      expect(body.Code, c.path).toBe(Code.SessionExpired);
    }
  });

  it('validates operator-created users with the contract rules', async () => {
    await expect(t.services.users.createUser({ orgName: 'X', userName: 'ab', password: 'Field-Station-1' })).rejects.toThrow(/user name/);
    await expect(t.services.users.createUser({ orgName: 'X', userName: 'validname', password: 'weak' })).rejects.toThrow(/password/);
    await expect(t.services.users.createUser({ orgName: 'X', userName: 'has@sign', password: 'Field-Station-1' })).rejects.toThrow(/user name/);
  });
});
