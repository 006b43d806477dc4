import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AccelerationBurst,
  type CallDef,
  decodeBase64SensorSeries,
  calls,
  Code,
  DeviceType,
  type IngestBatch,
  message,
  packSamples,
  type SensorFlagName,
  SpeciesType,
} from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { ZONE, MIN, HOUR, DAY, BASE, NOW, local, type Page } from '../../test/fixed-time.js';
import { useFixedClock } from '../../test/clock.js';

/** The ingest's clock for the fixed records (it refuses records more than a day ahead of it). */
const INGEST_NOW = BASE + 10 * DAY;

/** Raw counts of a test burst: X a ramp, Y a square wave, Z constant (no dynamic part). */
function burstRaw(n: number, axes: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    out.push(2048 + 10 * i);
    if (axes > 1) out.push(i % 2 === 0 ? 2148 : 1948);
    if (axes > 2) out.push(2048 + 370);
  }
  return out;
}

/** ODBA as the spec's readers compute it, independently of the server: per axis |g - mean g|, summed, in milli-g. */
function odbaOf(raw: number[], axes: number, scale: number[], offset: number[]): number[] {
  const n = raw.length / axes;
  const gOf = (i: number, a: number) => (raw[i * axes + a]! - offset[a]!) * scale[a]!;
  const mean = Array.from({ length: axes }, (_, a) => Array.from({ length: n }, (_, i) => gOf(i, a)).reduce((s, v) => s + v, 0) / n);
  return Array.from({ length: n }, (_, i) => Math.round(Array.from({ length: axes }, (_, a) => Math.abs(gOf(i, a) - mean[a]!)).reduce((s, v) => s + v, 0) * 1000) / 1000);
}

