import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallDef, calls, Code, isWebLink, type Notice } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { type Created, onCreated } from '../../domain/event-bus.js';
import { NoticeInputError } from './service.js';

describe.each(DIALECTS)('notices on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let carol: string;
  let bob: string;
  const sent: Created[] = [];
  let stop: () => void;

  const call = async (def: CallDef, body: Record<string, unknown>, opts: { token?: string | null; lang?: 'en' | 'zh' } = {}) =>
    (await t.call(def.path, body, { ...(opts.token === null ? {} : { token: opts.token ?? alice }), lang: opts.lang ?? 'en' })).body;
  const data = async <T,>(def: CallDef, body: Record<string, unknown>, token = alice): Promise<T> => {
    const r = await call(def, body, { token });
    expect(r.Code, r.Msg).toBe(Code.Success);
    return def.data.parse(r.Data) as T;
  };
  const list = async (token = alice) => (await data<{ list: Notice[] }>(calls.GetNoticeList, { timeZone: '+08:00' }, token)).list;
  const unread = async (token = alice) => (await data<{ count: number }>(calls.GetNoticeUnReadCount, {}, token)).count;
  const states = async () => Number((await t.database.db.selectFrom('notice_states').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  let toAll: number;
  let toHeron: number;
  let toCrane: number;

  beforeAll(async () => {
    stop = onCreated((c) => sent.push(c));
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: carol } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Crane Lab' }));
    toAll = await t.services.notices.send({ title: 'Maintenance tonight', body: 'The server restarts at 22:00.\nExpect 5 minutes without data.\n\nThanks', website: 'https://status.example.org/x' }, Date.UTC(2026, 10, 20, 2));
    toHeron = await t.services.notices.send({ title: 'Heron only', body: '<img src=x onerror=alert(1)> <b>bold</b>', website: 'javascript:alert(1)', orgName: 'Heron Lab' }, Date.UTC(2026, 10, 20, 3));
    toCrane = await t.services.notices.send({ title: 'Crane only', body: 'hello', orgName: 'Crane Lab' }, Date.UTC(2026, 10, 20, 4));
  }, 60_000);
  afterAll(async () => {
    stop();
    await t?.close();
  });

  it('lists the organisation\'s notices and those to all, newest first, as stored; announces each new one', async () => {
    const mine = await list();
    expect(mine.map((n) => n.Id)).toEqual([toHeron, toAll]);
    expect(mine[1]).toEqual({
      Id: toAll, NoticeId: toAll, IdStr: String(toAll), NoticeIdStr: String(toAll), Title: 'Maintenance tonight', Body: 'The server restarts at 22:00.\nExpect 5 minutes without data.\n\nThanks',
      SendTime: '2026-11-20 10:00:00', Viewed: 0, Website: 'https://status.example.org/x',
    });
    expect(mine[0]!.Body).toBe('<img src=x onerror=alert(1)> <b>bold</b>');
    expect((await list(bob)).map((n) => n.Id)).toEqual([toCrane, toAll]);
    expect(await unread()).toBe(2);
    await expect.poll(() => sent.filter((c) => c.kind === 'notice').map((c) => (c as { noticeId: number }).noticeId)).toEqual(expect.arrayContaining([toAll, toHeron, toCrane]));
    expect(sent.find((c) => c.kind === 'notice' && c.noticeId === toAll)).toMatchObject({ orgId: null });
    expect(isWebLink('https://status.example.org/x')).toBe(true);
    expect(isWebLink('javascript:alert(1)')).toBe(false);
    expect(isWebLink('http://')).toBe(false);
    expect(isWebLink('www.example.org')).toBe(false);
  });

  it('get does not mark read; Viewed does, for the caller only; Delete hides it for the caller only', async () => {
    const got = await data<Notice>(calls.GetNotice, { Id: String(toAll), timeZone: '+00:00' });
    expect(got).toMatchObject({ Title: 'Maintenance tonight', SendTime: '2026-11-20 02:00:00', Website: 'https://status.example.org/x', Viewed: 0 });
    expect(await unread()).toBe(2);
    expect((await call(calls.NoticeViewed, { Id: String(toAll) })).Code).toBe(Code.Success);
    expect((await call(calls.NoticeViewed, { Id: String(toAll) })).Code).toBe(Code.Success);
    expect(await unread()).toBe(1);
    expect(await unread(carol)).toBe(2);
    expect((await list()).find((n) => n.Id === toAll)!.Viewed).toBe(1);
    expect((await call(calls.DeleteNotice, { Id: String(toHeron) })).Code).toBe(Code.Success);
    expect((await list()).map((n) => n.Id)).toEqual([toAll]);
    expect(await unread()).toBe(0);
    expect((await list(carol)).map((n) => n.Id)).toEqual([toHeron, toAll]);
    expect((await call(calls.GetNotice, { Id: String(toHeron) })).Code).toBe(Code.NotFound);
  });

  it('refuses another organisation\'s notice, no token and bad input, changing nothing', async () => {
    const before = await states();
    for (const def of [calls.GetNotice, calls.NoticeViewed, calls.DeleteNotice]) {
      expect(await call(def, { Id: String(toCrane) }, { lang: 'zh' })).toMatchObject({ Code: Code.NotFound, Msg: '通知不存在。' });
      expect(await call(def, { Id: '999999' })).toMatchObject({ Code: Code.NotFound, Msg: 'There is no such notice.' });
      expect((await call(def, { Id: String(toAll) }, { token: null })).Code).toBe(Code.SessionExpired);
      const bad = await call(def, { Id: 'abc' });
      expect(bad.Code).toBe(Code.Invalid);
      expect((bad.Data as { Field: string }).Field).toBe('Id');
    }
    for (const def of [calls.GetNoticeList, calls.GetNoticeUnReadCount]) expect((await call(def, {}, { token: null })).Code).toBe(Code.SessionExpired);
    expect(await states()).toBe(before);
  });

  it('the operator\'s send refuses what it can\'t store, storing nothing', async () => {
    const count = async () => Number((await t.database.db.selectFrom('notices').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const before = await count();
    await expect(t.services.notices.send({ title: ' ', body: 'x' })).rejects.toThrow(NoticeInputError);
    await expect(t.services.notices.send({ title: 'x', body: '' })).rejects.toThrow(NoticeInputError);
    await expect(t.services.notices.send({ title: 'x', body: 'y', orgName: 'Nowhere' })).rejects.toThrow('no organisation named Nowhere');
    expect(await count()).toBe(before);
  });

  it("a notice to one user: only that user lists, counts, reads and deletes it, rendered in the reader's language", async () => {
    const userId = async (org: string) => Number((await t.database.db.selectFrom('users as u').innerJoin('organisations as o', 'o.id', 'u.org_id').select('u.id').where('o.name', '=', org).orderBy('u.id').executeTakeFirstOrThrow()).id);
    const aliceId = await userId('Heron Lab');
    const [aliceUnread, carolUnread, carolList] = [await unread(), await unread(carol), (await list(carol)).length];
    const id = await t.services.notices.sendToUser(aliceId, {
      title: { key: 'downloadTask.failedTitle' },
      body: { key: 'downloadTask.failedBody', params: { title: 'Storks', start: '2026-11-01 00:00:00', end: '2026-11-02 00:00:00', reason: { key: 'downloadTask.interrupted', params: { attempts: 3 } } } },
    });
    await expect.poll(() => sent.find((c) => c.kind === 'notice' && c.noticeId === id)).toMatchObject({ userId: aliceId });
    expect(await unread()).toBe(aliceUnread + 1);
    expect((await list()).find((n) => n.Id === id)).toMatchObject({
      Title: 'Your download failed',
      Body: 'The download task "Storks" (2026-11-01 00:00:00 to 2026-11-02 00:00:00) failed: The server stopped while writing the file; tried 3 times.',
      Viewed: 0,
    });
    const zh = await call(calls.GetNotice, { Id: String(id) }, { lang: 'zh' });
    expect(zh.Data).toMatchObject({ Title: '您的下载未能完成', Body: '下载任务“Storks”（2026-11-01 00:00:00 至 2026-11-02 00:00:00）未能完成：服务器在生成文件时停止，已重试 3 次。' });
    // another user of the same organisation does not see it, nor can read or delete it
    expect((await list(carol)).length).toBe(carolList);
    expect(await unread(carol)).toBe(carolUnread);
    const before = await states();
    for (const def of [calls.GetNotice, calls.NoticeViewed, calls.DeleteNotice]) expect((await call(def, { Id: String(id) }, { token: carol })).Code).toBe(Code.NotFound);
    expect(await states()).toBe(before);
    expect((await call(calls.NoticeViewed, { Id: String(id) })).Code).toBe(Code.Success);
    expect(await unread()).toBe(aliceUnread);
    expect((await call(calls.DeleteNotice, { Id: String(id) })).Code).toBe(Code.Success);
    expect((await list()).some((n) => n.Id === id)).toBe(false);
  });
});
