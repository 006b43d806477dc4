import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, decodeTrackSet, DeviceType, formatTime, MAX_QUERY_SPAN_DAYS, SpeciesType } from '@wildtrack/contract';
import type { FixRow } from '../../ingest/decode.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';

// Issue 11, H1: a track read stored a segment row for every day of its range, empty days included (one
// call over six devices and ten years wrote 21,876 rows). A read may store at most the segments of days
// that have fixes, once; reading again, or a range without fixes, writes nothing.

const ZONE = '+08:00';
const MIN = 60_000;
const DAY = 86_400_000;
const day = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);
/** Ten years, the longest range a call may ask for: 2016-01-03 00:00 to 2025-12-31 00:00 in +08:00. */
const TEN_YEARS = { startTime: formatTime(day(2016, 1, 2) + 16 * 3600_000, ZONE), endTime: formatTime(day(2016, 1, 2) + 16 * 3600_000 + MAX_QUERY_SPAN_DAYS * DAY, ZONE), timeZone: ZONE };

/** Tables that grow by a row per request, whatever the request (the replay guard's used request codes). */
const PER_REQUEST = new Set(['request_codes']);

const fix = (time: number, over: Partial<FixRow> = {}): FixRow => ({
  pick_time: time, lon: 116.3, lat: 39.9, alt: 50, speed: 1, course: 90, temperature: 20, activity: 10, voltage: 3.9, channel: null,
  satellites: 8, hdop: 1.1, vdop: 1.4, grade: 1, valid: 1, tx_time: time + MIN, invalid_at: null, extra: null, ...over,
});