describe.each(DIALECTS)('sensor calls on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  // The shares' windows are read against the server's clock: fixed at NOW, the records made around it.
  const now = NOW;
  useFixedClock(NOW);
  const range = { startTime: local(BASE), endTime: local(BASE + DAY), timeZone: ZONE };
  const scale = [0.002, 0.003, 0.004];
  const offset = [2048, 2048, 2048];

  const call = async (def: CallDef, body: Record<string, unknown>, opts: { token?: string; lang?: 'en' | 'zh' } = {}) =>
    (await t.call(def.path, body, { token: opts.token ?? alice, lang: opts.lang ?? 'en' })).body;
  /** A successful answer's Data, checked against the call's own Data schema. */
  const data = async <T,>(def: CallDef, body: Record<string, unknown>, token = alice): Promise<T> => {
    const r = await call(def, body, { token });
    expect(r.Code, r.Msg).toBe(Code.Success);
    return def.data.parse(r.Data) as T;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Ibis Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Crane Lab' }));
    const aliceOrg = await t.services.devices.orgIdByName('Ibis Lab');
    const bobOrg = await t.services.devices.orgIdByName('Crane Lab');
    const userOf = async (org: number) => Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', org).executeTakeFirstOrThrow()).id);
    const aliceId = await userOf(aliceOrg);
    const bobId = await userOf(bobOrg);
    const reg = async (orgId: number, imei: string, sensors: SensorFlagName[]) =>
      (await t.services.devices.register({ orgId, imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors, caption: imei })).id;
    const ingest = (deviceId: number, batch: IngestBatch, at = INGEST_NOW) => t.services.ingest.writeBatch(deviceId, batch, null, at);

    const all = await reg(aliceOrg, 'S-ALL', ['GNSS', 'Acceleration', 'Temperature', 'Pressure', 'WaterDepth', 'RedInfraredLight', 'LightIntensity', 'Humidity', 'Magnetism']);
    await reg(aliceOrg, 'S-GNSS', ['GNSS']);
    const old = await reg(aliceOrg, 'S-OLDACC', ['GNSS', 'OldAcceleration']);
    const shared = await reg(bobOrg, 'B-SHARED', ['GNSS', 'Temperature', 'Acceleration']);
    const expired = await reg(bobOrg, 'B-EXPIRED', ['GNSS', 'Temperature', 'Acceleration']);
    await reg(bobOrg, 'B-PRIVATE', ['GNSS', 'Temperature', 'Acceleration']);

    // S-ALL: 50 temperatures every 10 min (20.0, 20.1, … 24.9 °C), one record of every other kind, and two bursts.
    const times = Array.from({ length: 50 }, (_, i) => BASE + i * 10 * MIN);
    const counts = await ingest(all, {
      sensors: [
        { kind: 'temperature', t: times, v: times.map((_, i) => [20 + i / 10]) },
        { kind: 'pressure', t: [BASE + HOUR], v: [[1013.25]] },
        { kind: 'waterDepth', t: [BASE + HOUR], v: [[12.5]] },
        { kind: 'redInfrared', t: [BASE + HOUR], v: [[120, 340]] },
        { kind: 'light', t: [BASE + HOUR], v: [[5400]] },
        { kind: 'humidity', t: [BASE + HOUR], v: [[63.5]] },
        { kind: 'magnetism', t: [BASE + HOUR], v: [[0.21, -0.05, 0.43, 271.5]] },
      ],
      bursts: [
        { t: BASE + 2 * HOUR + 250, hz: 20, axes: 'XYZ', samples: packSamples(burstRaw(40, 3)), scale, offset },
        { t: BASE + 3 * HOUR, hz: 10, axes: 'XY', samples: packSamples(burstRaw(8, 2)), scale: scale.slice(0, 2), offset: offset.slice(0, 2) },
      ],
    });
    expect(counts).toMatchObject({ sensors: 56, bursts: 2, duplicates: 0 });
    await ingest(old, { bursts: [{ t: BASE, hz: 1, axes: 'X', samples: packSamples([2048, 2049]) }] });

    // B-SHARED: records before the share window opened and inside it; B-EXPIRED's share has ended.
    const sharedTimes = [now - 3 * DAY, now - DAY, now - HOUR];
    await ingest(shared, {
      sensors: [{ kind: 'temperature', t: sharedTimes, v: [[1], [2], [3]] }],
      bursts: sharedTimes.map((time) => ({ t: time, hz: 1, axes: 'X' as const, samples: packSamples([2048, 2050]) })),
    }, now);
    await ingest(expired, { sensors: [{ kind: 'temperature', t: [now - DAY], v: [[9]] }] }, now);
    await t.database.db
      .insertInto('device_shares')
      .values([
        { device_id: shared, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 0, remote_instr: 0, download_data: 0, effective_time: now - 2 * DAY, failure_time: now + HOUR, created_at: now },
        { device_id: expired, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 1, remote_instr: 1, download_data: 1, effective_time: now - 3 * DAY, failure_time: now - HOUR, created_at: now },
      ])
      .execute();
  });
  afterAll(async () => t.close());

  it('counts and pages temperatures newest first, times in the caller zone, the end second included', async () => {
    expect(await data(calls.GetTemperatureCount, { imei: 'S-ALL', ...range })).toEqual({ Count: 50 });
    const first = await data<Page<{ Time: string; Temperature: number }>>(calls.GetTemperatureList, { imei: 'S-ALL', ...range });
    expect(first.Total).toBe(50);
    expect(first.List).toHaveLength(20);
    expect(first.List[0]).toEqual({ Time: '2026-11-01 16:10:00', Temperature: 24.9 });
    expect(first.List[19]).toEqual({ Time: local(BASE + 30 * 10 * MIN), Temperature: 23 });
    const third = await data<Page<{ Temperature: number }>>(calls.GetTemperatureList, { imei: 'S-ALL', ...range, currentPage: 3 });
    expect(third.List.map((r) => r.Temperature)).toEqual([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0].map((d) => 20 + d));
    const ascending = await data<Page<{ Time: string }>>(calls.GetTemperatureList, { imei: 'S-ALL', ...range, pageSize: 10, sortOrder: 'ascend' });
    expect(ascending.List[0]!.Time).toBe('2026-11-01 08:00:00');
    // Sorted by the value: the warmest first (the values rise with time here, so the order is checkable by time too).
    const warmest = await data<Page<{ Temperature: number }>>(calls.GetTemperatureList, { imei: 'S-ALL', ...range, pageSize: 10, sortField: 'Temperature', sortOrder: 'descend' });
    expect(warmest.List[0]!.Temperature).toBe(24.9);
    // 08:00:00 to 08:10:00 holds the first two records: the end time's second counts whole.
    expect(await data(calls.GetTemperatureCount, { imei: 'S-ALL', startTime: '2026-11-01 08:00:00', endTime: '2026-11-01 08:10:00', timeZone: ZONE })).toEqual({ Count: 2 });
    // The same texts read in UTC are eight hours later (16:00-16:10 in +08:00): the last two records.
    expect(await data(calls.GetTemperatureCount, { imei: 'S-ALL', startTime: '2026-11-01 08:00:00', endTime: '2026-11-01 08:10:00', timeZone: '+00:00' })).toEqual({ Count: 2 });
    const utc = await data<Page<{ Time: string }>>(calls.GetTemperatureList, { imei: 'S-ALL', startTime: '2026-11-01 00:00:00', endTime: '2026-11-01 00:00:00', timeZone: '+00:00' });
    expect(utc.List).toEqual([{ Time: '2026-11-01 00:00:00', Temperature: 20 }]);
    // A page past the end: empty, with the total.
    expect(await data(calls.GetTemperatureList, { imei: 'S-ALL', ...range, currentPage: 9 })).toEqual({ List: [], Total: 50 });
  });

  it('answers every scalar kind with the fields §3 names for it', async () => {
    const time = local(BASE + HOUR);
    const expected: [CallDef, CallDef, Record<string, unknown>][] = [
      [calls.GetPressureCount, calls.GetPressureList, { Time: time, Pressure: 1013.25 }],
      [calls.GetWaterDepthCount, calls.GetWaterDepthList, { Time: time, WaterDepth: 12.5 }],
      [calls.GetRedInfraredLightCount, calls.GetRedInfraredLightList, { Time: time, RedLight: 120, InfraredLight: 340 }],
      [calls.GetLightIntensityCount, calls.GetLightIntensityList, { Time: time, LightIntensity: 5400 }],
      [calls.GetHumidityCount, calls.GetHumidityList, { Time: time, Humidity: 63.5 }],
      [calls.GetMagnetismCount, calls.GetMagnetismList, { Time: time, X: 0.21, Y: -0.05, Z: 0.43, Angle: 271.5 }],
    ];
    for (const [count, list, record] of expected) {
      expect(await data(count, { imei: 'S-ALL', ...range }), count.path).toEqual({ Count: 1 });
      expect(await data(list, { imei: 'S-ALL', ...range }), list.path).toEqual({ List: [record], Total: 1 });
    }
    // Magnetism sorted by its angle, red/IR by the infrared value: the kind's own fields are its sort fields.
    expect((await data<Page<unknown>>(calls.GetMagnetismList, { imei: 'S-ALL', ...range, sortField: 'Angle' })).Total).toBe(1);
    expect((await data<Page<unknown>>(calls.GetRedInfraredLightList, { imei: 'S-ALL', ...range, sortField: 'InfraredLight', sortOrder: 'ascend' })).Total).toBe(1);
  });

  it('lists acceleration bursts with raw, calibrated and ODBA values per sample', async () => {
    expect(await data(calls.GetAccelerationCountV2, { imei: 'S-ALL', ...range })).toEqual({ Count: 2 });
    const page = await data<Page<AccelerationBurst>>(calls.GetAccelerationListV2, { imei: 'S-ALL', ...range });
    expect(page.Total).toBe(2);
    const [xy, xyz] = page.List;
    expect(xyz).toMatchObject({ Id: String(BASE + 2 * HOUR + 250), Time: '2026-11-01 10:00:00', Frequency: 20, Axes: 'XYZ', SampleCount: 40 });
    expect(xyz!.Samples).toHaveLength(40);
    const raw = burstRaw(40, 3);
    const odba = odbaOf(raw, 3, scale, offset);
    // Sample 3 is 150 ms after the start (20 Hz), its time written to the millisecond.
    expect(xyz!.Samples[3]).toEqual({
      Time: '2026-11-01 10:00:00.400',
      OriginX: 2078, OriginY: 1948, OriginZ: 2418,
      X: 0.06, Y: -0.3, Z: 1.48,
      ODBA: odba[3],
    });
    expect(xyz!.Samples.map((s) => s.ODBA)).toEqual(odba);
    expect(xyz!.MeanODBA).toBeCloseTo(odba.reduce((s, v) => s + v, 0) / odba.length, 3);
    // Z was not sampled: null, and ODBA over X and Y only.
    expect(xy).toMatchObject({ Time: '2026-11-01 11:00:00', Frequency: 10, Axes: 'XY', SampleCount: 8 });
    expect(xy!.Samples[7]).toEqual({ Time: '2026-11-01 11:00:00.700', OriginX: 2118, OriginY: 1948, OriginZ: null, X: 0.14, Y: -0.3, Z: null, ODBA: odbaOf(burstRaw(8, 2), 2, scale, offset)[7] });
    // By mean ODBA, least active first.
    const calm = await data<Page<AccelerationBurst>>(calls.GetAccelerationListV2, { imei: 'S-ALL', ...range, sortField: 'MeanODBA', sortOrder: 'ascend' });
    expect(calm.List.map((b) => b.MeanODBA)).toEqual([...calm.List.map((b) => b.MeanODBA)].sort((a, b) => a - b));
    expect(calm.List.map((b) => b.Axes).sort()).toEqual(['XY', 'XYZ']);
    // A device with the older acceleration sensor has bursts too.
    expect(await data(calls.GetAccelerationCountV2, { imei: 'S-OLDACC', ...range })).toEqual({ Count: 1 });
  });

  it('refuses a device without the kind\'s sensor with 601 naming imei, in the caller\'s language', async () => {
    for (const lang of ['en', 'zh'] as const) {
      const r = await call(calls.GetTemperatureList, { imei: 'S-GNSS', ...range }, { lang });
      expect(r.Code).toBe(Code.Invalid);
      expect(r.Data).toEqual({ Field: 'imei' });
      expect(r.Msg).toBe(message(lang, 'sensor.none', { sensor: message(lang, 'sensor.Temperature') }));
    }
    expect((await call(calls.GetAccelerationListV2, { imei: 'S-GNSS', ...range })).Msg).toBe('This device has no acceleration sensor.');
    expect((await call(calls.GetMagnetismCount, { imei: 'S-GNSS', ...range }, { lang: 'zh' })).Msg).toBe('该设备没有地磁传感器。');
    for (const def of [calls.GetPressureCount, calls.GetWaterDepthList, calls.GetRedInfraredLightList, calls.GetLightIntensityCount, calls.GetHumidityList, calls.GetAccelerationCountV2]) {
      const r = await call(def, { imei: 'S-GNSS', ...range });
      expect([r.Code, r.Data], def.path).toEqual([Code.Invalid, { Field: 'imei' }]);
    }
  });

  it('refuses a bad range, page size or sort field with 601 naming the field, never a 500', async () => {
    const refused = async (def: CallDef, body: Record<string, unknown>, field: string) => {
      const r = await call(def, { imei: 'S-ALL', ...range, ...body });
      expect([r.Code, r.Data], `${def.path} ${JSON.stringify(body)}: ${r.Msg}`).toEqual([Code.Invalid, { Field: field }]);
      return r.Msg;
    };
    expect(await refused(calls.GetTemperatureList, { startTime: range.endTime, endTime: range.startTime }, 'endTime')).toBe('The end time must not be before the start time.');
    await refused(calls.GetAccelerationCountV2, { startTime: range.endTime, endTime: range.startTime }, 'endTime');
    expect(await refused(calls.GetHumidityList, { pageSize: 25 }, 'pageSize')).toMatch(/10, 20, 40, 50, 100/);
    await refused(calls.GetAccelerationListV2, { pageSize: 1000 }, 'pageSize');
    await refused(calls.GetTemperatureList, { sortField: 'Pressure' }, 'sortField');
    await refused(calls.GetAccelerationListV2, { sortField: 'ODBA' }, 'sortField');
    await refused(calls.GetTemperatureCount, { startTime: '2026-02-30 00:00:00' }, 'startTime');
    await refused(calls.GetTemperatureCount, { startTime: '2000-01-01 00:00:00' }, 'endTime');
    await refused(calls.GetMagnetismList, { currentPage: 0 }, 'currentPage');
    await refused(calls.GetPressureCount, { timeZone: '+08:30' }, 'timeZone');
  });

  it('answers a series: every record when they fit the width, else a min/max/mean envelope per bucket', async () => {
    const series = async (body: Record<string, unknown>, token = alice) => decodeBase64SensorSeries(await data<string>(calls.GetSensorSeries, { imei: 'S-ALL', ...range, ...body }, token));
    // 50 records fit a 25-pixel chart (up to 2 × width): sent as they are, in time order.
    const whole = await series({ kind: 'temperature', width: 25 });
    expect([whole.values, whole.total, whole.bucketMs, whole.count]).toEqual([1, 50, 0, 50]);
    expect(Array.from(whole.times)).toEqual(Array.from({ length: 50 }, (_, i) => BASE + i * 10 * MIN));
    expect(Array.from(whole.mean, (v) => Math.round(v * 10) / 10)).toEqual(Array.from({ length: 50 }, (_, i) => Math.round((20 + i / 10) * 10) / 10));
    // 16 pixels: an envelope of 16 buckets over the day (the end second included), only the non-empty ones sent.
    const env = await series({ kind: 'temperature', width: 16 });
    const bucketMs = Math.ceil((DAY + 1000) / 16);
    expect([env.total, env.bucketMs]).toEqual([50, bucketMs]);
    const expected = new Map<number, number[]>();
    for (let i = 0; i < 50; i++) {
      const b = Math.floor((i * 10 * MIN) / bucketMs);
      expected.set(b, [...(expected.get(b) ?? []), 20 + i / 10]);
    }
    expect(env.count).toBe(expected.size);
    [...expected.values()].forEach((v, i) => {
      expect(env.counts[i]).toBe(v.length);
      expect(env.min[i]).toBeCloseTo(Math.min(...v), 4);
      expect(env.max[i]).toBeCloseTo(Math.max(...v), 4);
      expect(env.mean[i]).toBeCloseTo(v.reduce((a, x) => a + x, 0) / v.length, 4);
    });
    // Zoomed to the first hour: seven records, sent whole.
    const zoomed = await series({ kind: 'temperature', width: 16, startTime: local(BASE), endTime: local(BASE + HOUR) });
    expect([zoomed.total, zoomed.bucketMs, zoomed.count]).toEqual([7, 0, 7]);
    // Several values per record, value-major: red then infrared; magnetism's X, Y, Z and Angle.
    const red = await series({ kind: 'redInfrared', width: 16 });
    expect([red.values, red.count, Array.from(red.mean)]).toEqual([2, 1, [120, 340]]);
    const mag = await series({ kind: 'magnetism', width: 16 });
    expect(mag.values).toBe(4);
    expect(Array.from(mag.mean).map((v) => Math.round(v * 100) / 100)).toEqual([0.21, -0.05, 0.43, 271.5]);
    // A share's recipient: only the window.
    const wide = { startTime: local(now - 10 * DAY), endTime: local(now + DAY), timeZone: ZONE };
    const shared = decodeBase64SensorSeries(await data<string>(calls.GetSensorSeries, { imei: 'B-SHARED', kind: 'temperature', width: 16, ...wide }));
    expect(Array.from(shared.mean)).toEqual([2, 3]);
  });

  it('averages a compass angle around the circle in an envelope (350° and 10° make 0°, not 180°)', async () => {
    const orgId = await t.services.devices.orgIdByName('Ibis Lab');
    const { id } = await t.services.devices.register({ orgId, imei: 'S-MAG', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS', 'Magnetism'], caption: 'S-MAG' });
    const times = Array.from({ length: 40 }, (_, i) => BASE + i * MIN);
    await t.services.ingest.writeBatch(id, { sensors: [{ kind: 'magnetism', t: times, v: times.map((_, i) => [1, 2 + (i % 2), 3, i % 2 === 0 ? 350 : 10]) }] }, null, INGEST_NOW);
    // 40 records in the first hour, 16 pixels over the day: one bucket of all 40
    const s = decodeBase64SensorSeries(await data<string>(calls.GetSensorSeries, { imei: 'S-MAG', kind: 'magnetism', width: 16, ...range }));
    expect([s.values, s.total, s.count, s.bucketMs > 0]).toEqual([4, 40, 1, true]);
    expect(Array.from(s.mean.slice(0, 3))).toEqual([1, 2.5, 3]);
    const angle = s.mean[3]!;
    expect(Math.min(angle, 360 - angle)).toBeLessThan(1e-3);
    expect([s.min[3], s.max[3]]).toEqual([10, 350]);
  });

  it('refuses a series of an unknown kind, a reversed range, a bad width or a device without the sensor with 601 naming the field', async () => {
    const refused = async (body: Record<string, unknown>, field: string, lang: 'en' | 'zh' = 'en') => {
      const r = await call(calls.GetSensorSeries, { imei: 'S-ALL', kind: 'temperature', width: 100, ...range, ...body }, { lang });
      expect([r.Code, r.Data], `${JSON.stringify(body)}: ${r.Msg}`).toEqual([Code.Invalid, { Field: field }]);
      return r.Msg;
    };
    await refused({ kind: 'acceleration' }, 'kind');
    await refused({ kind: 'Temperature' }, 'kind', 'zh');
    expect(await refused({ startTime: range.endTime, endTime: range.startTime }, 'endTime')).toBe('The end time must not be before the start time.');
    await refused({ width: 0 }, 'width');
    await refused({ width: 100_000 }, 'width');
    await refused({ width: 10.5 }, 'width');
    expect(await refused({ imei: 'S-GNSS' }, 'imei', 'zh')).toBe(message('zh', 'sensor.none', { sensor: message('zh', 'sensor.Temperature') }));
    const wide = { startTime: local(now - 10 * DAY), endTime: local(now + DAY), timeZone: ZONE };
    for (const imei of ['B-EXPIRED', 'B-PRIVATE']) {
      const r = await call(calls.GetSensorSeries, { imei, kind: 'temperature', width: 100, ...wide });
      expect([r.Code, r.Msg], imei).toEqual([Code.NotFound, message('en', 'device.notFound')]);
    }
    expect((await call(calls.GetSensorSeries, { imei: 'S-ALL', kind: 'temperature', width: 100, ...range }, { token: bob })).Code).toBe(Code.NotFound);
    expect((await t.call(calls.GetSensorSeries.path, { imei: 'S-ALL', kind: 'temperature', width: 100, ...range })).body.Code).toBe(Code.SessionExpired);
  });

  it('shows a share\'s recipient only what lies inside the window, and strangers nothing', async () => {
    const wide = { startTime: local(now - 10 * DAY), endTime: local(now + DAY), timeZone: ZONE };
    expect(await data(calls.GetTemperatureCount, { imei: 'B-SHARED', ...wide })).toEqual({ Count: 2 });
    expect((await data<Page<{ Temperature: number }>>(calls.GetTemperatureList, { imei: 'B-SHARED', ...wide })).List.map((r) => r.Temperature)).toEqual([3, 2]);
    expect(await data(calls.GetAccelerationCountV2, { imei: 'B-SHARED', ...wide })).toEqual({ Count: 2 });
    expect((await data<Page<AccelerationBurst>>(calls.GetAccelerationListV2, { imei: 'B-SHARED', ...wide })).Total).toBe(2);
    // The owner sees all three; a range wholly before the share's data (here its window) is refused, saying what it covers.
    expect(await data(calls.GetTemperatureCount, { imei: 'B-SHARED', ...wide }, bob)).toEqual({ Count: 3 });
    const before = { startTime: local(now - 10 * DAY), endTime: local(now - 2 * DAY - HOUR), timeZone: ZONE };
    const outside = await call(calls.GetTemperatureList, { imei: 'B-SHARED', ...before }, { lang: 'zh' });
    expect([outside.Code, outside.Msg]).toEqual([Code.Failed, message('zh', 'share.dataWindow', { from: local(now - 2 * DAY), to: local(now + HOUR) })]);
    for (const imei of ['B-EXPIRED', 'B-PRIVATE', 'NO-SUCH-DEVICE']) {
      for (const def of [calls.GetTemperatureCount, calls.GetTemperatureList, calls.GetAccelerationListV2]) {
        const r = await call(def, { imei, ...wide });
        expect([r.Code, r.Msg], `${imei} ${def.path}`).toEqual([Code.NotFound, message('en', 'device.notFound')]);
      }
    }
    // Bob can't read Alice's device; without a session nothing is read.
    expect((await call(calls.GetTemperatureList, { imei: 'S-ALL', ...range }, { token: bob })).Code).toBe(Code.NotFound);
    const anonymous = await t.call(calls.GetTemperatureList.path, { imei: 'S-ALL', ...range });
    expect(anonymous.body.Code).toBe(Code.SessionExpired);
  });
});
