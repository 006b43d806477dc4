import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, decodeTrackSet, DeviceType, type Fix, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { BASE, HOUR, local, MIN, type Page as FixedPage, ZONE } from '../../test/fixed-time.js';

/**
 * Issue 12 item 4: the position filters' upper bounds (`…Max`, value ≤ it), HDOP and satellites, on the
 * table's pages, its count, the tracks and the averaged table, and their input rules.
 */

const range = { startTime: local(BASE), endTime: local(BASE + 24 * HOUR), timeZone: ZONE };

type Page = FixedPage<Fix>;

describe.each(DIALECTS)('bounded position filters on %s', (dialect) => {
  let t: TestApp;
  let token: string;

  // 60 fixes a minute apart: speed = i (fix 0 has none: -1), hdop = 0.5 + (i % 10) * 0.5, satellites = i % 13,
  // altitude = 100 + 10 i; fix 59 has no HDOP.
  const speedOf = (i: number) => (i === 0 ? -1 : i);
  const hdopOf = (i: number) => (i === 59 ? null : 0.5 + (i % 10) * 0.5);
  const satellitesOf = (i: number) => i % 13;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token } = await t.userWithToken({ org: 'Crane Lab' }));
    const org = await t.services.devices.orgIdByName('Crane Lab');
    const reg = (imei: string, secondLevelFix = false) =>
      t.services.devices.register({ orgId: org, imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], secondLevelFix, caption: imei });
    const dev = await reg('F-1');
    const sec = await reg('F-SEC', true);
    const row = (deviceId: number, time: number, over: Record<string, unknown>) => ({
      device_id: deviceId, pick_time: time, lon: 120, lat: 30, alt: 0, speed: 0, course: 0, temperature: 20, activity: 0, voltage: 3.9,
      channel: null, satellites: 8, hdop: 1, vdop: 1, grade: 1, valid: 1, tx_time: time, received_at: time, invalid_by: null, invalid_at: null, extra: null,
      ...over,
    });
    const rows = [];
    for (let i = 0; i < 60; i++) {
      rows.push(row(dev.id, BASE + i * MIN, { speed: speedOf(i), hdop: hdopOf(i), satellites: satellitesOf(i), alt: 100 + 10 * i, lon: 120 + i * 0.01 }));
    }
    // F-SEC: a run of ten 1 s fixes with HDOP 4 and one single fix with HDOP 1.
    for (let s = 0; s < 10; s++) rows.push(row(sec.id, BASE + s * 1000, { hdop: 4, lon: 121 + s * 0.0001 }));
    rows.push(row(sec.id, BASE + HOUR, { hdop: 1 }));
    await t.database.db.insertInto('fixes').values(rows).execute();
  });
  afterAll(async () => t.close());

  const call = async (path: string, body: Record<string, unknown>, lang: 'en' | 'zh' = 'en') => (await t.call(path, { ...range, ...body }, { token, lang })).body;
  const page = async (body: Record<string, unknown>) => {
    const r = await call(calls.GetFixListByPage.path, { imei: 'F-1', pageSize: 100, ...body });
    expect(r.Code, r.Msg).toBe(Code.Success);
    return r.Data as Page;
  };
  const expected = (keep: (i: number) => boolean) => Array.from({ length: 60 }, (_, i) => i).filter(keep);
  const indexes = (p: Page) => p.List.map((f) => (Number(f.Id) - BASE) / MIN).sort((a, b) => a - b);

  it('keeps lower < value ≤ upper, a device without the value left out (no speed is not slow)', async () => {
    expect(indexes(await page({ speed: 10, speedMax: 20 }))).toEqual(expected((i) => speedOf(i) > 10 && speedOf(i) <= 20));
    expect(indexes(await page({ speedMax: 3 }))).toEqual([1, 2, 3]);
    expect(indexes(await page({ altitudeMax: 150 }))).toEqual([0, 1, 2, 3, 4, 5]);
    expect(indexes(await page({ hdopMax: 1.5 }))).toEqual(expected((i) => hdopOf(i) !== null && hdopOf(i)! <= 1.5));
    expect(indexes(await page({ hdop: 4 }))).toEqual(expected((i) => hdopOf(i) !== null && hdopOf(i)! > 4));
    expect(indexes(await page({ satellites: 9 }))).toEqual(expected((i) => satellitesOf(i) > 9));
    expect(indexes(await page({ satellites: 3, satellitesMax: 5, hdopMax: 2, speedMax: 40 }))).toEqual(
      expected((i) => satellitesOf(i) > 3 && satellitesOf(i) <= 5 && hdopOf(i) !== null && hdopOf(i)! <= 2 && speedOf(i) !== -1 && speedOf(i) <= 40),
    );
  });

  it('counts and draws the same fixes as the table shows', async () => {
    const filter = { speedMax: 30, hdopMax: 2 };
    const shown = await page(filter);
    const count = await call(calls.GetFixCount.path, { imei: 'F-1', ...filter });
    expect(count.Data).toEqual({ Count: shown.Total });
    const track = await call(calls.GetFixList.path, { imei: 'F-1', ...filter });
    const [decoded] = decodeTrackSet(Buffer.from(track.Data as string, 'base64'));
    expect(Array.from(decoded!.times).map(String)).toEqual(shown.List.map((f) => f.Id).sort());
    const many = await call(calls.GetFixListByImeis.path, { imeis: ['F-1'], ...filter });
    expect(decodeTrackSet(Buffer.from(many.Data as string, 'base64'))[0]!.count).toBe(shown.Total);
  });

  it('filters a second-level run as its fixes, in the averaged table too', async () => {
    const avg = await call(calls.GetFixListByPage.path, { imei: 'F-SEC', hdopMax: 2 });
    expect((avg.Data as Page).Total).toBe(1);
    const all = await call(calls.GetFixListByPage.path, { imei: 'F-SEC', hdop: 2, secondLevel: 'all' });
    expect((all.Data as Page).Total).toBe(10);
  });

  it('refuses an upper bound not above its lower one, and values out of range, naming the field in the caller language', async () => {
    const reversed = await call(calls.GetFixListByPage.path, { imei: 'F-1', speed: 20, speedMax: 10 }, 'zh');
    expect(reversed).toMatchObject({ Code: Code.Invalid, Data: { Field: 'speedMax' } });
    expect(reversed.Msg).toContain('速度上限');
    expect(reversed.Msg).toContain('下限');
    const equal = await call(calls.GetFixCount.path, { imei: 'F-1', hdop: 2, hdopMax: 2 });
    expect(equal).toMatchObject({ Code: Code.Invalid, Data: { Field: 'hdopMax' } });
    expect(equal.Msg).toMatch(/HDOP upper bound.*greater than the lower bound/);
    const tracks = await call(calls.GetAvgListByImeisAndTime.path, { imeis: ['F-1'], satellites: 8, satellitesMax: 4 });
    expect(tracks).toMatchObject({ Code: Code.Invalid, Data: { Field: 'satellitesMax' } });
    expect(await call(calls.GetFixListByPage.path, { imei: 'F-1', hdopMax: -1 })).toMatchObject({ Code: Code.Invalid, Data: { Field: 'hdopMax' } });
    expect(await call(calls.GetFixListByPage.path, { imei: 'F-1', satellites: 2.5 })).toMatchObject({ Code: Code.Invalid, Data: { Field: 'satellites' } });
    expect(await call(calls.GetFixList.path, { imei: 'F-1', satellitesMax: 65 })).toMatchObject({ Code: Code.Invalid, Data: { Field: 'satellitesMax' } });
    expect(await call(calls.GetFixListByPage.path, { imei: 'F-1', speedMax: 'fast' })).toMatchObject({ Code: Code.Invalid, Data: { Field: 'speedMax' } });
  });
});
