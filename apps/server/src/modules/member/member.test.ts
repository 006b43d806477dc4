import { randomBytes, randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, type Member, newRequestCode, sealSecret, temporaryPassword } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';

type Changed = { Member: Member };
const tempPassword = () => temporaryPassword(randomInt);

describe.each(DIALECTS)('organisation members on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const password = 'Field-Station-1';

  /** An organisation with its primary user and a member (made by the operator path), both signed in. */
  async function org() {
    const tag = randomBytes(3).toString('hex');
    const orgName = `Reserve ${tag}`;
    await t.services.users.createUser({ orgName, userName: `chief${tag}`, password, isPrimary: true });
    await t.services.users.createUser({ orgName, userName: `ranger${tag}`, password });
    const chief = (await t.login(`chief${tag}`, password)).credential!;
    const ranger = (await t.login(`ranger${tag}`, password)).credential!;
    const info = async (token: string) => (await t.call(calls.GetUserInfo.path, {}, { token })).body.Data as { UserIdStr: string };
    return { tag, chief, ranger, chiefId: (await info(chief)).UserIdStr, rangerId: (await info(ranger)).UserIdStr, rangerName: `ranger${tag}` };
  }

  const users = async () => (await t.database.db.selectFrom('users').select(['id', 'enabled', 'must_change_password', 'password_hash']).orderBy('id').execute()).map((r) => JSON.stringify(r));

  /** A call as the client sends it: the named fields sealed to the server key for this request code. */
  async function sealedCall(path: string, body: Record<string, unknown>, fields: readonly string[], opts: { token?: string; lang?: 'en' | 'zh' } = {}) {
    const publicKey = ((await t.call(calls.GetPublicKey.path, {})).body.Data as { PublicKey: string }).PublicKey;
    const requestCode = newRequestCode();
    const sealed = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, fields.includes(k) && typeof v === 'string' ? sealSecret(publicKey, v, requestCode) : v]));
    return t.call(path, sealed, { ...opts, requestCode });
  }

  /** ModifyTemporaryPassword as the client sends it: both passwords sealed. */
  const changeTemporary = (token: string, originalPwd: string, newPwd: string, lang: 'en' | 'zh' = 'en') =>
    sealedCall(calls.ModifyTemporaryPassword.path, { originalPwd, newPwd }, ['originalPwd', 'newPwd'], { token, lang });
  /** CreateMember and ResetMemberPassword as the browser sends them: the temporary password it made, sealed. */
  const createMember = (body: Record<string, unknown>, opts: { token?: string; lang?: 'en' | 'zh' }) => sealedCall(calls.CreateMember.path, body, ['tempPwd'], opts);
  const resetMember = (body: Record<string, unknown>, opts: { token?: string; lang?: 'en' | 'zh' }) => sealedCall(calls.ResetMemberPassword.path, body, ['tempPwd'], opts);

  it('the primary user lists, creates, disables, re-enables and resets members; the actions go to the user log', async () => {
    const o = await org();
    const list = await t.call(calls.GetMemberList.path, { timeZone: '+08:00' }, { token: o.chief });
    expect(list.body.Code).toBe(Code.Success);
    const rows = (list.body.Data as { List: Member[] }).List;
    expect(rows.map((m) => [m.UserIdStr, m.IsPrimary, m.Enabled])).toEqual([
      [o.chiefId, true, 1],
      [o.rangerId, false, 1],
    ]);
    expect(rows[1]!.LastLoginTime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);

    const TempPassword = tempPassword();
    const created = await createMember({ userName: `Guide${o.tag}`, nickName: '  Guide  ', emailAddress: `guide${o.tag}@example.org`, phone: '13800138000', tempPwd: TempPassword }, { token: o.chief });
    expect(created.body.Code).toBe(Code.Success);
    const { Member: m } = created.body.Data as Changed;
    expect(m).toMatchObject({ UserName: `Guide${o.tag}`, NickName: 'Guide', EMail: `guide${o.tag}@example.org`, Phone: '13800138000', IsPrimary: false, Enabled: 1, MustChangePassword: true, LastLoginTime: '' });
    // The answer carries the member and no password (§7.1: the password went sealed, and comes back nowhere).
    expect(Object.keys(created.body.Data as object)).toEqual(['Member']);
    expect(JSON.stringify(created.body)).not.toContain(TempPassword);

    // The new member signs in with the temporary password and must change it first.
    const first = await t.login(`guide${o.tag}`, TempPassword);
    expect(first.body).toMatchObject({ Code: Code.Success, Data: { MustChangePassword: true } });
    const guide = first.credential!;
    const blocked = await t.call(calls.GetTree.path, { timeZone: '+08:00' }, { token: guide, lang: 'zh' });
    expect(blocked.body).toMatchObject({ Code: Code.Forbidden, Msg: '请先修改临时密码' });
    expect((await t.call(calls.GetUserInfo.path, {}, { token: guide })).body.Code).toBe(Code.Success);
    expect((await changeTemporary(guide, 'Wrong-Pass-1', 'Own-Secret-22')).body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'originalPwd' } });
    expect((await changeTemporary(guide, TempPassword, TempPassword)).body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'newPwd' }, Msg: 'The new password must differ from the temporary password.' });
    expect((await changeTemporary(guide, TempPassword, 'short')).body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'newPwd' } });
    expect((await changeTemporary(guide, TempPassword, 'Own-Secret-22')).body.Code).toBe(Code.Success);
    // The same session now goes on; a second change is refused; the new password signs in without a change due.
    expect((await t.call(calls.GetTree.path, { timeZone: '+08:00' }, { token: guide })).body.Code).toBe(Code.Success);
    expect((await changeTemporary(guide, 'Own-Secret-22', 'Other-Secret-33')).body).toMatchObject({ Code: Code.Failed, Msg: 'There is no temporary password to change' });
    expect((await t.login(`Guide${o.tag}`, 'Own-Secret-22')).body).toMatchObject({ Code: Code.Success, Data: { MustChangePassword: false } });

    // Disabling ends the member's sessions and sign-in; re-enabling lets them in again.
    const off = await t.call(calls.SetMemberEnabled.path, { memberId: o.rangerId, enabled: 0 }, { token: o.chief });
    expect(off.body).toMatchObject({ Code: Code.Success, Data: { UserIdStr: o.rangerId, Enabled: 0 } });
    expect((await t.call(calls.Heartbeat.path, {}, { token: o.ranger })).body.Code).toBe(Code.SessionExpired);
    expect((await t.login(o.rangerName, password, 'zh')).body).toMatchObject({ Code: Code.SignInFailed, Msg: '该账号已停用，请联系本单位的主账号' });
    // A wrong password still reads as any wrong password: a guesser learns nothing of the account.
    expect((await t.login(o.rangerName, 'Wrong-Pass-1')).body).toMatchObject({ Code: Code.SignInFailed, Msg: 'Incorrect account or password' });
    expect((await t.call(calls.SetMemberEnabled.path, { memberId: o.rangerId, enabled: 1 }, { token: o.chief })).body).toMatchObject({ Code: Code.Success, Data: { Enabled: 1 } });
    const back = await t.login(o.rangerName, password);
    expect(back.body).toMatchObject({ Code: Code.Success, Data: { MustChangePassword: false } });

    // A reset ends the member's sessions and forces a change at the next sign-in.
    const freshPassword = tempPassword();
    const reset = await resetMember({ memberId: o.rangerId, tempPwd: freshPassword }, { token: o.chief });
    expect(reset.body.Code).toBe(Code.Success);
    expect(JSON.stringify(reset.body)).not.toContain(freshPassword);
    expect(Object.keys(reset.body.Data as object)).toEqual(['Member']);
    expect((reset.body.Data as Changed).Member.MustChangePassword).toBe(true);
    expect((await t.call(calls.Heartbeat.path, {}, { token: back.credential! })).body.Code).toBe(Code.SessionExpired);
    expect((await t.login(o.rangerName, password)).body.Code).toBe(Code.SignInFailed);
    expect((await t.login(o.rangerName, freshPassword)).body).toMatchObject({ Code: Code.Success, Data: { MustChangePassword: true } });

    const log = await t.database.db.selectFrom('user_log').select(['user_id', 'target']).where('user_id', '=', Number(o.chiefId)).orderBy('id').execute();
    expect(log.map((r) => r.target)).toEqual([`member.create:${m.UserIdStr}`, `member.disable:${o.rangerId}`, `member.enable:${o.rangerId}`, `member.resetPassword:${o.rangerId}`]);
  });

  it('refuses a member who is not primary, another organisation, no token and acting on oneself or a primary user, changing nothing', async () => {
    const o = await org();
    const other = await org();
    const before = await users();
    const tempPwd = tempPassword();
    const cases: [string, Record<string, unknown>][] = [
      [calls.GetMemberList.path, {}],
      [calls.CreateMember.path, { userName: `Sneaky${o.tag}`, nickName: 'Sneaky', tempPwd }],
      [calls.SetMemberEnabled.path, { memberId: o.chiefId, enabled: 0 }],
      [calls.ResetMemberPassword.path, { memberId: o.chiefId, tempPwd }],
    ];
    for (const [p, body] of cases) {
      expect((await sealedCall(p, body, ['tempPwd'], { token: o.ranger, lang: 'zh' })).body, `${p} by a member`).toMatchObject({ Code: Code.Forbidden, Msg: '没有权限执行此操作' });
      expect((await sealedCall(p, body, ['tempPwd'])).body.Code, `${p} without a token`).toBe(Code.SessionExpired);
    }
    for (const [p, body] of [
      [calls.SetMemberEnabled.path, { memberId: other.rangerId, enabled: 0 }],
      [calls.ResetMemberPassword.path, { memberId: other.rangerId, tempPwd }],
      [calls.SetMemberEnabled.path, { memberId: '999999999', enabled: 0 }],
    ] as const) {
      expect((await sealedCall(p, body, ['tempPwd'], { token: o.chief })).body, `${p} on another organisation's member`).toMatchObject({ Code: Code.NotFound, Msg: 'No such member in your organisation' });
    }
    expect((await t.call(calls.SetMemberEnabled.path, { memberId: o.chiefId, enabled: 0 }, { token: o.chief })).body).toMatchObject({ Code: Code.Failed, Msg: 'You cannot do this to your own account' });
    expect((await resetMember({ memberId: other.chiefId, tempPwd }, { token: other.chief, lang: 'zh' })).body).toMatchObject({ Code: Code.Failed, Msg: '不能对自己的账号执行此操作' });
    // The other organisation's list holds none of this one's accounts.
    const theirs = ((await t.call(calls.GetMemberList.path, {}, { token: other.chief })).body.Data as { List: Member[] }).List.map((m) => m.UserIdStr);
    expect(theirs).not.toContain(o.rangerId);
    expect(await users()).toEqual(before);
    expect((await changeTemporary(o.ranger, password, 'Own-Secret-22')).body).toMatchObject({ Code: Code.Failed });
    expect(await users()).toEqual(before);
  });

  it('answers bad input with 601 naming the field in the caller language, creating nothing', async () => {
    const o = await org();
    const before = await users();
    const tempPwd = tempPassword();
    const cases: { body: Record<string, unknown>; lang: 'en' | 'zh'; field: string; msg?: string }[] = [
      { body: { userName: '', nickName: 'A', tempPwd }, lang: 'en', field: 'userName', msg: 'Enter the account name.' },
      { body: { userName: '1abcdef', nickName: 'A', tempPwd }, lang: 'en', field: 'userName' },
      { body: { userName: 'abc', nickName: 'A', tempPwd }, lang: 'zh', field: 'userName' },
      { body: { userName: 'abc@defg', nickName: 'A', tempPwd }, lang: 'en', field: 'userName' },
      { body: { userName: `Ok${o.tag}x`, nickName: '   ', tempPwd }, lang: 'en', field: 'nickName' },
      { body: { userName: `Ok${o.tag}x`, nickName: 'A', emailAddress: 'not-mail', tempPwd }, lang: 'en', field: 'emailAddress' },
      { body: { userName: `Ok${o.tag}x`, nickName: 'A', phone: '12345', tempPwd }, lang: 'zh', field: 'phone' },
      { body: { userName: o.rangerName.toUpperCase(), nickName: 'A', tempPwd }, lang: 'en', field: 'userName', msg: 'The account name is already in use.' },
      { body: { userName: `Ok${o.tag}x`, nickName: 'A', tempPwd, extra: 1 }, lang: 'en', field: 'extra' },
      // The temporary password: required, §5's rule once opened
      { body: { userName: `Ok${o.tag}x`, nickName: 'A' }, lang: 'en', field: 'tempPwd' },
      { body: { userName: `Ok${o.tag}x`, nickName: 'A', tempPwd: 'abcdefgh' }, lang: 'en', field: 'tempPwd' },
      { body: { userName: `Ok${o.tag}x`, nickName: 'A', tempPwd: 'Ab1' }, lang: 'zh', field: 'tempPwd' },
    ];
    for (const c of cases) {
      const r = await createMember(c.body, { token: o.chief, lang: c.lang });
      expect(r.body, JSON.stringify(c.body)).toMatchObject({ Code: Code.Invalid, Data: { Field: c.field } });
      if (c.msg) expect(r.body.Msg).toBe(c.msg);
    }
    // A password in clear is no sealed value: refused (1023), for a create and a reset.
    expect((await t.call(calls.CreateMember.path, { userName: `Ok${o.tag}x`, nickName: 'A', tempPwd }, { token: o.chief })).body.Code).toBe(Code.BadCiphertext);
    expect((await t.call(calls.ResetMemberPassword.path, { memberId: o.rangerId, tempPwd }, { token: o.chief })).body.Code).toBe(Code.BadCiphertext);
    expect((await resetMember({ memberId: o.rangerId, tempPwd: 'short' }, { token: o.chief })).body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'tempPwd' } });
    for (const body of [{ memberId: 'x', enabled: 0 }, { memberId: o.rangerId, enabled: 2 }, { enabled: 1 }]) {
      const r = await t.call(calls.SetMemberEnabled.path, body, { token: o.chief });
      expect(r.body.Code, JSON.stringify(body)).toBe(Code.Invalid);
    }
    expect(await users()).toEqual(before);
  });
});
