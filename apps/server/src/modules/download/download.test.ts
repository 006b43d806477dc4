import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, calls, Code, DeviceType, type DownloadTask, INGEST_BASE, ingestHeaders, LanguageId, type Notice, signedHeaders, SpeciesType } from '@wildtrack/contract';
import { contractCalls } from '../../test/contract-calls.js';
import { BASE, DAY, HOUR, local, MIN, NOW, type Page, ZONE } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { zipEntries } from '../../test/zip-entries.js';

/** Route tests of download tasks (§2.1 /download, §4 Download task): the calls, their refusals, the file. */
describe.each(DIALECTS)('download tasks on %s', (dialect) => {
  // The shares' windows and the tasks' expiry are read on the server's clock: fixed at NOW.
  useFixedClock(NOW);
  let t: TestApp;
  let alice: string;
  let bob: string;
  let carol: string;
  const { call, data } = contractCalls(() => t, () => alice, { timeZone: ZONE });
  const range = { startTime: local(BASE - DAY), endTime: local(BASE + DAY) };
  const tasks = async (token = alice) => (await data<Page<DownloadTask>>(calls.GetDownloadTaskListByPage, { currentPage: 1, pageSize: 10 }, { token })).List;
  const rows = async () => Number((await t.database.db.selectFrom('download_tasks').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  /** The file of a download, or the envelope of its refusal. */
  const fetchFile = async (id: string, as: string | null = alice, lang: 'en' | 'zh' = 'en') => {
    const token = as ?? undefined;
    const payload = JSON.stringify({ id, timeZone: ZONE });
    const p = calls.DownloadDownloadTask.path;
    const res = await t.app.inject({
      method: 'POST',
      url: API_BASE + p,
      headers: { ...signedHeaders({ token, path: p, body: payload, lcid: LanguageId[lang], now: clockNow() }), 'content-type': 'application/json' },
      payload,
    });
    return res.headers['content-type']?.toString().startsWith('application/zip') ? { zip: res.rawPayload, disposition: String(res.headers['content-disposition']) } : { envelope: res.json() as { Code: number; Msg: string } };
  };
  const finished = async (id: string, token = alice) => {
    await expect.poll(async () => (await tasks(token)).find((x) => x.IdStr === id)?.Status, { timeout: 30_000, interval: 100 }).not.toMatch(/^(WAITING|DOWNLOADING)$/);
    return (await tasks(token)).find((x) => x.IdStr === id)!;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Crane Lab' }));
    ({ token: carol } = await t.userWithToken({ org: 'Heron Lab' }));
    const aliceOrg = await t.services.devices.orgIdByName('Heron Lab');
    const bobOrg = await t.services.devices.orgIdByName('Crane Lab');
    const userOf = async (org: number) => Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', org).executeTakeFirstOrThrow()).id);
    const reg = async (orgId: number, imei: string, type: DeviceType = DeviceType.Tracker) => {
      const r = await t.services.devices.register({ orgId, imei, caption: `Heron ${imei}`, type, speciesType: SpeciesType.Bird, sensors: ['GNSS', 'Temperature'] });
      // three fixes and two temperatures an hour apart around BASE, through the ingest route
      const batch = JSON.stringify({
        fixes: { t: [BASE, BASE + HOUR, BASE + 2 * HOUR], lon: [121, 121.1, 121.2], lat: [31, 31.1, 31.2] },
        sensors: [{ kind: 'temperature', t: [BASE, BASE + 30 * MIN], v: [[21.5], [22]] }],
      });
      const headers = ingestHeaders({ imei, secret: r.secret, path: `${INGEST_BASE}/batch`, body: batch, now: clockNow() });
      const res = await t.app.inject({ method: 'POST', url: `${INGEST_BASE}/batch`, headers: { ...headers, 'content-type': 'application/json' }, payload: batch });
      expect(res.statusCode, res.body).toBe(200);
      return Number(r.id);
    };
    await reg(aliceOrg, 'H-ONE');
    await reg(aliceOrg, 'H-TWO');
    await reg(aliceOrg, 'H-VHF', DeviceType.VHFReceiver);
    const [aliceId, bobId] = [await userOf(aliceOrg), await userOf(bobOrg)];
    const now = NOW;
    const share = (device: number, download: number, from: number, to: number) => ({
      device_id: device, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 0, remote_instr: 0, download_data: download, effective_time: from, failure_time: to, created_at: now,
    });
    await t.database.db
      .insertInto('device_shares')
      .values([
        share(await reg(bobOrg, 'B-SHARED'), 1, now - DAY, now + 30 * DAY),
        share(await reg(bobOrg, 'B-NODOWNLOAD'), 0, now - DAY, now + 30 * DAY),
        share(await reg(bobOrg, 'B-EXPIRED'), 1, now - 3 * DAY, now - HOUR),
      ])
      .execute();
    await reg(bobOrg, 'B-PRIVATE');
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('runs a task of two devices and two kinds to SUCCESSFUL; its zip holds a file per device and kind', async () => {
    const created = await data<DownloadTask>(calls.CreateDownloadTask, { imeis: ['H-ONE', 'H-TWO'], kinds: ['fix', 'temperature'], fileType: 'csv', ...range });
    expect(created).toMatchObject({ Status: 'WAITING', IMEIs: ['H-ONE', 'H-TWO'], Kinds: ['fix', 'temperature'], FileType: 'csv', TimeZone: ZONE, FileUrl: '' });
    const done = await finished(created.IdStr);
    expect(done, done.Error).toMatchObject({ Status: 'SUCCESSFUL', Percent: 100, Error: '' });
    expect(done.Rows).toBe(2 * (3 + 2));
    // counted before writing: the rows the files hold
    expect(done.RowsTotal).toBe(done.Rows);
    // kept 7 days by default (from its end, on the fixed clock): shown as days and hours from RemainingMs
    expect(done.RemainingMs).toBe(7 * DAY);
    const got = await fetchFile(created.IdStr);
    expect(got.zip, JSON.stringify(got.envelope)).toBeDefined();
    expect(got.disposition).toMatch(/^attachment; filename="download-\d+-\d{4}-\d\d-\d\d\.zip"/);
    const entries = zipEntries(got.zip!);
    const names = [...entries.keys()];
    expect(names).toHaveLength(4);
    for (const imei of ['H-ONE', 'H-TWO']) expect(names.filter((n) => n.includes(imei))).toHaveLength(2);
    for (const [name, bytes] of entries) {
      expect(name).toMatch(/\.csv$/);
      const lines = bytes.toString('utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
      expect(lines.length, name).toBe(1 + (/temperature|温度/i.test(name) ? 2 : 3));
    }
    // no part file left beside it
    const dir = path.join(t.dataDir, 'downloads');
    const files = fs.readdirSync(dir, { recursive: true }).map(String);
    expect(files.filter((f) => f.endsWith('.part'))).toEqual([]);
  });

  it('tells its owner "your download is ready" as a notice in their language, with its name and range; another member of the organisation is not told', async () => {
    const notices = async (token: string, lang: 'en' | 'zh' = 'en') => (await data<{ list: Notice[] }>(calls.GetNoticeList, {}, { token, lang })).list;
    const carolBefore = (await notices(carol)).length;
    const created = await data<DownloadTask>(calls.CreateDownloadTask, { imeis: ['H-ONE'], kinds: ['fix'], fileType: 'csv', title: 'Herons autumn', ...range });
    expect((await finished(created.IdStr)).Status).toBe('SUCCESSFUL');
    const task = (await tasks()).find((x) => x.IdStr === created.IdStr)!;
    await expect.poll(async () => (await notices(alice)).some((n) => n.Body.includes('Herons autumn'))).toBe(true);
    const en = (await notices(alice)).find((n) => n.Body.includes('Herons autumn'))!;
    expect(en).toMatchObject({ Title: 'Your download is ready', Viewed: 0 });
    expect(en.Body).toContain(`(${task.StartTime} to ${task.EndTime})`);
    const zh = (await notices(alice, 'zh')).find((n) => n.Id === en.Id)!;
    expect(zh.Title).toBe('您的下载已就绪');
    expect(zh.Body).toContain(`（${task.StartTime} 至 ${task.EndTime}）`);
    expect(await notices(carol)).toHaveLength(carolBefore);
    expect((await call(calls.GetNotice, { Id: en.IdStr }, { token: carol })).Code).toBe(Code.NotFound);
  });

  it('counts and pages the caller\'s own tasks only', async () => {
    const mine = await data<{ Count: number }>(calls.GetDownloadTaskCount, {});
    expect(mine.Count).toBeGreaterThanOrEqual(1);
    expect((await data<{ Count: number }>(calls.GetDownloadTaskCount, {}, { token: bob })).Count).toBe(0);
    expect(await tasks(bob)).toEqual([]);
    expect((await data<{ Count: number }>(calls.GetDownloadTaskCount, { status: 'SUCCESSFUL' })).Count).toBeGreaterThanOrEqual(1);
  });

  it("refuses another user's task, and a caller without a token", async () => {
    const id = (await tasks())[0]!.IdStr;
    for (const def of [calls.CancelDownloadTask, calls.DeleteDownloadTask]) {
      expect(await call(def, { id }, { token: bob })).toMatchObject({ Code: Code.NotFound, Msg: 'There is no such download task.' });
    }
    expect((await fetchFile(id, bob)).envelope).toMatchObject({ Code: Code.NotFound });
    expect((await fetchFile(id, null)).envelope?.Code).toBe(Code.SessionExpired);
    expect((await call(calls.GetDownloadTaskListByPage, {}, { token: null })).Code).toBe(Code.SessionExpired);
    expect((await tasks()).find((x) => x.IdStr === id)?.Status).toBe('SUCCESSFUL');
  });

  it('takes a shared device with DownloadData; refuses one without it, an expired share, a stranger\'s device and a VHF receiver, storing nothing', async () => {
    const before = await rows();
    const create = (imeis: string[], lang: 'en' | 'zh' = 'en') => call(calls.CreateDownloadTask, { imeis, kinds: ['fix'], fileType: 'csv', ...range }, { lang });
    expect(await create(['H-ONE', 'B-NODOWNLOAD'])).toMatchObject({ Code: Code.Forbidden });
    expect(await create(['B-EXPIRED'])).toMatchObject({ Code: Code.NotFound, Msg: 'No such device' });
    expect(await create(['B-PRIVATE'])).toMatchObject({ Code: Code.NotFound, Msg: 'No such device' });
    expect(await create(['H-VHF'])).toMatchObject({ Code: Code.Invalid, Data: { Field: 'imeis[0]' } });
    expect((await create(['H-VHF'], 'zh')).Msg).toContain('VHF 接收机');
    expect(await rows()).toBe(before);
    const shared = await data<DownloadTask>(calls.CreateDownloadTask, { imeis: ['B-SHARED'], kinds: ['fix'], fileType: 'xls', ...range });
    expect((await finished(shared.IdStr)).Status).toBe('SUCCESSFUL');
    // the share ends: its file is no longer served
    await t.database.db.updateTable('device_shares').set({ download_data: 0 }).where('device_id', '=', (eb) => eb.selectFrom('devices').select('id').where('imei', '=', 'B-SHARED')).execute();
    expect((await fetchFile(shared.IdStr)).envelope).toMatchObject({ Code: Code.Forbidden });
  });

  it('refuses bad input with 601 naming the field, storing nothing', async () => {
    const before = await rows();
    const good = { imeis: ['H-ONE'], kinds: ['fix'], fileType: 'csv', ...range };
    const cases: [Record<string, unknown>, string][] = [
      [{ fileType: 'pdf' }, 'fileType'],
      [{ kinds: ['bogus'] }, 'kinds[0]'],
      [{ kinds: [] }, 'kinds'],
      [{ imeis: [] }, 'imeis'],
      [{ startTime: range.endTime, endTime: range.startTime }, 'endTime'],
      [{ startTime: '2000-01-01 00:00:00', endTime: '2026-11-01 00:00:00' }, 'endTime'],
      [{ fileType: 'movebank', kinds: ['fix', 'temperature'] }, 'kinds[1]'],
      [{ title: 'x'.repeat(61) }, 'title'],
      // hidden characters in the title, which the "download ready" notice shows (issue 26 L8)
      [{ title: 'Herons\u0000autumn' }, 'title'],
      [{ title: 'gpj\u202Eexe' }, 'title'],
      [{ title: '\u2066Herons\u2069' }, 'title'],
    ];
    for (const [change, field] of cases) {
      const r = await call(calls.CreateDownloadTask, { ...good, ...change });
      expect(r, JSON.stringify(change)).toMatchObject({ Code: Code.Invalid, Data: { Field: field } });
    }
    expect(await call(calls.CancelDownloadTask, { id: 'abc' })).toMatchObject({ Code: Code.Invalid, Data: { Field: 'id' } });
    expect(await rows()).toBe(before);
  });

  it("refuses an expired task's file; the expiry job deletes it", async () => {
    const created = await data<DownloadTask>(calls.CreateDownloadTask, { imeis: ['H-ONE'], kinds: ['fix'], fileType: 'csv', ...range });
    expect((await finished(created.IdStr)).Status).toBe('SUCCESSFUL');
    expect((await fetchFile(created.IdStr)).zip).toBeDefined();
    expect(await t.services.downloads.expire(NOW + 8 * DAY)).toBeGreaterThanOrEqual(1);
    expect((await tasks()).find((x) => x.IdStr === created.IdStr)).toMatchObject({ Status: 'EXPIRED', RemainingMs: 0, FileUrl: '' });
    expect((await fetchFile(created.IdStr)).envelope).toMatchObject({ Code: Code.NotFound, Msg: "The download task's file has expired." });
    const user = String((await tasks())[0]!.UserId);
    expect(fs.existsSync(path.join(t.dataDir, 'downloads', user, `${created.IdStr}.zip`))).toBe(false);
  });

  it('deletes a task and its file', async () => {
    const created = await data<DownloadTask>(calls.CreateDownloadTask, { imeis: ['H-TWO'], kinds: ['fix'], fileType: 'csv', ...range });
    const done = await finished(created.IdStr);
    const file = path.join(t.dataDir, 'downloads', done.UserId, `${created.IdStr}.zip`);
    expect(fs.existsSync(file)).toBe(true);
    expect(await data(calls.DeleteDownloadTask, { id: created.IdStr })).toBeNull();
    expect(fs.existsSync(file)).toBe(false);
    expect((await tasks()).find((x) => x.IdStr === created.IdStr)).toBeUndefined();
    expect(await call(calls.DeleteDownloadTask, { id: created.IdStr })).toMatchObject({ Code: Code.NotFound });
  });
});
