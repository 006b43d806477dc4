import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CallDef, calls, Code, DeviceStatus, DeviceType, type Event, type EventSubscribe, EventType, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { contractCalls } from '../../test/contract-calls.js';
import { DAY, HOUR, MIN, ZONE } from '../../test/fixed-time.js';
import { useFixedClock } from '../../test/clock.js';

/** 2026-11-20 10:00 in +08:00 (02:00 UTC). */
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);

describe.each(DIALECTS)('events on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  const ids = new Map<string, number>();
  const ev = new Map<string, number>();

  const { call, data } = contractCalls(() => t, () => alice);
  const list = (body: Record<string, unknown> = {}, opts: { token?: string; lang?: 'en' | 'zh' } = {}) =>
    data<{ List: Event[]; Total: number }>(calls.GetEventListByPage, { timeZone: ZONE, ...body }, opts);
  const views = async () => Number((await t.database.db.selectFrom('event_views').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const subs = async () => Number((await t.database.db.selectFrom('event_subscriptions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

  // The server's clock (and the signatures) fixed at T0 for each test and the data made before them.
  useFixedClock(T0);
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Crane Lab' }));
    const aliceOrg = (await t.services.devices.orgIdByName('Heron Lab'))!;
    const bobOrg = (await t.services.devices.orgIdByName('Crane Lab'))!;
    const userOf = async (org: number) => Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', org).executeTakeFirstOrThrow()).id);
    const reg = async (orgId: number, imei: string, example = false) => {
      const r = await t.services.devices.register({ orgId, imei, caption: `${imei} bird`, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'], ...(example ? { example: true } : {}) });
      ids.set(imei, Number(r.id));
      return Number(r.id);
    };
    await reg(aliceOrg, 'H-ONE');
    await reg(aliceOrg, 'H-TWO');
    const [aliceId, bobId] = [await userOf(aliceOrg), await userOf(bobOrg)];
    const share = (device: number, from: number, to: number) => ({
      device_id: device, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 0, remote_instr: 0, download_data: 0, effective_time: from, failure_time: to, created_at: T0,
    });
    await t.database.db.insertInto('device_shares').values([share(await reg(bobOrg, 'B-SHARED'), T0 - DAY, T0 + 30 * DAY), share(await reg(bobOrg, 'B-EXPIRED'), T0 - 3 * DAY, T0 - HOUR)]).execute();
    await reg(bobOrg, 'B-PRIVATE');
    const samples = Number((await t.database.db.insertInto('organisations').values({ name: 'Samples', parent_unit: '', created_at: T0, is_samples: 1 }).returning('id').executeTakeFirstOrThrow()).id);
    await reg(samples, 'S-EXAMPLE', true);
    expect((await t.call(calls.SetExperienceFuncEnable.path, { enabled: 1 }, { token: alice })).body.Code).toBe(Code.Success);

    const add = async (name: string, imei: string, type: number, at: number, content: object) => {
      const r = await t.database.db.insertInto('events').values({ device_id: ids.get(imei)!, type, happen_time: at, content: JSON.stringify(content) }).returning('id').executeTakeFirstOrThrow();
      ev.set(name, Number(r.id));
    };
    await add('instr', 'H-ONE', EventType.Instr, T0 - 2 * HOUR, { instrType: 'POSTBACK_FREQUENCY', status: 'FAILED', error: 'no flash' });
    await add('fence', 'H-ONE', EventType.Fence, T0 - HOUR, { kind: 'fenceEntered', fence: 'Wetland core', fenceId: 1 });
    await add('resumed', 'H-TWO', EventType.FixUpdate, T0 - 30 * MIN, { kind: 'resumed', since: T0 - 5 * HOUR - 20 * MIN, first: T0 - 30 * MIN });
    await add('status', 'H-ONE', EventType.Device, T0 - 10 * MIN, { kind: 'status', from: 3, to: 4 });
    await add('sharedOld', 'B-SHARED', EventType.Device, T0 - 2 * DAY, { kind: 'batteryLow', voltage: 3.4, percent: 8.4 });
    await add('sharedIn', 'B-SHARED', EventType.Device, T0 - 3 * HOUR, { kind: 'silent', since: T0 - 20 * HOUR, allowedMinutes: 360 });
    await add('expired', 'B-EXPIRED', EventType.Device, T0 - 2 * DAY, { kind: 'batteryLow', percent: 5 });
    await add('private', 'B-PRIVATE', EventType.Device, T0 - 4 * HOUR, { kind: 'batteryLow', percent: 5 });
    await add('example', 'S-EXAMPLE', EventType.FixUpdate, T0 - 5 * HOUR, { kind: 'resumed', since: T0 - 6 * HOUR, first: T0 - 5 * HOUR - 15 * MIN });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('lists the events of every device the caller can read, newest first, in their language and zone', async () => {
    const all = await list();
    expect(all.List.map((e) => e.Id)).toEqual(['status', 'resumed', 'fence', 'instr', 'sharedIn', 'example'].map((n) => ev.get(n)));
    expect(all.Total).toBe(6);
    const byName = (l: Event[], n: string) => l.find((e) => e.Id === ev.get(n))!;
    expect(byName(all.List, 'fence')).toMatchObject({
      IMEI: 'H-ONE', Caption: 'H-ONE bird', Type: EventType.Fence, HappenTime: '2026-11-20 09:00:00', Title: 'Entered a geofence', Content: 'H-ONE bird entered the geofence “Wetland core”.', Viewed: 0,
    });
    expect(byName(all.List, 'instr')).toMatchObject({ Title: 'Postback schedule instruction to H-ONE bird: Failed', Content: 'Failed. The device said: no flash' });
    expect(byName(all.List, 'resumed').Content).toBe('H-TWO bird is reporting fixes again after 4 h 50 min.');
    expect(byName(all.List, 'status').Content).toBe('H-ONE bird changed status from working to under maintenance.');
    expect(byName(all.List, 'sharedIn').Content).toBe('B-SHARED bird has been silent since 2026-11-19 14:00:00, longer than its schedule allows.');
    const zh = await list({ timeZone: '+00:00' }, { lang: 'zh' });
    expect(byName(zh.List, 'fence')).toMatchObject({ HappenTime: '2026-11-20 01:00:00', Title: '进入围栏', Content: 'H-ONE bird 进入围栏“Wetland core”。' });
    expect(byName(zh.List, 'instr').Title).toBe('H-ONE bird 的回传频率指令：执行失败');
    // the device's own text is labelled as its own (no reason given: an older device)
    expect(byName(zh.List, 'instr').Content).toBe('执行失败。设备返回：no flash');
    // Bob, the owner, sees his devices' events whole (also the one before the share began) and the examples (his experience switch is on), not Alice's
    expect((await list({}, { token: bob })).List.map((e) => e.Id)).toEqual(['sharedIn', 'private', 'example', 'expired', 'sharedOld'].map((n) => ev.get(n)));
  });

  it('filters by device, type, range and read state, and pages', async () => {
    expect((await list({ imei: 'H-ONE' })).List.map((e) => e.Id)).toEqual(['status', 'fence', 'instr'].map((n) => ev.get(n)));
    expect((await list({ eventType: EventType.FixUpdate })).List.map((e) => e.Id)).toEqual(['resumed', 'example'].map((n) => ev.get(n)));
    expect((await list({ startTime: '2026-11-20 07:30:00', endTime: '2026-11-20 09:00:00' })).List.map((e) => e.Id)).toEqual(['fence', 'instr'].map((n) => ev.get(n)));
    const page2 = await list({ pageSize: 10, currentPage: 1, imei: 'H-ONE', eventType: EventType.Instr });
    expect(page2.Total).toBe(1);
    expect((await data<{ Count: number }>(calls.GetEventCount, { viewed: 0 })).Count).toBe(6);
    expect((await list({ imei: 'B-SHARED' })).List.map((e) => e.Id)).toEqual([ev.get('sharedIn')]);
  });

  it('marks read one or all for the caller only; an event the caller cannot read refuses the call', async () => {
    const before = await views();
    const refused = await call(calls.EventViewed, { eventIds: [String(ev.get('fence')), String(ev.get('private'))] });
    expect(refused).toMatchObject({ Code: Code.NotFound, Msg: 'There is no such event.' });
    expect((await call(calls.EventViewed, { eventIds: [String(ev.get('sharedOld'))] })).Code).toBe(Code.NotFound);
    expect((await call(calls.EventViewed, { eventIds: [String(ev.get('expired'))] })).Code).toBe(Code.NotFound);
    expect(await views()).toBe(before);
    expect((await call(calls.EventViewed, { eventIds: [String(ev.get('fence'))] })).Code).toBe(Code.Success);
    expect((await data<{ Count: number }>(calls.GetEventCount, { viewed: 0 })).Count).toBe(5);
    expect((await list({ viewed: 1 })).List.map((e) => e.Id)).toEqual([ev.get('fence')]);
    expect((await data<{ Count: number }>(calls.EventViewedAll, { imei: 'H-ONE' })).Count).toBe(2);
    expect((await data<{ Count: number }>(calls.EventViewedAll, {})).Count).toBe(3);
    expect((await data<{ Count: number }>(calls.GetEventCount, { viewed: 0 })).Count).toBe(0);
    // Bob's read state is his own
    expect((await data<{ Count: number }>(calls.GetEventCount, { viewed: 0 }, { token: bob })).Count).toBe(5);
  });

  it('subscribes per device: all on until changed; wants() follows it', async () => {
    const got = (await data<{ List: EventSubscribe[] }>(calls.GetEventSubscribe, {})).List;
    expect(got.map((s) => s.IMEI).sort()).toEqual(['B-SHARED', 'H-ONE', 'H-TWO', 'S-EXAMPLE']);
    expect(got.every((s) => s.FenceEvent && s.InstrEvent && s.FixUpdateEvent)).toBe(true);
    const set = await data<EventSubscribe>(calls.SetEventSubscribe, { imei: 'H-ONE', FenceEvent: false, InstrEvent: true, FixUpdateEvent: false });
    expect(set).toEqual({ IMEI: 'H-ONE', Caption: 'H-ONE bird', FenceEvent: false, InstrEvent: true, FixUpdateEvent: false });
    expect((await data<{ List: EventSubscribe[] }>(calls.GetEventSubscribe, { imei: 'H-ONE' })).List).toEqual([set]);
    const aliceId = Number((await t.database.db.selectFrom('users as u').innerJoin('organisations as o', 'o.id', 'u.org_id').select('u.id').where('o.name', '=', 'Heron Lab').executeTakeFirstOrThrow()).id);
    expect(await t.services.events.wants(aliceId, ids.get('H-ONE')!, EventType.Fence)).toBe(false);
    expect(await t.services.events.wants(aliceId, ids.get('H-ONE')!, EventType.Instr)).toBe(true);
    expect(await t.services.events.wants(aliceId, ids.get('H-ONE')!, EventType.Device)).toBe(true);
    expect(await t.services.events.wants(aliceId, ids.get('H-TWO')!, EventType.Fence)).toBe(true);
    // the caller's own setting: allowed on an example device
    expect((await call(calls.SetEventSubscribe, { imei: 'S-EXAMPLE', FenceEvent: true, InstrEvent: false, FixUpdateEvent: true })).Code).toBe(Code.Success);
  });

  it('gives a stranger, an expired share and no token nothing, changing nothing; bad input names the field', async () => {
    const [v, s] = [await views(), await subs()];
    for (const imei of ['B-PRIVATE', 'B-EXPIRED', 'NOPE-1']) {
      for (const [def, body] of [
        [calls.GetEventListByPage, { imei }],
        [calls.GetEventCount, { imei }],
        [calls.GetEventSubscribe, { imei }],
        [calls.SetEventSubscribe, { imei, FenceEvent: true, InstrEvent: true, FixUpdateEvent: true }],
        [calls.EventViewedAll, { imei }],
      ] as [CallDef, Record<string, unknown>][]) {
        expect(await call(def, body, { lang: 'zh' }), `${def.path} ${imei}`).toMatchObject({ Code: Code.NotFound, Msg: '设备不存在' });
      }
    }
    for (const def of [calls.GetEventListByPage, calls.GetEventCount, calls.GetEventSubscribe, calls.EventViewedAll]) expect((await call(def, {}, { token: null })).Code).toBe(Code.SessionExpired);
    expect((await call(calls.EventViewed, { eventIds: [String(ev.get('fence'))] }, { token: null })).Code).toBe(Code.SessionExpired);
    const bad: [CallDef, Record<string, unknown>, string][] = [
      [calls.GetEventListByPage, { eventType: 7 }, 'eventType'],
      [calls.GetEventListByPage, { viewed: 2 }, 'viewed'],
      [calls.GetEventListByPage, { startTime: '2026-11-20 10:00:00', endTime: '2026-11-19 10:00:00' }, 'endTime'],
      [calls.GetEventListByPage, { startTime: '2026-13-40 10:00:00' }, 'startTime'],
      [calls.GetEventListByPage, { pageSize: 7 }, 'pageSize'],
      [calls.EventViewed, { eventIds: [] }, 'eventIds'],
      [calls.EventViewed, { eventIds: ['x1'] }, 'eventIds[0]'],
      [calls.SetEventSubscribe, { imei: 'H-ONE', FenceEvent: 'yes', InstrEvent: true, FixUpdateEvent: true }, 'FenceEvent'],
    ];
    for (const [def, body, field] of bad) {
      const r = await call(def, body);
      expect(r.Code, `${def.path} ${JSON.stringify(body)}`).toBe(Code.Invalid);
      expect((r.Data as { Field: string }).Field).toBe(field);
    }
    expect([await views(), await subs()]).toEqual([v, s]);
  });
});
