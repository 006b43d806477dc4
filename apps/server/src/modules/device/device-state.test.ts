import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, BatteryType, calls, Code, LanguageId, signedHeaders, DeviceDetailSchema, DeviceType, ObservedWorkSchema, SpeciesType, UNKNOWN_SCHEDULE_REPORT_GAP_MINUTES } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { DeviceRepository } from './repository.js';
import { workSettings } from '../../test/work-settings.js';

/**
 * Issue 12 item 1 on the server: battery level by battery type, the last fix as an instant and the
 * schedule's expected report gap in the details, and the observed schedule (medians over the days up to
 * the last fix) beside the configured one.
 */
describe.each(DIALECTS)('device state on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  const MIN = 60_000;
  // fixed instants (never "now"): four days of fixes every 30 min, sent 5 min after each fix
  const start = Date.UTC(2026, 9, 1, 0, 0, 0);
  const count = 4 * 48;
  const last = start + (count - 1) * 30 * MIN;
  const reportedAt = Date.UTC(2026, 8, 30, 4, 0, 0);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Seal Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Otter Lab' }));
    const org = await t.services.devices.orgIdByName('Seal Lab');
    const reg = (imei: string, batteryType: number) =>
      t.services.devices.register({ orgId: org, imei, type: DeviceType.Tracker, speciesType: SpeciesType.Beast, batteryType, sensors: ['GNSS'], folderId: null });
    const seal = await reg('S-LISOCL2-1', BatteryType.LiSOCl2Added);
    await reg('S-NEVER-1', BatteryType.Li);
    const li = await reg('S-LI-1', BatteryType.Li);
    const repo = new DeviceRepository(t.database.db);
    await repo.setWorkStatus(seal.id, JSON.stringify(workSettings({ IntervalMinutes: 30, Realtime: true })), reportedAt);

    const times = Array.from({ length: count }, (_, i) => start + i * 30 * MIN);
    // the third fix of each day is a second-level fix: ten fixes a second apart (one fix for the interval)
    const burst = times.filter((_, i) => i % 48 === 2).flatMap((t0) => Array.from({ length: 9 }, (_, k) => t0 + (k + 1) * 1000));
    const all = [...times, ...burst].sort((a, b) => a - b);
    const fixes = {
      t: all,
      lon: all.map(() => 121.5),
      lat: all.map(() => 40.5),
      // a primary cell on its plateau, falling slowly
      voltage: all.map((x) => 3.62 - ((x - start) / (last - start)) * 0.04),
      // half the fixes carry their transmission time; the others count from the receive time
      tx: all.map((x, i) => (i % 2 === 0 ? x + 5 * MIN : null)),
    };
    await t.services.ingest.writeBatch(seal.id, { fixes }, null, last + 5 * MIN);
    await t.services.ingest.writeBatch(li.id, { fixes: { t: [start], lon: [121], lat: [40], voltage: [3.6] } }, null, start + MIN);
  });
  afterAll(async () => t.close());

  // the API's one GET (§7.2)
  const detail = async (imei: string, token = alice) => {
    const url = `${calls.GetDetailByIMEI.path}?imei=${imei}&timeZone=%2B08:00`;
    const res = await t.app.inject({ method: 'GET', url: API_BASE + url, headers: signedHeaders({ token, method: 'GET', path: url, body: undefined, lcid: LanguageId.en }) });
    return { body: res.json() as { Code: number; Msg: string; Data: unknown } };
  };
  const observed = async (body: Record<string, unknown>, token = alice, lang?: 'zh' | 'en') => t.call(calls.GetObservedWork.path, { timeZone: '+08:00', ...body }, { token, ...(lang ? { lang } : {}) });

  it('reads the battery level on the curve of the battery type: 3.6 V is plenty on LiSOCl2, empty on Li', async () => {
    const seal = DeviceDetailSchema.parse((await detail('S-LISOCL2-1')).body.Data);
    expect(seal.BatteryType).toBe(BatteryType.LiSOCl2Added);
    expect(seal.Voltage).toBeCloseTo(3.58, 2);
    expect(seal.BatteryLevel).toBe(100);
    const li = DeviceDetailSchema.parse((await detail('S-LI-1')).body.Data);
    expect(li.Voltage).toBe(3.6);
    expect(li.BatteryLevel).toBe(0);
  });

  it('gives the last fix as an instant and the expected report gap of the configured schedule', async () => {
    const seal = DeviceDetailSchema.parse((await detail('S-LISOCL2-1')).body.Data);
    expect(seal.LastWorkAt).toBe(last);
    expect(seal.LastWorkTime).toBe('2026-10-05 07:30:00');
    expect(seal.ReportGapMinutes).toBe(30); // a fix every 30 min, sent at once
    const li = DeviceDetailSchema.parse((await detail('S-LI-1')).body.Data);
    expect(li.ReportGapMinutes).toBe(UNKNOWN_SCHEDULE_REPORT_GAP_MINUTES); // never reported its work status: unknown, judged against a day
    expect(li).toMatchObject({ SamplingTimes: null, PostBackTime: '', GNSSCollectionDesc: 'Unknown (the device has not reported it)' });
  });

  it('says a device that never reported has no last fix and no voltage', async () => {
    const never = DeviceDetailSchema.parse((await detail('S-NEVER-1')).body.Data);
    expect(never).toMatchObject({ LastWorkAt: null, LastWorkTime: '', Voltage: null, BatteryLevel: null, WorkDays: 0 });
    const list = await t.call(calls.GetDetailByFolder.path, { folderId: '-1', currentPage: 1, pageSize: 20, timeZone: '+08:00' }, { token: alice });
    const row = (list.body.Data as { List: { IMEI: string; LastWorkAt: number | null }[] }).List.find((d) => d.IMEI === 'S-NEVER-1');
    expect(row?.LastWorkAt).toBeNull();
  });

  it('observes the schedule over the days up to the last fix: median fix interval and postback delay', async () => {
    const res = await observed({ imei: 'S-LISOCL2-1' });
    expect(res.body.Code).toBe(Code.Success);
    const o = ObservedWorkSchema.parse(res.body.Data);
    expect(o).toMatchObject({
      IMEI: 'S-LISOCL2-1',
      Days: 7,
      From: '2026-09-28 07:30:00',
      To: '2026-10-05 07:30:00',
      FixCount: count + 4 * 9,
      MedianFixIntervalMinutes: 30,
      ConfiguredFixIntervalMinutes: 30,
      ConfiguredPostbackWaitMinutes: 0,
      ConfigReportedTime: '2026-09-30 12:00:00',
    });
    // tx - fix time = 5 min on half; receive time - fix time (hours to days) on the other half: the median
    // lies between (the upper middle value is the smallest receive delay, 5 min after the last fix + 30 min)
    expect(o.MedianPostbackDelayMinutes).toBeGreaterThanOrEqual(5);
    expect(o.Voltages.length).toBeGreaterThan(10);
    expect(o.Voltages.length).toBeLessThanOrEqual(201);
    expect(o.Voltages[0]![0]).toBe(start);
    expect(o.Voltages.at(-1)).toEqual([last, expect.closeTo(3.58, 2)]);
    for (let i = 1; i < o.Voltages.length; i++) expect(o.Voltages[i]![0]).toBeGreaterThan(o.Voltages[i - 1]![0]);
  });

  it('bounds the window by days', async () => {
    const o = ObservedWorkSchema.parse((await observed({ imei: 'S-LISOCL2-1', days: 1 })).body.Data);
    expect(o.From).toBe('2026-10-04 07:30:00');
    // 49 fixes on the half-hours of the last day (its own ends included), one second-level burst inside
    expect(o.FixCount).toBe(49 + 9);
    expect(o.MedianFixIntervalMinutes).toBe(30);
  });

  it('answers a device that never reported with an empty window and an unknown schedule', async () => {
    const o = ObservedWorkSchema.parse((await observed({ imei: 'S-NEVER-1' })).body.Data);
    expect(o).toMatchObject({ FixCount: 0, From: '', To: '', MedianFixIntervalMinutes: null, MedianPostbackDelayMinutes: null, ConfigReportedTime: '', Voltages: [] });
    expect(o.ConfiguredFixIntervalMinutes).toBeNull();
    expect(o.ConfiguredPostbackWaitMinutes).toBeNull();
  });

  it('refuses bad days naming the field in the caller’s language, and another organisation’s device', async () => {
    const zero = await observed({ imei: 'S-LISOCL2-1', days: 0 });
    expect(zero.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'days' } });
    expect(zero.body.Msg).toContain('number of days');
    const many = await observed({ imei: 'S-LISOCL2-1', days: 31 }, alice, 'zh');
    expect(many.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'days' } });
    expect(many.body.Msg).toContain('天数');
    const stranger = await observed({ imei: 'S-LISOCL2-1' }, bob);
    const missing = await observed({ imei: 'S-NOBODY-1' }, bob);
    expect(stranger.body.Code).not.toBe(Code.Success);
    expect(stranger.body).toEqual(missing.body);
  });
});
