import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, decodeTrackSet, DeviceType, type Fix, FixValidValue, formatTime, SpeciesType } from '@wildtrack/contract';
import { movebankServices } from '../../app.js';
import { importMovebank } from '../movebank/index.js';
import { createTestApp, DIALECTS, SHARED_DATA, type TestApp } from '../../test/helper.js';
import { ZONE, MIN, HOUR, DAY, BASE, NOW, local, type Page as FixedPage } from '../../test/fixed-time.js';
import { useFixedClock } from '../../test/clock.js';


type Page = FixedPage<Fix>;

describe.each(DIALECTS)('fixes on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let aliceUserId: number;
  // The shares' windows and the marks' times are read against the server's clock: fixed at NOW.
  const now = NOW;
  useFixedClock(NOW);

  const fixRow = (deviceId: number, time: number, over: Record<string, unknown> = {}) => ({
    device_id: deviceId,
    pick_time: time,
    lon: 116.3,
    lat: 39.9,
    alt: 50,
    speed: 1,
    course: 90,
    temperature: 20,
    activity: 10,
    voltage: 3.9,
    channel: null,
    satellites: 8,
    hdop: 1.1,
    vdop: 1.4,
    grade: 1,
    valid: 1,
    tx_time: time + MIN,
    received_at: time + MIN,
    invalid_by: null,
    invalid_at: null,
    extra: null,
    ...over,
  });

  const range = { startTime: local(BASE), endTime: local(BASE + DAY), timeZone: ZONE };
  const page = async (body: Record<string, unknown>, token = alice) => {
    const r = await t.call(calls.GetFixListByPage.path, { imei: 'A-1', ...range, ...body }, { token });
    expect(r.body.Code, r.body.Msg).toBe(Code.Success);
    return r.body.Data as Page;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Seal Lab' }));
    const aliceOrg = await t.services.devices.orgIdByName('Heron Lab');
    const bobOrg = await t.services.devices.orgIdByName('Seal Lab');
    const userOf = async (org: number) => Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', org).executeTakeFirstOrThrow()).id);
    aliceUserId = await userOf(aliceOrg);
    const bobId = await userOf(bobOrg);
    const reg = (orgId: number, imei: string, secondLevelFix = false) =>
      t.services.devices.register({ orgId, imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], secondLevelFix, caption: imei });
    const a1 = await reg(aliceOrg, 'A-1');
    const sec = await reg(aliceOrg, 'A-SEC', true);
    const shared = await reg(bobOrg, 'B-SHARED');
    const expired = await reg(bobOrg, 'B-EXPIRED');
    await reg(bobOrg, 'B-PRIVATE');

    // 100 fixes every 10 min; grades cycle 1..7; speed = i; fix 5 has no position, fix 6 is out of range, fix 7 is west/south.
    const rows = [];
    for (let i = 0; i < 100; i++) {
      const over: Record<string, unknown> = { grade: (i % 7) + 1, speed: i, lon: 116.3 + i * 0.001, lat: 39.9 + i * 0.001, alt: 40 + i };
      if (i === 5) Object.assign(over, { lon: null, lat: null, valid: 0 });
      if (i === 6) Object.assign(over, { lat: 95, valid: 0 });
      if (i === 7) Object.assign(over, { lon: -70.5, lat: -33.25 });
      rows.push(fixRow(a1.id, BASE + i * 10 * MIN, over));
    }
    // A-SEC: three runs of ten second-level fixes and two single fixes.
    for (let run = 0; run < 3; run++) {
      for (let s = 0; s < 10; s++) rows.push(fixRow(sec.id, BASE + run * HOUR + s * 1000, { lon: 100 + run + s * 0.0001, speed: s }));
    }
    rows.push(fixRow(sec.id, BASE + 5 * HOUR), fixRow(sec.id, BASE + 6 * HOUR));
    // an attempt without a position inside the first run: a row of its own, the run stays whole
    rows.push(fixRow(sec.id, BASE + 5500, { lon: null, lat: null, valid: 0 }));
    // B-SHARED: one fix before the share window opened, two inside it.
    rows.push(fixRow(shared.id, now - 3 * DAY, { lon: 1 }), fixRow(shared.id, now - DAY, { lon: 2 }), fixRow(shared.id, now - HOUR, { lon: 3 }));
    rows.push(fixRow(expired.id, now - DAY));
    await t.database.db.insertInto('fixes').values(rows).execute();
    await t.database.db
      .insertInto('device_shares')
      .values([
        { device_id: shared.id, owner_user_id: bobId, recipient_user_id: aliceUserId, edit_device: 1, remote_instr: 0, download_data: 1, effective_time: now - 2 * DAY, failure_time: now + HOUR, created_at: now },
        { device_id: expired.id, owner_user_id: bobId, recipient_user_id: aliceUserId, edit_device: 1, remote_instr: 1, download_data: 1, effective_time: now - 3 * DAY, failure_time: now - HOUR, created_at: now },
      ])
      .execute();
  });
  afterAll(async () => t.close());

  it('pages the fixes table newest first, every §3 column, times in the caller zone, hemispheres as tags', async () => {
    const first = await page({});
    expect(first.Total).toBe(100);
    expect(first.List).toHaveLength(20);
    expect(first.List[0]!.PickTime).toBe(local(BASE + 99 * 10 * MIN));
    expect(first.List[0]!.PickTime).toBe('2026-11-02 00:30:00');
    const last = await page({ currentPage: 5 });
    // a page past the end has no rows and still the total
    expect(await page({ currentPage: 6 })).toEqual({ List: [], Total: 100 });
    const west = last.List.find((f) => f.Id === String(BASE + 70 * MIN))!;
    expect(west).toMatchObject({ Longitude: 70.5, LongitudeTag: 'W', Latitude: 33.25, LatitudeTag: 'S', Validity: 1, ValidValue: FixValidValue.Valid, Caption: 'A-1', IMEI: 'A-1' });
    expect(west.TransmissionTime).toBe(local(BASE + 71 * MIN));
    const noPosition = last.List.find((f) => f.Id === String(BASE + 50 * MIN))!;
    expect(noPosition).toMatchObject({ Longitude: null, LongitudeTag: '', Validity: 0, ValidValue: FixValidValue.OutOfRange });
    // the other time zone moves every time text
    const utc = (await t.call(calls.GetFixListByPage.path, { imei: 'A-1', startTime: '2026-11-01 00:00:00', endTime: '2026-11-02 00:00:00', timeZone: '+00:00' }, { token: alice })).body.Data as Page;
    expect(utc.List[0]!.PickTime).toBe('2026-11-01 16:30:00');
  });

  it('filters by precision letters (N = 6 and 7, bad letters = all), the numeric filters (>) and validity, and sorts', async () => {
    const ab = await page({ precision: 'ab', pageSize: 100 });
    expect(new Set(ab.List.map((f) => f.PrecisionGrade))).toEqual(new Set([1, 2]));
    expect((await page({ precision: 'N' })).Total).toBe(28);
    expect((await page({ precision: 'AQ' })).Total).toBe(100);
    expect((await page({ speed: 89.5 })).Total).toBe(10);
    expect((await page({ altitude: 100, precision: 'A' })).List.every((f) => f.Altitude! > 100 && f.PrecisionGrade === 1)).toBe(true);
    expect((await page({ validOnly: true })).Total).toBe(98);
    const slow = await page({ sortField: 'Speed', sortOrder: 'ascend', pageSize: 10 });
    expect(slow.List.map((f) => f.Speed)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const fast = await page({ sortField: 'Speed', sortOrder: 'descend', pageSize: 10, currentPage: 2 });
    expect(fast).toMatchObject({ Total: 100 });
    expect(fast.List.map((f) => f.Speed)).toEqual([89, 88, 87, 86, 85, 84, 83, 82, 81, 80]);
    const count = await t.call(calls.GetFixCount.path, { imei: 'A-1', ...range, precision: 'AB' }, { token: alice });
    expect(count.body.Data).toEqual({ Count: ab.Total });
  });

  it('answers bad input with 601 naming the field in the caller language, and changes nothing', async () => {
    const badTime = await t.call(calls.GetFixListByPage.path, { imei: 'A-1', startTime: '2026-02-30 00:00:00', endTime: range.endTime }, { token: alice, lang: 'zh' });
    expect(badTime.body).toEqual({ Code: Code.Invalid, Msg: '开始时间格式应为 YYYY-MM-DD HH:mm:ss。', Data: { Field: 'startTime' } });
    const reversed = await t.call(calls.GetFixListByPage.path, { imei: 'A-1', startTime: range.endTime, endTime: range.startTime }, { token: alice });
    expect(reversed.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'endTime' } });
    const tooLong = await t.call(calls.GetFixList.path, { imei: 'A-1', startTime: '2000-01-01 00:00:00', endTime: '2026-01-01 00:00:00' }, { token: alice });
    expect(tooLong.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'endTime' } });
    const size = await t.call(calls.GetFixListByPage.path, { imei: 'A-1', ...range, pageSize: 7 }, { token: alice });
    expect(size.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'pageSize' } });
    const noDevices = await t.call(calls.GetFixListByImeis.path, { imeis: [], ...range }, { token: alice });
    expect(noDevices.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'imeis' } });
    const badIds = await t.call(calls.ConvertFixInvalid.path, { imei: 'A-1', ids: ['12', 'x'] }, { token: alice });
    expect(badIds.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'ids[1]' } });
    expect((await page({ validOnly: true })).Total).toBe(98);
  });

  it('sends tracks as base64 protobuf: positions only, in time order, several devices at once', async () => {
    const one = await t.call(calls.GetFixList.path, { imei: 'A-1', ...range }, { token: alice });
    const [track] = decodeTrackSet(Buffer.from(one.body.Data as string, 'base64'));
    expect(track!.imei).toBe('A-1');
    expect(track!.count).toBe(99);
    expect(track!.times[0]).toBe(BASE);
    expect(track!.times[98]).toBe(BASE + 99 * 10 * MIN);
    expect(track!.lonLat[0]).toBeCloseTo(116.3, 6);
    expect(track!.alt[0]).toBeCloseTo(40, 1);
    const out = Array.from(track!.times).indexOf(BASE + 60 * MIN);
    expect(track!.valid[out]).toBe(0);
    const both = await t.call(calls.GetFixListByImeis.path, { imeis: ['A-1', 'A-SEC'], ...range, precision: 'A' }, { token: alice });
    const tracks = decodeTrackSet(Buffer.from(both.body.Data as string, 'base64'));
    expect(tracks.map((x) => [x.imei, x.count])).toEqual([['A-1', 15], ['A-SEC', 32]]);
    expect(Array.from(tracks[0]!.grade).every((g) => g === 1)).toBe(true);
  });

  it('shows each run of second-level fixes as its average by default, and every fix on request', async () => {
    const avg = (await t.call(calls.GetFixListByPage.path, { imei: 'A-SEC', ...range, sortOrder: 'ascend' }, { token: alice })).body.Data as Page;
    expect(avg.Total).toBe(6);
    expect(avg.List[0]).toMatchObject({ GroupSize: 10, PickTime: local(BASE), Speed: 4.5 });
    expect(avg.List[1]).toMatchObject({ Id: String(BASE + 5500), Longitude: null });
    expect(avg.List[0]!.Longitude).toBeCloseTo(100.00045, 6);
    expect(avg.List[0]!.GroupIds).toHaveLength(10);
    expect(avg.List[5]!.GroupSize).toBeUndefined();
    // Ordered by another column: the runs by their mean speed (4.5, ties by time), then the single
    // fixes and the one without a position (speed 1); the count agrees.
    const bySpeedRes = await t.call(calls.GetFixListByPage.path, { imei: 'A-SEC', ...range, sortField: 'Speed', sortOrder: 'descend' }, { token: alice });
    expect(bySpeedRes.body.Code, bySpeedRes.body.Msg).toBe(Code.Success);
    const bySpeed = bySpeedRes.body.Data as Page;
    expect(bySpeed.Total).toBe(6);
    expect(bySpeed.List.map((f) => [f.Id, f.GroupSize ?? 1, f.Speed])).toEqual([
      [String(BASE + 2 * HOUR), 10, 4.5],
      [String(BASE + HOUR), 10, 4.5],
      [String(BASE), 10, 4.5],
      [String(BASE + 6 * HOUR), 1, 1],
      [String(BASE + 5 * HOUR), 1, 1],
      [String(BASE + 5500), 1, 1],
    ]);
    const counted = await t.call(calls.GetFixCount.path, { imei: 'A-SEC', ...range }, { token: alice });
    expect(counted.body.Data).toEqual({ Count: 6 });
    const all = (await t.call(calls.GetFixListByPage.path, { imei: 'A-SEC', ...range, secondLevel: 'all' }, { token: alice })).body.Data as Page;
    expect(all.Total).toBe(33);
    const [averaged] = decodeTrackSet(Buffer.from((await t.call(calls.GetAvgListByImeisAndTime.path, { imeis: ['A-SEC'], ...range }, { token: alice })).body.Data as string, 'base64'));
    expect(averaged!.count).toBe(5);
    expect(Array.from(averaged!.averaged)).toEqual([1, 1, 1, 0, 0]);
    const [raw] = decodeTrackSet(Buffer.from((await t.call(calls.GetFixListByImeis.path, { imeis: ['A-SEC'], ...range }, { token: alice })).body.Data as string, 'base64'));
    expect(raw!.count).toBe(32);
  });

  it('marks fixes invalid once, for good, recording who and when; the converted list shows them', async () => {
    const ids = [String(BASE + 10 * MIN), String(BASE + 20 * MIN)];
    const marked = await t.call(calls.ConvertFixInvalid.path, { imei: 'A-1', ids }, { token: alice });
    expect(marked.body).toMatchObject({ Code: Code.Success, Data: { Count: 2 } });
    const again = await t.call(calls.ConvertFixInvalid.path, { imei: 'A-1', ids }, { token: alice });
    expect(again.body.Data).toEqual({ Count: 0 });
    const fix = (await t.call(calls.GetFix.path, { imei: 'A-1', id: ids[0], timeZone: ZONE }, { token: alice })).body.Data as Fix;
    expect(fix).toMatchObject({ Validity: 0, ValidValue: FixValidValue.Marked, ConvertedInvalid: { Id: ids[0] } });
    expect(fix.ConvertedInvalid!.Operator).toMatch(/\S/);
    const inTable = (await page({ pageSize: 100 })).List.find((f) => f.Id === ids[1])!;
    expect(inTable.ConvertedInvalid!.Operator).toBe(fix.ConvertedInvalid!.Operator);
    const count = await t.call(calls.GetConvertedInvalidCount.path, { imei: 'A-1' }, { token: alice });
    expect(count.body.Data).toEqual({ Count: 2 });
    const list = (await t.call(calls.GetConvertedInvalidListPage.path, { imei: 'A-1', timeZone: ZONE }, { token: alice })).body.Data as Page;
    expect(list.Total).toBe(2);
    expect(list.List[0]!.ConvertedInvalid!.Operator).toMatch(/\S/);
    expect(list.List[0]!.ConvertedInvalid!.OperateTime).toBe(local(NOW));
    const stored = await t.database.db.selectFrom('fixes').select(['invalid_by', 'valid']).where('pick_time', '=', Number(ids[1])).executeTakeFirstOrThrow();
    expect(stored).toEqual({ invalid_by: aliceUserId, valid: 0 });
  });

  it('gives the latest valid fix of each device', async () => {
    const last = await t.call(calls.GetLastFixList.path, { imeis: ['A-1', 'A-SEC'], timeZone: ZONE }, { token: alice });
    expect((last.body.Data as Fix[]).map((f) => [f.IMEI, f.PickTime])).toEqual([['A-1', local(BASE + 990 * MIN)], ['A-SEC', local(BASE + 6 * HOUR)]]);
    const one = await t.call(calls.GetLastFixByImei.path, { imei: 'A-1' }, { token: alice });
    expect((one.body.Data as Fix).Id).toBe(String(BASE + 990 * MIN));
  });

  it("gives a device's first and last fix times in the caller's zone; a share recipient's within the share's data period", async () => {
    const span = async (imei: string, timeZone = ZONE) => {
      const r = await t.call(calls.GetFixSpan.path, { imei, timeZone }, { token: alice });
      expect(r.body.Code, r.body.Msg).toBe(Code.Success);
      return r.body.Data;
    };
    // A-1's first fix is BASE (no position) ... any fix counts, valid or not
    expect(await span('A-1')).toEqual({ FirstTime: local(BASE), LastTime: local(BASE + 990 * MIN) });
    expect(await span('A-1', '+00:00')).toEqual({ FirstTime: formatTime(BASE, '+00:00'), LastTime: formatTime(BASE + 990 * MIN, '+00:00') });
    // B-SHARED's fix of three days ago is before the share's window (its data period): not its first
    expect(await span('B-SHARED')).toEqual({ FirstTime: local(now - DAY), LastTime: local(now - HOUR) });
    // a device of the caller's without fixes
    const aliceOrg = await t.services.devices.orgIdByName('Heron Lab');
    await t.services.devices.register({ orgId: aliceOrg, imei: 'A-EMPTY', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], secondLevelFix: false, caption: 'A-EMPTY' });
    expect(await span('A-EMPTY')).toBeNull();
  });

  it('bounds a share recipient by the share window and its rights', async () => {
    const week = { startTime: formatTime(now - 7 * DAY, ZONE), endTime: formatTime(now + DAY, ZONE), timeZone: ZONE };
    const shared = (await t.call(calls.GetFixListByPage.path, { imei: 'B-SHARED', ...week }, { token: alice })).body.Data as Page;
    expect(shared.List.map((f) => f.Longitude)).toEqual([3, 2]);
    const [track] = decodeTrackSet(Buffer.from((await t.call(calls.GetFixListByImeis.path, { imeis: ['B-SHARED'], ...week }, { token: alice })).body.Data as string, 'base64'));
    expect(track!.count).toBe(2);
    const hidden = await t.call(calls.GetFix.path, { imei: 'B-SHARED', id: String(now - 3 * DAY) }, { token: alice });
    expect(hidden.body.Code).toBe(Code.NotFound);
    const mark = await t.call(calls.ConvertFixInvalid.path, { imei: 'B-SHARED', ids: [String(now - DAY)] }, { token: alice });
    expect(mark.body.Code).toBe(Code.Forbidden);
    expect((await t.call(calls.GetLastFixByImei.path, { imei: 'B-SHARED' }, { token: alice })).body.Data).toMatchObject({ Longitude: 3 });
  });

  it('answers a stranger, an expired share and an unknown device alike, and refuses calls without a session', async () => {
    const all = [
      calls.GetFixCount, calls.GetFixListByPage, calls.GetFix, calls.GetFixList, calls.GetFixListByImeis, calls.GetAvgListByImeisAndTime,
      calls.GetLastFixList, calls.GetLastFixByImei, calls.GetFixSpan, calls.ConvertFixInvalid, calls.GetConvertedInvalidCount, calls.GetConvertedInvalidListPage,
    ];
    for (const c of all) {
      // The fields this call takes (bodies are strict: an undeclared field is refused before access is checked).
      const fields = Object.keys((c.body as unknown as { shape: Record<string, unknown> }).shape);
      const body = (imei: string) =>
        Object.fromEntries(Object.entries({ imei, imeis: [imei], id: String(BASE), ids: [String(BASE)], ...range }).filter(([k]) => fields.includes(k)));
      const unknown = (await t.call(c.path, body('NO-SUCH'), { token: bob })).body;
      expect(unknown.Code, c.path).toBe(Code.NotFound);
      expect((await t.call(c.path, body('A-1'), { token: bob })).body, c.path).toEqual(unknown);
      expect((await t.call(c.path, body('B-EXPIRED'), { token: alice })).body, c.path).toEqual(unknown);
      expect((await t.call(c.path, body('B-PRIVATE'), { token: alice })).body, c.path).toEqual(unknown);
      expect((await t.call(c.path, body('A-1'))).body.Code, c.path).toBe(Code.SessionExpired);
    }
    const stillValid = await t.database.db.selectFrom('fixes').select('valid').where('pick_time', '=', BASE).executeTakeFirstOrThrow();
    expect(stillValid.valid).toBe(1);
  });
  it('serves whole days from stored segments, and a new fix or a mark changes the next answer', async () => {
    const t1 = BASE + 10 * HOUR + 5 * MIN; // in A-1's first day, between two fixes
    // 16:00 the day before to 16:00 the day after (+08:00): a partial day, a whole day, a partial day
    const wide = { imei: 'A-1', startTime: local(BASE - 8 * HOUR), endTime: local(BASE + DAY + 8 * HOUR), timeZone: ZONE };
    const read = async () => decodeTrackSet(Buffer.from((await t.call(calls.GetFixList.path, wide, { token: alice })).body.Data as string, 'base64'))[0]!;
    const before = await read();
    const direct = decodeTrackSet(Buffer.from((await t.call(calls.GetFixList.path, { ...wide, speed: -1e9 }, { token: alice })).body.Data as string, 'base64'))[0]!;
    expect(Array.from(before.times)).toEqual(Array.from(direct.times));
    expect(Array.from(before.lonLat)).toEqual(Array.from(direct.lonLat));
    const segments = await t.database.db.selectFrom('track_segments').select(['day', 'point_count']).where('point_count', '>', 0).execute();
    expect(segments.map((x) => [Number(x.day), Number(x.point_count)])).toContainEqual([BASE / DAY, 99]);
    const a1 = await t.database.db.selectFrom('devices').select('id').where('imei', '=', 'A-1').executeTakeFirstOrThrow();
    const { device_id: _d, received_at: _r, invalid_by: _i, ...fix } = fixRow(0, t1);
    await t.services.ingest.writeDecoded(Number(a1.id), {
      fixes: [fix],
      sensors: [],
      bursts: [],
      lastTime: t1,
      lastVoltage: null,
    }, null);
    const after = await read();
    expect(after.count).toBe(before.count + 1);
    expect(Array.from(after.times)).toContain(t1);
    await t.call(calls.ConvertFixInvalid.path, { imei: 'A-1', ids: [String(t1)] }, { token: alice });
    const marked = await read();
    expect(marked.valid[Array.from(marked.times).indexOf(t1)]).toBe(0);
  });

  it('builds the segments of days a write made stale in the background, before anyone reads them', async () => {
    const a1 = await t.database.db.selectFrom('devices').select('id').where('imei', '=', 'A-1').executeTakeFirstOrThrow();
    const day = BASE / DAY + 3;
    const { device_id: _d, received_at: _r, invalid_by: _i, ...fix } = fixRow(0, (day + 0.5) * DAY);
    await t.services.ingest.writeDecoded(Number(a1.id), { fixes: [fix], sensors: [], bursts: [], lastTime: null, lastVoltage: null }, null);
    const segment = () => t.database.db.selectFrom('track_segments').select('point_count').where('device_id', '=', Number(a1.id)).where('day', '=', day).executeTakeFirst();
    expect(await segment()).toBeUndefined();
    expect(await t.services.fixes.buildStaleSegments()).toBeGreaterThan(0);
    expect(Number((await segment())?.point_count)).toBe(1);
    expect(await t.database.db.selectFrom('track_segment_dirty').selectAll().execute()).toEqual([]);
    expect(await t.services.fixes.buildStaleSegments()).toBe(0);
  });
});