describe.each(DIALECTS)('track reads on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  /** Days with fixes, over all devices: what the reads may store segments for, at most. */
  let fixDays = 0;
  let secondLevel: { id: number };

  /**
   * Rows of every table of this database (the test's own schema on PostgreSQL) but the transport's
   * store of used request codes, which keeps one row per signed request whatever it asks (counted apart).
   */
  const rowsByTable = async (): Promise<Map<string, number>> => {
    const db = t.database.db;
    const names =
      t.database.dialect === 'postgres'
        ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)).rows
        : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)).rows;
    const out = new Map<string, number>();
    for (const { name } of names) {
      if (PER_REQUEST.has(name)) continue;
      const r = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}`.execute(db);
      out.set(name, Number(r.rows[0]!.n));
    }
    return out;
  };
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const segmentRows = async () => Number((await t.database.db.selectFrom('track_segments').select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()).n);

  const tracks = async (path: string, body: Record<string, unknown>) => {
    const r = await t.call(path, { ...TEN_YEARS, ...body }, { token });
    expect(r.body.Code, r.body.Msg).toBe(Code.Success);
    return decodeTrackSet(Buffer.from(r.body.Data as string, 'base64')).map((x) => [x.imei, x.count]);
  };
  const readAll = async () => [
    await tracks(calls.GetFixListByImeis.path, { imeis: ['SPARSE', 'EMPTY', 'BUSY'] }),
    await tracks(calls.GetAvgListByImeisAndTime.path, { imeis: ['SPARSE', 'EMPTY', 'BUSY'] }),
    await tracks(calls.GetFixList.path, { imei: 'SPARSE' }),
  ];

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token } = await t.userWithToken({ org: 'Crane Lab' }));
    const orgId = await t.services.devices.orgIdByName('Crane Lab');
    const reg = (imei: string) => t.services.devices.register({ orgId, imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], caption: imei });
    const sparse = await reg('SPARSE');
    secondLevel = await t.services.devices.register({ orgId, imei: 'SEC', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], secondLevelFix: true, caption: 'SEC' });
    await reg('EMPTY');
    const busy = await reg('BUSY');
    const write = (id: number, fixes: FixRow[]) => t.services.ingest.writeDecoded(id, { fixes, sensors: [], bursts: [], lastTime: null, lastVoltage: null }, null);
    // SPARSE: two days in 2017 and one in 2024, years of nothing between them; one attempt without a position.
    await write(sparse.id, [
      fix(day(2017, 3, 1) + 5 * MIN),
      fix(day(2017, 3, 1) + 6 * 3600_000),
      fix(day(2017, 3, 2) + 12 * 3600_000),
      fix(day(2017, 3, 2) + 13 * 3600_000, { lon: null, lat: null, valid: 0 }),
      fix(day(2024, 8, 20) + 20 * 3600_000),
    ]);
    // BUSY: a fix an hour for ten days.
    await write(busy.id, Array.from({ length: 240 }, (_, i) => fix(day(2025, 5, 1) + i * 3600_000, { lon: 100 + i * 0.01 })));
    fixDays = 3 + 10 + 2;
    // SEC: runs of 1 s fixes, one across midnight, one with an invalid first fix, an attempt without a position inside a run.
    const burst = (start: number, n: number, over: (i: number) => Partial<FixRow> = () => ({})) =>
      Array.from({ length: n }, (_, i) => fix(start + i * 1000, { speed: 10 + i, lon: 120 + (start % 1e6) / 1e7 + i * 1e-5, ...over(i) }));
    const midnight = day(2025, 6, 2);
    await write(secondLevel.id, [
      ...burst(midnight - DAY + 10 * 3600_000, 5),
      ...burst(midnight - DAY + 11 * 3600_000, 5, (i) => (i === 0 ? { valid: 0 } : {})),
      fix(midnight - DAY + 11 * 3600_000 + 2500, { lon: null, lat: null, valid: 0 }),
      ...burst(midnight - 2000, 5),
      ...burst(midnight + 5 * 3600_000, 4, (i) => ({ speed: i === 2 ? null : 3 })),
      ...burst(midnight + 5 * 3600_000 + 6000, 3),
      fix(midnight + 6 * 3600_000),
    ]);
  });
  afterAll(async () => t.close());

  it('stores no segment for an empty day: ten years over three devices store at most the days with fixes', async () => {
    const before = await rowsByTable();
    const first = await readAll();
    expect(first).toEqual([
      [['SPARSE', 4], ['EMPTY', 0], ['BUSY', 240]],
      [['SPARSE', 4], ['EMPTY', 0], ['BUSY', 240]],
      [['SPARSE', 4]],
    ]);
    const after = await rowsByTable();
    expect(await segmentRows()).toBeLessThanOrEqual(fixDays);
    expect(total(after) - total(before)).toBeLessThanOrEqual(fixDays);
    // the same reads again, and a read of years without a fix: nothing more is written anywhere
    expect(await readAll()).toEqual(first);
    const empty = { startTime: formatTime(day(2018, 1, 1), ZONE), endTime: formatTime(day(2023, 12, 31), ZONE) };
    expect(await tracks(calls.GetFixListByImeis.path, { imeis: ['SPARSE', 'EMPTY', 'BUSY'], ...empty })).toEqual([['SPARSE', 0], ['EMPTY', 0], ['BUSY', 0]]);
    expect(await rowsByTable()).toEqual(after);
  });

  it('answers from stored segments what it answered from the rows', async () => {
    const fromSegments = await t.call(calls.GetFixList.path, { imei: 'BUSY', ...TEN_YEARS }, { token });
    const fromRows = await t.call(calls.GetFixList.path, { imei: 'BUSY', ...TEN_YEARS, speed: -1e9 }, { token });
    const [a] = decodeTrackSet(Buffer.from(fromSegments.body.Data as string, 'base64'));
    const [b] = decodeTrackSet(Buffer.from(fromRows.body.Data as string, 'base64'));
    expect(a!.count).toBe(240);
    expect(Array.from(a!.times)).toEqual(Array.from(b!.times));
    expect(Array.from(a!.lonLat)).toEqual(Array.from(b!.lonLat));
    expect(Array.from(a!.valid)).toEqual(Array.from(b!.valid));
  });

  it('answers several devices from segments and the partial days at either end as from the rows', async () => {
    // 2025-05-02 07:30 to 2025-05-08 19:15 UTC: partial days at both ends with fixes in them, whole days between.
    const range = { startTime: formatTime(day(2025, 5, 2) + 7.5 * 3600_000, ZONE), endTime: formatTime(day(2025, 5, 8) + 19.25 * 3600_000, ZONE), timeZone: ZONE };
    const read = async (filter: Record<string, unknown>) => {
      const r = await t.call(calls.GetFixListByImeis.path, { imeis: ['BUSY', 'SPARSE', 'EMPTY'], ...range, ...filter }, { token });
      expect(r.body.Code, r.body.Msg).toBe(Code.Success);
      return decodeTrackSet(Buffer.from(r.body.Data as string, 'base64')).map((x) => ({ imei: x.imei, times: Array.from(x.times), lonLat: Array.from(x.lonLat) }));
    };
    const fromSegments = await read({});
    // a filter that keeps every fix makes the same call read the rows
    const fromRows = await read({ speed: -1e9 });
    expect(fromSegments.map((x) => [x.imei, x.times.length])).toEqual([['BUSY', 156], ['SPARSE', 0], ['EMPTY', 0]]);
    expect(fromSegments).toEqual(fromRows);
    expect(fromSegments[0]!.times[0]).toBe(day(2025, 5, 2) + 8 * 3600_000);
    expect(fromSegments[0]!.times.at(-1)).toBe(day(2025, 5, 8) + 19 * 3600_000);
  });

  it('pages the averaged table of a second-level device from day summaries as from the keys, after writes and marks too', async () => {
    const range = { imei: 'SEC', startTime: formatTime(day(2025, 6, 1) + 3600_000, ZONE), endTime: formatTime(day(2025, 6, 2) + 10 * 3600_000, ZONE), timeZone: ZONE };
    const page = async (body: Record<string, unknown>) => {
      const r = await t.call(calls.GetFixListByPage.path, { ...range, pageSize: 100, ...body }, { token });
      expect(r.body.Code, r.body.Msg).toBe(Code.Success);
      return r.body.Data as { List: { Id: string; GroupIds?: string[]; Speed: number | null; Validity: number }[]; Total: number };
    };
    // a filter that keeps every fix takes the keys' way: the summaries must give the same rows
    const same = async () => {
      for (const order of [{}, { sortField: 'Speed', sortOrder: 'descend' }, { sortField: 'Speed', sortOrder: 'ascend' }, { sortOrder: 'ascend' }]) {
        const summarised = await page(order);
        expect(summarised).toEqual(await page({ ...order, temperature: -1e9 }));
        for (const part of [{ ...range, startTime: formatTime(day(2025, 6, 1) + 11 * 3600_000 + 1000, ZONE) }, { ...range, endTime: formatTime(day(2025, 6, 2) + 1000, ZONE) }]) {
          const r = await t.call(calls.GetFixListByPage.path, { ...part, pageSize: 100, ...order }, { token });
          const k = await t.call(calls.GetFixListByPage.path, { ...part, pageSize: 100, ...order, temperature: -1e9 }, { token });
          expect(r.body).toEqual(k.body);
        }
      }
      return page({});
    };
    const before = await same();
    expect(before.Total).toBe(7);
    // newest first: the single fix, two runs, the run across midnight, the run at 11:00 (its attempt without a position a row of its own), the run at 10:00
    expect(before.List.map((f) => f.GroupIds?.length ?? 1)).toEqual([1, 3, 4, 5, 1, 5, 5]);
    const count = await t.call(calls.GetFixCount.path, range, { token });
    expect(count.body.Data).toEqual({ Count: 7 });
    // a fix that joins two runs, and a mark: the summaries of those days are not used again as they were
    const joining = fix(day(2025, 6, 2) + 5 * 3600_000 + 4500, { speed: 3 });
    await t.services.ingest.writeDecoded(secondLevel.id, { fixes: [joining], sensors: [], bursts: [], lastTime: null, lastVoltage: null }, null);
    const marked = await t.call(calls.ConvertFixInvalid.path, { imei: 'SEC', ids: [String(day(2025, 6, 1) + 10 * 3600_000)] }, { token });
    expect(marked.body.Data).toEqual({ Count: 1 });
    const after = await same();
    expect(after.List.map((f) => f.GroupIds?.length ?? 1)).toEqual([1, 8, 5, 1, 5, 5]);
    expect(after.List[5]!.Id).toBe(String(day(2025, 6, 1) + 10 * 3600_000 + 1000));
  });

  it('summarises a second-level device\'s stale days in the background job, with its segments', async () => {
    const summaries = async () =>
      (await t.database.db.selectFrom('fix_group_days').select('day').where('device_id', '=', secondLevel.id).orderBy('day').execute()).map((r) => Number(r.day));
    const late = day(2025, 6, 4) + 3600_000;
    await t.services.ingest.writeDecoded(secondLevel.id, { fixes: [fix(late), fix(late + 1000)], sensors: [], bursts: [], lastTime: null, lastVoltage: null }, null);
    const lateDay = Math.floor(late / DAY);
    expect(await summaries()).not.toContain(lateDay);
    // the job's passes, until no stale day is left
    for (let pass = 0; (await t.services.fixes.buildStaleSegments(50)) > 0; pass++) expect(pass).toBeLessThan(10);
    expect(await summaries()).toContain(lateDay);
    const [groups] = await t.database.db.selectFrom('fix_group_days').select('group_count').where('device_id', '=', secondLevel.id).where('day', '=', lateDay).execute();
    expect(Number(groups!.group_count)).toBe(1);
  });
});
