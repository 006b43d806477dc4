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

const fix = (time: number, over: Partial<FixRow> = {}): FixRow => ({
  pick_time: time, lon: 116.3, lat: 39.9, alt: 50, speed: 1, course: 90, temperature: 20, activity: 10, voltage: 3.9, channel: null,
  satellites: 8, hdop: 1.1, vdop: 1.4, grade: 1, valid: 1, tx_time: time + MIN, invalid_at: null, extra: null, ...over,
});

describe.each(DIALECTS)('track reads on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  /** Days with fixes, over all devices: what the reads may store segments for, at most. */
  let fixDays = 0;

  /** Rows of every table of this database (the test's own schema on PostgreSQL). */
  const rowsByTable = async (): Promise<Map<string, number>> => {
    const db = t.database.db;
    const names =
      t.database.dialect === 'postgres'
        ? (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)).rows
        : (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db)).rows;
    const out = new Map<string, number>();
    for (const { name } of names) {
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
    fixDays = 3 + 10;
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
});