describe.each(DIALECTS)('a fix\'s annotations on %s', (dialect) => {
  const FILE = path.join(SHARED_DATA, 'movebank_albatrosses_gps_acc.csv');
  /** The GPS row of event 28243852 as Python's csv module (or any CSV reader but the importer) reads it. */
  const sent = (parse(fs.readFileSync(FILE), { columns: true }) as Record<string, string>[]).find((r) => r['event-id'] === '28243852')!;
  const time = Date.UTC(2008, 6, 27, 0, 0, 56);
  let t: TestApp;
  let alice: string;
  let bob: string;
  let imei: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Albatross Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Seal Lab' }));
    const orgId = await t.services.devices.orgIdByName('Albatross Lab');
    const services = movebankServices(t.database, t.dataDir);
    const folderId = await services.folders.findOrCreateFolder(orgId, 'Movebank', NOW);
    await importMovebank(services, { file: FILE, orgId, folderId });
    // the device of tag 134 on individual 4266-84831108, however the import names it
    const row = await t.database.db
      .selectFrom('fixes')
      .innerJoin('devices', 'devices.id', 'fixes.device_id')
      .select('devices.imei')
      .where('devices.folder_id', '=', folderId)
      .where('fixes.pick_time', '=', time)
      .where('fixes.lon', '=', Number(sent['location-long']))
      .executeTakeFirstOrThrow();
    imei = row.imei;
  });
  afterAll(async () => t.close());

  const get = (token?: string) => t.call(calls.GetFix.path, { imei, id: String(time), timeZone: '+00:00' }, token ? { token } : {});

  it('gives a fix\'s unmapped Movebank columns under their names with the values the file holds', async () => {
    const r = await get(alice);
    expect(r.body.Code, r.body.Msg).toBe(Code.Success);
    const fix = r.body.Data as Fix;
    expect(fix.PickTime).toBe('2008-07-27 00:00:56');
    // the height above the ellipsoid is no altitude (a fix's is above sea level): an annotation of its own
    const kept = ['event-id', 'height-above-ellipsoid', 'eobs:horizontal-accuracy-estimate', 'eobs:speed-accuracy-estimate', 'eobs:status', 'eobs:type-of-fix', 'eobs:used-time-to-get-fix', 'eobs:key-bin-checksum'];
    for (const name of kept) expect(sent[name], name).toMatch(/\S/);
    expect(fix.Annotations).toMatchObject(Object.fromEntries(kept.map((name) => [name, sent[name]])));
    // what a field of the fix holds is not repeated as an annotation
    for (const mapped of ['timestamp', 'location-long', 'location-lat', 'ground-speed', 'heading', 'eobs:temperature', 'eobs:battery-voltage']) {
      expect(fix.Annotations, mapped).not.toHaveProperty(mapped);
    }
  });

  it('keeps annotations out of the table\'s pages', async () => {
    const r = await t.call(calls.GetFixListByPage.path, { imei, startTime: '2008-07-26 00:00:00', endTime: '2008-07-28 00:00:00', timeZone: '+00:00' }, { token: alice });
    const data = r.body.Data as Page;
    expect(data.List.map((f) => f.Id)).toContain(String(time));
    for (const f of data.List) expect(f).not.toHaveProperty('Annotations');
  });

  it('leaves out what is no column (the import\'s own list of marks) and has no Annotations for a fix without any', async () => {
    const d = await t.database.db.selectFrom('devices').select('id').where('imei', '=', imei).executeTakeFirstOrThrow();
    const base = { device_id: Number(d.id), lon: 1, lat: 1, alt: null, speed: null, course: null, temperature: null, activity: null, voltage: null, channel: null };
    const more = { satellites: null, hdop: null, vdop: null, grade: null, valid: 1, tx_time: null, received_at: 0, invalid_by: null, invalid_at: null };
    await t.database.db
      .insertInto('fixes')
      .values([
        { ...base, ...more, pick_time: time + 1000, extra: JSON.stringify({ invalid: ['visible=false'], 'ECMWF Interim Full Daily SFC Wind (10 m above Ground U Component)': '-3.21' }) },
        { ...base, ...more, pick_time: time + 2000, extra: null },
        { ...base, ...more, pick_time: time + 3000, extra: JSON.stringify({ invalid: ['visible=false'] }) },
      ])
      .execute();
    const at = async (ms: number) => (await t.call(calls.GetFix.path, { imei, id: String(ms) }, { token: alice })).body.Data as Fix;
    expect((await at(time + 1000)).Annotations).toEqual({ 'ECMWF Interim Full Daily SFC Wind (10 m above Ground U Component)': '-3.21' });
    expect(await at(time + 2000)).not.toHaveProperty('Annotations');
    expect(await at(time + 3000)).not.toHaveProperty('Annotations');
  });

  it('refuses a stranger as for an unknown device, and a call without a session', async () => {
    const unknown = (await t.call(calls.GetFix.path, { imei: 'NO-SUCH', id: String(time) }, { token: bob })).body;
    expect(unknown.Code).toBe(Code.NotFound);
    expect((await get(bob)).body).toEqual(unknown);
    const none = (await get()).body;
    expect(none.Code).toBe(Code.SessionExpired);
    expect(none.Data ?? null).toBeNull();
  });
});
