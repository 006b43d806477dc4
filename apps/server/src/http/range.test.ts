import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, calls, type CallDef, Code, DeviceType, LanguageId, SensorKind, signedHeaders, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';
import { BASE, local, MIN, ZONE } from '../test/fixed-time.js';

// One reading of a range for every call (http/range.ts): the end second is included whole. Movebank imports
// bring millisecond times, so a fix at T + 500 ms with endTime = T's second must be counted by the fix calls
// as by the sensor calls and the export of the same range (before, Fix/GetCount said 1 where
// Temperature/GetCount and the fix export said 2).
describe.each(DIALECTS)('the end second of a range on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  const T = BASE + 30 * MIN;
  const range = { imei: 'RANGE-1', startTime: local(BASE), endTime: local(T), timeZone: ZONE };

  const post = (def: CallDef, body: unknown) => {
    const payload = JSON.stringify(body);
    return t.app.inject({
      method: 'POST',
      url: API_BASE + def.path,
      headers: { ...signedHeaders({ token, path: def.path, body: payload, lcid: LanguageId.en }), 'content-type': 'application/json' },
      payload,
    });
  };
  const data = async <D>(def: CallDef, body: unknown): Promise<D> => {
    const r = JSON.parse((await post(def, body)).body) as { Code: number; Msg: string; Data: D };
    expect(r.Code, r.Msg).toBe(Code.Success);
    return r.Data;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token } = await t.userWithToken({ org: 'Range Lab' }));
    const orgId = await t.services.devices.orgIdByName('Range Lab');
    const device = await t.services.devices.register({ orgId, imei: 'RANGE-1', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS', 'Temperature'], caption: 'RANGE-1' });
    const fix = (time: number) => ({
      device_id: device.id, pick_time: time, lon: 116.3, lat: 39.9, alt: 50, speed: 1, course: 90, temperature: 20, activity: 10, voltage: 3.9,
      channel: null, satellites: 8, hdop: 1.1, vdop: 1.4, grade: 1, valid: 1, tx_time: time, received_at: time, invalid_by: null, invalid_at: null, extra: null,
    });
    // T and T + 500 ms are inside an end of T's second; T + 1000 ms is the next second and is not.
    await t.database.db.insertInto('fixes').values([fix(T), fix(T + 500), fix(T + 1000)]).execute();
    await t.database.db
      .insertInto('sensor_records')
      .values([T, T + 500, T + 1000].map((time) => ({ device_id: device.id, kind: SensorKind.temperature.id, time, v1: 20, v2: null, v3: null, v4: null, received_at: time })))
      .execute();
  });
  afterAll(async () => t.close());

  it('Fix/GetCount, Fix/GetListByPage and Temperature/GetCount include the whole end second', async () => {
    expect((await data<{ Count: number }>(calls.GetFixCount, range)).Count).toBe(2);
    expect((await data<{ Total: number }>(calls.GetFixListByPage, { ...range, currentPage: 1, pageSize: 20 })).Total).toBe(2);
    expect((await data<{ Count: number }>(calls.GetTemperatureCount, range)).Count).toBe(2);
  });

  it('the fix export of the range has the same two rows', async () => {
    const res = await post(calls.ExportData, { ...range, kind: 'fix', fileType: 'csv' });
    expect(res.statusCode).toBe(200);
    const lines = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 2);
  });

  it('an end second of the next second includes the third fix; an end before the start is refused naming endTime', async () => {
    expect((await data<{ Count: number }>(calls.GetFixCount, { ...range, endTime: local(T + 1000) })).Count).toBe(3);
    const r = JSON.parse((await post(calls.GetFixCount, { ...range, startTime: local(T + 1000), endTime: local(T) })).body) as { Code: number; Data: { Field?: string } | null };
    expect(r.Code).toBe(Code.Invalid);
  });
});
