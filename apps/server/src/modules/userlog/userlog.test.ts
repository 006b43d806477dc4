import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GetUserLogList } from '@wildtrack/contract';
import { calls, Code, formatTime } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { NOW } from '../../test/fixed-time.js';
import { useFixedClock } from '../../test/clock.js';

type ListData = ReturnType<typeof GetUserLogList.data.parse>;

describe.each(DIALECTS)('user log on %s', (dialect) => {
  let t: TestApp;
  // Entries' times are checked against the server's clock (a week back at most): fixed at NOW.
  useFixedClock(NOW);
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  /** An organisation with its primary user and a member, each signed in. */
  async function org() {
    const tag = randomBytes(3).toString('hex');
    const orgName = `Reserve ${tag}`;
    const password = 'Field-Station-1';
    await t.services.users.createUser({ orgName, userName: `chief${tag}`, password, isPrimary: true });
    await t.services.users.createUser({ orgName, userName: `ranger${tag}`, password });
    const chief = (await t.login(`chief${tag}`, password)).credential!;
    const ranger = (await t.login(`ranger${tag}`, password)).credential!;
    const info = async (token: string) => (await t.call(calls.GetUserInfo.path, {}, { token })).body.Data as { UserIdStr: string };
    return { chief, ranger, chiefId: (await info(chief)).UserIdStr, rangerId: (await info(ranger)).UserIdStr };
  }

  const range = (from: number, to: number) => ({ startTime: formatTime(from, '+08:00'), endTime: formatTime(to, '+08:00'), timeZone: '+08:00' });
  const count = async () => Number((await t.database.db.selectFrom('user_log').select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirstOrThrow()).n);

  it('records visits and actions; the primary user reads them by member and range, newest first', async () => {
    const o = await org();
    const now = NOW;
    const rec = (token: string, entries: unknown[]) => t.call(calls.RecordUserLog.path, { entries }, { token });
    expect((await rec(o.ranger, [{ entryType: 'visit', target: '/device', time: now - 60_000 }, { entryType: 'visit', target: '/track', time: now - 30_000 }])).body)
      .toMatchObject({ Code: Code.Success, Data: null });
    expect((await rec(o.chief, [{ entryType: 'action', target: 'logout', time: now - 10_000 }])).body.Code).toBe(Code.Success);

    const all = await t.call(calls.GetUserLogList.path, range(now - 3600_000, now + 60_000), { token: o.chief });
    expect(all.body.Code).toBe(Code.Success);
    const data = all.body.Data as ListData;
    expect(data.Total).toBe(3);
    expect(data.List.map((r) => [r.Type, r.Target, r.UserIdStr])).toEqual([
      ['action', 'logout', o.chiefId],
      ['visit', '/track', o.rangerId],
      ['visit', '/device', o.rangerId],
    ]);
    expect(data.List[1]!.Time).toBe(formatTime(Math.floor((now - 30_000) / 1000) * 1000, '+08:00'));
    expect(data.Members.map((m) => m.UserIdStr).sort()).toEqual([o.chiefId, o.rangerId].sort());

    const ranger = (await t.call(calls.GetUserLogList.path, { ...range(now - 3600_000, now + 60_000), memberId: o.rangerId }, { token: o.chief })).body.Data as ListData;
    expect(ranger.List.map((r) => r.Target)).toEqual(['/track', '/device']);
    const narrow = (await t.call(calls.GetUserLogList.path, { ...range(now - 45_000, now + 60_000), memberId: o.rangerId, pageSize: 10 }, { token: o.chief })).body.Data as ListData;
    expect(narrow.List.map((r) => r.Target)).toEqual(['/track']);
  });

  it('refuses the log to a member who is not primary, to no token, and another organisation\'s member (storing nothing)', async () => {
    const o = await org();
    const other = await org();
    const now = NOW;
    const body = range(now - 3600_000, now);
    const notPrimary = await t.call(calls.GetUserLogList.path, body, { token: o.ranger, lang: 'zh' });
    expect(notPrimary.body).toMatchObject({ Code: Code.Forbidden, Msg: '没有权限执行此操作' });
    const stranger = await t.call(calls.GetUserLogList.path, { ...body, memberId: other.rangerId }, { token: o.chief });
    expect(stranger.body).toMatchObject({ Code: Code.NotFound, Msg: 'No such member in your organisation' });
    const before = await count();
    for (const p of [calls.GetUserLogList.path, calls.RecordUserLog.path]) {
      const r = await t.call(p, p === calls.RecordUserLog.path ? { entries: [{ entryType: 'visit', target: '/x', time: now }] } : body);
      expect(r.body.Code).toBe(Code.SessionExpired);
    }
    expect(await count()).toBe(before);
  });

  it('answers bad input with 601 naming the field in the caller language, storing nothing', async () => {
    const o = await org();
    const now = NOW;
    const before = await count();
    const cases: { body: unknown; lang: 'en' | 'zh'; field: string; msg?: string }[] = [
      { body: { entries: [] }, lang: 'en', field: 'entries' },
      { body: { entries: [{ entryType: 'click', target: '/x', time: now }] }, lang: 'en', field: 'entries[0].entryType', msg: 'The log entry type is not valid.' },
      { body: { entries: [{ entryType: 'visit', target: '/a b', time: now }] }, lang: 'zh', field: 'entries[0].target', msg: '页面或操作格式不正确。' },
      { body: { entries: [{ entryType: 'visit', target: 'x'.repeat(121), time: now }] }, lang: 'en', field: 'entries[0].target' },
      { body: { entries: [{ entryType: 'visit', target: '/ok', time: now }, { entryType: 'visit', target: '/late', time: now - 8 * 86_400_000 }] }, lang: 'en', field: 'entries[1].time', msg: 'The time is not valid.' },
      { body: { entries: Array.from({ length: 51 }, () => ({ entryType: 'visit', target: '/x', time: now })) }, lang: 'en', field: 'entries' },
    ];
    for (const c of cases) {
      const r = await t.call(calls.RecordUserLog.path, c.body, { token: o.ranger, lang: c.lang });
      expect(r.res.statusCode).toBeLessThan(500);
      expect(r.body.Code, JSON.stringify(c.body).slice(0, 80)).toBe(Code.Invalid);
      expect((r.body.Data as { Field: string }).Field).toBe(c.field);
      if (c.msg) expect(r.body.Msg).toBe(c.msg);
    }
    expect(await count()).toBe(before);

    const list = [
      { body: { startTime: '2026-13-01 00:00:00', endTime: '2027-12-01 00:00:00' }, field: 'startTime' },
      { body: { startTime: '2026-11-02 00:00:00', endTime: '2026-11-01 00:00:00' }, field: 'endTime' },
      { body: { startTime: '2026-11-01 00:00:00', endTime: '2026-11-02 00:00:00', memberId: 'abc' }, field: 'memberId' },
      { body: { startTime: '2026-11-01 00:00:00', endTime: '2026-11-02 00:00:00', pageSize: 7 }, field: 'pageSize' },
    ];
    for (const c of list) {
      const r = await t.call(calls.GetUserLogList.path, c.body, { token: o.chief });
      expect(r.body.Code, JSON.stringify(c.body)).toBe(Code.Invalid);
      expect((r.body.Data as { Field: string }).Field).toBe(c.field);
    }
  });
});
