import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { calls, Code, DeviceStatus, DeviceType, EventType, INGEST_BASE, ingestHeaders, type IngestBatch } from '@wildtrack/contract';
import { type Created, onCreated } from '../domain/event-bus.js';
import { recordSilences } from '../db/event-writes.js';
import { DetectedKind } from '../domain/device-events.js';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';
import { workSettings } from '../test/work-settings.js';

/** vi.waitFor's own 1 s is too short when both cores are busy (a mail through SMTP took longer in a loaded run). */
const WAIT = { timeout: 30_000 };

interface Dev {
  id: number;
  imei: string;
  secret: string;
}

const MIN = 60_000;
/** A fixed instant: the events' content depends on no clock. */
const T0 = Date.UTC(2026, 0, 10, 0, 0);
/** A fix every 10 minutes sent as taken: the expected report gap is 10 minutes, silent after 4 of them. */
const SCHEDULE = workSettings({ IntervalMinutes: 10, DataPostbackMode: 'DATA_CNT', PacketCount: 1, PostbackHours: [], Realtime: true });
const SILENT_AFTER = 40 * MIN;

describe.each(DIALECTS)('device events at ingest and by the silence job on %s', (dialect) => {
  let t: TestApp;
  let dev: Dev;
  let token: string;

  const batch = async (d: Dev, b: IngestBatch) => {
    const body = JSON.stringify(b);
    const res = await t.app.inject({
      method: 'POST',
      url: `${INGEST_BASE}/batch`,
      headers: { 'content-type': 'application/json', ...ingestHeaders({ imei: d.imei, secret: d.secret, path: `${INGEST_BASE}/batch`, body }) },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { duplicates: number };
  };
  const fixes = (times: number[], voltage: number) => ({
    fixes: { t: times, lon: times.map(() => 118.9), lat: times.map(() => 37.7), voltage: times.map(() => voltage) },
  });
  const events = async (deviceId: number) =>
    (await t.database.db.selectFrom('events').select(['type', 'happen_time', 'content', 'dedup_key']).where('device_id', '=', deviceId).orderBy('id').execute()).map((e) => ({
      type: Number(e.type),
      at: Number(e.happen_time),
      content: JSON.parse(e.content) as Record<string, unknown>,
    }));

  beforeAll(async () => {
    // listening while this dialect's suite runs only (the announcements are the process's)
    stopListening = onCreated((c) => announced.push(c));
    t = await createTestApp(dialect);
    const u = await t.userWithToken({ org: 'Stork Lab' });
    token = u.token;
    const org = await t.services.devices.orgIdByName('Stork Lab');
    dev = await t.services.devices.register({ orgId: org, imei: '860000000000101', type: DeviceType.Tracker, status: DeviceStatus.Working });
  });
  afterAll(async () => {
    stopListening();
    await t.close();
  });
  const announced: Created[] = [];
  let stopListening = () => {};

  it('a first report makes no event; records after a silence longer than the schedule allows make one FixUpdate event, once', async () => {
    await batch(dev, { ...fixes([T0, T0 + 10 * MIN, T0 + 20 * MIN], 4.1), workStatus: { at: T0, settings: SCHEDULE } });
    expect(await events(dev.id)).toEqual([]);
    // 30 minutes later: late, not silent
    await batch(dev, fixes([T0 + 50 * MIN], 4.1));
    expect(await events(dev.id)).toEqual([]);
    // 3 hours after the last record: silent (over 40 minutes), reports again
    const back = [T0 + 50 * MIN + 3 * 60 * MIN, T0 + 50 * MIN + 3 * 60 * MIN + 10 * MIN];
    await batch(dev, fixes(back, 4.1));
    const after = await events(dev.id);
    expect(after).toHaveLength(1);
    // announced to live delivery once committed (domain/event-bus.ts), with the stored row's id
    await vi.waitFor(() => expect(announced.filter((c) => c.kind === 'event' && c.deviceId === dev.id && c.type === EventType.FixUpdate)).toHaveLength(1), WAIT);
    expect(after[0]).toMatchObject({ type: EventType.FixUpdate, content: { kind: DetectedKind.resumed, since: T0 + 50 * MIN, first: back[0] } });
    // the same batch uploaded again (a new request: all duplicates) and an older batch arriving late make none
    expect((await batch(dev, fixes(back, 4.1))).duplicates).toBe(2);
    await batch(dev, fixes([T0 + 120 * MIN], 4.1));
    expect(await events(dev.id)).toHaveLength(1);
    await new Promise((r) => setImmediate(r));
    expect(announced.filter((c) => c.kind === 'event' && c.deviceId === dev.id)).toHaveLength(1);
  });

  it('out of order: a later batch first ends the silence; the earlier one arriving afterwards makes no second event', async () => {
    const base = T0 + 10 * 60 * MIN;
    // last heard at T0+4h; the device comes back at base and base+20 min, sent in reverse order
    await batch(dev, fixes([base + 20 * MIN], 4.1));
    await batch(dev, fixes([base], 4.1));
    const e = (await events(dev.id)).filter((x) => x.type === EventType.FixUpdate);
    expect(e).toHaveLength(2);
    expect(e[1]!.content).toMatchObject({ kind: DetectedKind.resumed, first: base + 20 * MIN });
  });

  it('the battery falling below the 10 % level makes one Device event, again only after it was back above', async () => {
    const base = T0 + 11 * 60 * MIN;
    const lowEvents = async () => (await events(dev.id)).filter((x) => x.content.kind === DetectedKind.batteryLow);
    await batch(dev, fixes([base], 3.9));
    expect(await lowEvents()).toEqual([]);
    // Li battery: 3.60 V is at or below 3.68 V, level 0 %
    await batch(dev, fixes([base + 10 * MIN], 3.6));
    expect(await lowEvents()).toEqual([{ type: EventType.Device, at: base + 10 * MIN, content: { kind: DetectedKind.batteryLow, voltage: 3.6, percent: 0 } }]);
    await batch(dev, fixes([base + 10 * MIN], 3.6)); // sent again
    await batch(dev, fixes([base + 20 * MIN], 3.55)); // still low
    await batch(dev, fixes([base + 5 * MIN], 3.5)); // older, late
    expect(await lowEvents()).toHaveLength(1);
    await batch(dev, fixes([base + 30 * MIN], 3.9)); // charged (solar)
    await batch(dev, fixes([base + 40 * MIN], 3.65)); // low again
    expect(await lowEvents()).toHaveLength(2);
  });

  it('the silence job makes one Device event per silence, at the moment the schedule was exceeded', async () => {
    const last = Number((await t.database.db.selectFrom('devices').select('last_work_time').where('id', '=', dev.id).executeTakeFirstOrThrow()).last_work_time);
    const silent = async () => (await events(dev.id)).filter((x) => x.content.kind === DetectedKind.silent);
    expect(await recordSilences(t.database.db, last + SILENT_AFTER - MIN, DeviceStatus.Working)).toBe(0);
    expect(await recordSilences(t.database.db, last + SILENT_AFTER + MIN, DeviceStatus.Working)).toBe(1);
    expect(await recordSilences(t.database.db, last + 5 * SILENT_AFTER, DeviceStatus.Working)).toBe(0);
    expect(await silent()).toEqual([{ type: EventType.Device, at: last + SILENT_AFTER, content: { kind: DetectedKind.silent, since: last, allowedMinutes: 40 } }]);
    // it reports again with the fix it kept a minute after the last (no gap in the records, but it was
    // called silent): FixUpdate; it falls silent again: a second silence, a second event
    const resumed = async () => (await events(dev.id)).filter((x) => x.type === EventType.FixUpdate);
    const n = (await resumed()).length;
    await batch(dev, fixes([last + MIN], 3.9));
    expect(await resumed()).toHaveLength(n + 1);
    expect((await resumed())[n]!.content).toEqual({ kind: DetectedKind.resumed, since: last, first: last + MIN });
    expect(await recordSilences(t.database.db, last + 4 * SILENT_AFTER, DeviceStatus.Working)).toBe(1);
    expect(await silent()).toHaveLength(2);
    // the next fix ends that second silence; one more right after it ends none
    await batch(dev, fixes([last + 2 * MIN], 3.9));
    expect(await resumed()).toHaveLength(n + 2);
    await batch(dev, fixes([last + 3 * MIN], 3.9));
    expect(await resumed()).toHaveLength(n + 2);
  });

  it('a device not at work is not expected to report: no silence event', async () => {
    const org = await t.services.devices.orgIdByName('Stork Lab');
    const stock = await t.services.devices.register({ orgId: org, imei: '860000000000102', type: DeviceType.Tracker, status: DeviceStatus.Stock });
    await batch(stock, fixes([T0], 4.1));
    await recordSilences(t.database.db, T0 + 30 * 24 * 60 * MIN, DeviceStatus.Working);
    expect(await events(stock.id)).toEqual([]);
  });

  it('a phone reports when it is used, on no schedule: never silent, never reporting again', async () => {
    const org = await t.services.devices.orgIdByName('Stork Lab');
    const phone = await t.services.devices.register({ orgId: org, imei: '860000000000103', type: DeviceType.Phone, status: DeviceStatus.Working });
    await batch(phone, fixes([T0], 4.1));
    await recordSilences(t.database.db, T0 + 2 * 24 * 60 * MIN, DeviceStatus.Working);
    await batch(phone, fixes([T0 + 2 * 24 * 60 * MIN], 4.1));
    expect(await events(phone.id)).toEqual([]);
  });

  it('a status set to another one is a Device event; the same status again is none', async () => {
    const statusEvents = async () => (await events(dev.id)).filter((x) => x.content.kind === DetectedKind.status);
    expect((await t.call(calls.UpdateProperty.path, { imei: dev.imei, status: DeviceStatus.UnderMaintenance }, { token })).body.Code).toBe(Code.Success);
    expect((await t.call(calls.UpdateProperty.path, { imei: dev.imei, status: DeviceStatus.UnderMaintenance }, { token })).body.Code).toBe(Code.Success);
    expect((await t.call(calls.UpdateProperty.path, { imei: dev.imei, caption: 'Stork 101' }, { token })).body.Code).toBe(Code.Success);
    const e = await statusEvents();
    expect(e).toHaveLength(1);
    expect(e[0]).toMatchObject({ type: EventType.Device, content: { kind: DetectedKind.status, from: DeviceStatus.Working, to: DeviceStatus.UnderMaintenance } });
  });
});
