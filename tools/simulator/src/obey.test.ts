import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, type FenceRule, GetWorkStatus, type InstructionParamsInput, SendInstruction, type WorkStatus } from '@wildtrack/contract';
import { batteryLevel, Coverage, createDevice, DAY, getProfile, HOUR, MINUTE, type ProfileId } from '@wildtrack/sample-fleet';
import { createTestApp, DIALECTS, type TestApp } from '../../../apps/server/src/test/helper.js';
import { LiveDevice, type Relay, type WakeResult } from './live.js';

/**
 * The simulator's devices obey their instructions, proven from what the server stored: a device runs
 * over simulated time, waking every 30 minutes as the CLI wakes every few seconds, sending over HTTP to a
 * listening server; an instruction goes in through the console's Send call; the stored fixes and bursts
 * then show the new schedule from the moment the device acknowledged it.
 *
 * Simulated time runs in the past (records may be of any age) and reaches at most the wall clock, so the
 * server's clock (the instruction's send time, the request signatures) stays the real one; the
 * acknowledgement carries the wall clock too, as a live device's would.
 */
describe.each(DIALECTS)('simulated devices obey instructions, as stored on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let token: string;
  let orgId: number;
  // The wall clock, as said above: the simulator's client signs and acknowledges on it, as a live device does.
  const now = Date.now();
  const T0 = Math.floor((now - 30 * HOUR) / HOUR) * HOUR;
  let serial = 0;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const org = `Obey Lab ${dialect}`;
    token = (await t.userWithToken({ org })).token;
    orgId = await t.services.devices.orgIdByName(org);
  }, 60_000);
  afterAll(async () => t?.close());

  async function device(profile: ProfileId, seed: number, coverage = false, relays: Relay[] = []) {
    const p = getProfile(profile);
    const imei = `86451209${dialect === 'sqlite' ? 1 : 2}${String(++serial).padStart(6, '0')}`;
    const reg = await t.services.devices.register({ orgId, imei, type: p.type, model: p.model, sensors: p.sensors, instrSupport: p.instrSupport, speciesType: p.speciesType, batteryType: p.batteryType });
    // Outages off unless asked for: the wake-ups below say when the device is reachable.
    const live = new LiveDevice({ imei, secret: reg.secret, profile, seed }, base, T0, { media: false, coverage, relays, client: { attempts: 2, backoffMs: 50 } });
    return { id: reg.id, imei, live };
  }

  async function send(imei: string, params: InstructionParamsInput): Promise<number> {
    const { body } = await t.call(SendInstruction.path, { imeis: [imei], params, timeZone: '+08:00' }, { token });
    expect(body.Code, JSON.stringify(body)).toBe(Code.Success);
    return (body.Data as { List: { Id: number }[] }).List[0]!.Id;
  }

  async function workStatus(imei: string): Promise<WorkStatus> {
    const { body } = await t.call(GetWorkStatus.path, { imei, timeZone: '+00:00' }, { token });
    expect(body.Code, JSON.stringify(body)).toBe(Code.Success);
    return body.Data as WorkStatus;
  }

  const instruction = (id: number) => t.database.db.selectFrom('instructions').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /** Wakes the device every 30 simulated minutes up to `until`; the time it applied instruction `id`, if it did. */
  async function run(live: LiveDevice, until: number, id?: number): Promise<number | undefined> {
    let applied: number | undefined;
    for (let at = live.sim.clock + 30 * MINUTE; at <= until; at += 30 * MINUTE) {
      const r = await live.wake(at);
      if (id !== undefined && r.applied.some((a) => a.id === id)) applied = live.sim.clock;
    }
    return applied;
  }

  async function fixTimes(deviceId: number): Promise<number[]> {
    const rows = await t.database.db.selectFrom('fixes').select('pick_time').where('device_id', '=', deviceId).orderBy('pick_time').execute();
    return rows.map((r) => Number(r.pick_time));
  }
  async function burstTimes(deviceId: number): Promise<number[]> {
    const rows = await t.database.db.selectFrom('acc_bursts').select('start_time').where('device_id', '=', deviceId).orderBy('start_time').execute();
    return rows.map((r) => Number(r.start_time));
  }
  const gaps = (ts: number[]) => ts.slice(1).map((x, i) => Math.round((Math.floor(x / MINUTE) - Math.floor(ts[i]! / MINUTE))));

  it('after "a fix every 10 minutes, ACC off" the stored fixes come every 10 minutes and no burst follows', async () => {
    const { id: deviceId, imei, live } = await device('deer', 2);
    await run(live, T0 + 8 * HOUR);
    // What the collar reported it runs (its first batch): a fix every 30 minutes, bursts every 10.
    expect(await workStatus(imei)).toMatchObject({ Known: true, GNSSCollectionMode: 0, NormalType: 'INTERVAL', IntervalMinutes: 30, AccEnabled: true, AccIntervalMinutes: 10, Realtime: true });
    const id = await send(imei, { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 }, ACC: { Mode: 'OFF' } });
    const applied = await run(live, T0 + 20 * HOUR, id);
    expect(applied).toBe(T0 + 8 * HOUR + 30 * MINUTE);
    const row = await instruction(id);
    expect(row).toMatchObject({ status: 'SUCCESSFUL', error_message: null });
    expect(Number(row.execute_time)).toBeGreaterThanOrEqual(Number(row.send_time));
    expect(await workStatus(imei)).toMatchObject({ Known: true, GNSSCollectionMode: 0, IntervalMinutes: 10, AccEnabled: false });

    const fixes = await fixTimes(deviceId);
    const before = fixes.filter((x) => x < applied!);
    const after = fixes.filter((x) => x > applied!);
    // The collar's default: a fix every 30 minutes (an attempt without a position is stored too).
    expect(new Set(gaps(before))).toEqual(new Set([30]));
    expect(before.length).toBeGreaterThan(12);
    expect(new Set(gaps(after))).toEqual(new Set([10]));
    expect(after.length).toBeGreaterThan(60);
    const bursts = await burstTimes(deviceId);
    expect(bursts.filter((x) => x < applied!).length).toBeGreaterThan(40);
    expect(bursts.filter((x) => x > applied!)).toEqual([]);
  }, 120_000);

  it('ACC at 25 Hz every 30 minutes, then uploads at 06:00 and 18:00 (+08:00): the stored bursts and transmission times follow', async () => {
    const { id: deviceId, imei, live } = await device('deer', 4);
    await run(live, T0 + 2 * HOUR);
    const acc = await send(imei, { Type: 'ACQUISITION_FREQUENCY', ACC: { Mode: 'INTERVAL', FrequencyHz: 25, IntervalMinutes: 30 } });
    const accAt = (await run(live, T0 + 3 * HOUR, acc))!;
    const post = await send(imei, { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'HOUR', Hours: [6, 18], Realtime: false } });
    const postAt = (await run(live, T0 + 4 * HOUR, post))!;
    expect(postAt).toBeGreaterThan(accAt);
    // Two upload hours later (22:00 and 10:00 UTC), everything taken before the second is stored.
    await run(live, T0 + 28 * HOUR);
    const bursts = await t.database.db.selectFrom('acc_bursts').select(['start_time', 'hz']).where('device_id', '=', deviceId).where('start_time', '>', accAt).orderBy('start_time').execute();
    expect(bursts.length).toBeGreaterThan(20);
    expect(new Set(bursts.map((b) => b.hz))).toEqual(new Set([25]));
    expect(new Set(gaps(bursts.map((b) => Number(b.start_time))))).toEqual(new Set([30]));
    const sent = await t.database.db.selectFrom('fixes').select(['pick_time', 'tx_time']).where('device_id', '=', deviceId).where('pick_time', '>', postAt).execute();
    expect(sent.length).toBeGreaterThan(20);
    const uploads = new Set(sent.map((f) => Number(f.tx_time)));
    for (const tx of uploads) expect([22, 10]).toContain(new Date(tx).getUTCHours());
    expect(uploads.size).toBeGreaterThanOrEqual(1);
    expect(await workStatus(imei)).toMatchObject({ DataPostbackMode: 'HOUR', Realtime: false, AccFrequencyHz: 25, AccIntervalMinutes: 30 });
  }, 120_000);

  it('takes a device-side fence rule from an answer and acknowledges it (the console shows it synchronized); a deleted fence is dropped', async () => {
    const { imei, live } = await device('deer', 5);
    await run(live, T0 + HOUR);
    const created = await t.call(
      calls.CreateFence.path,
      {
        label: 'On-board marsh', shape: { Type: 'Circle', Center: [121.05, 31.05], Radius: 800 }, inOrOut: 'ENTER', ruleType: 2, imeis: [imei],
        collection: { Mode: 'INTERVAL', IntervalMinutes: 5 }, postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512 }, timeZone: '+08:00',
      },
      { token },
    );
    expect(created.body.Code, JSON.stringify(created.body)).toBe(Code.Success);
    const fence = calls.CreateFence.data.parse(created.body.Data);
    const synchronized = async () => {
      const { body } = await t.call(calls.GetRuleListByType.path, { fenceId: fence.IdStr, type: 2 }, { token });
      return (body.Data as { List: FenceRule[] }).List.map((r) => [r.IMEI, r.Synchronized]);
    };
    expect(await synchronized()).toEqual([[imei, 0]]);
    let taken: WakeResult['fences'] = [];
    for (let at = live.sim.clock + 30 * MINUTE; at <= T0 + 2 * HOUR; at += 30 * MINUTE) taken.push(...(await live.wake(at)).fences);
    expect(taken).toEqual([{ fenceId: fence.Id, version: 1, removed: false }]);
    expect(live.fences.get(fence.Id)).toMatchObject({ version: 1, removed: false, inOrOut: 'ENTER', instrs: [{ Type: 'ACQUISITION_FREQUENCY' }, { Type: 'POSTBACK_FREQUENCY' }] });
    expect(await synchronized()).toEqual([[imei, 1]]);

    expect((await t.call(calls.DeleteFence.path, { fenceId: fence.IdStr }, { token })).body.Code).toBe(Code.Success);
    taken = [];
    for (let at = live.sim.clock + 30 * MINUTE; at <= T0 + 3 * HOUR; at += 30 * MINUTE) taken.push(...(await live.wake(at)).fences);
    expect(taken).toMatchObject([{ fenceId: fence.Id, removed: true }]);
    expect(live.fences.has(fence.Id)).toBe(false);
    const removals = await t.database.db.selectFrom('fence_removals').select('id').where('fence_id', '=', fence.Id).execute();
    expect(removals).toEqual([]);
  }, 120_000);

  it('a value out of the device\'s range is acknowledged FAILED with its reason, and the schedule stays', async () => {
    const { id: deviceId, imei, live } = await device('deer', 3);
    await run(live, T0 + 4 * HOUR);
    // The server takes 1..1440 minutes; this collar fixes every 5 minutes at most.
    const id = await send(imei, { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 2 } });
    const applied = await run(live, T0 + 10 * HOUR, id);
    expect(applied).toBeDefined();
    expect(await instruction(id)).toMatchObject({ status: 'FAILED', error_message: "GNSS.IntervalMinutes 2 is out of this device's range: its fixes at least 5 min apart" });
    expect(new Set(gaps(await fixTimes(deviceId)))).toEqual(new Set([30]));
    expect(await workStatus(imei)).toMatchObject({ Known: true, IntervalMinutes: 30, AccEnabled: true });
  }, 120_000);

  it('voltage-adaptive high (128): the stored fixes are spaced by the level of the voltage stored with them', async () => {
    // 50 Hz bursts every minute drain the solar tag overnight, so the battery passes through its levels. A
    // seed whose tag does so in this run's hours (on whatever date it runs) is found by running it alone.
    const params = { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'ADAPTIVE_HIGH', High: 5, Medium: 15, Low: 60 }, ACC: { Mode: 'INTERVAL', FrequencyHz: 50, IntervalMinutes: 1 } } as const;
    const seed = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].find((s) => {
      const alone = createDevice('stork', { seed: s, start: T0 });
      alone.advance(T0 + HOUR);
      alone.applyInstruction({ type: params.Type, params, timeZone: '+08:00' });
      return new Set(alone.advance(T0 + 30 * HOUR).batch.fixes!.voltage!.map((v) => batteryLevel(alone.profile, v!))).size >= 2;
    });
    expect(seed).toBeDefined();
    const { id: deviceId, imei, live } = await device('stork', seed!);
    await run(live, T0 + HOUR);
    const id = await send(imei, params);
    const applied = (await run(live, T0 + 30 * HOUR, id))!;
    expect((await instruction(id)).status).toBe('SUCCESSFUL');
    expect(await workStatus(imei)).toMatchObject({ Known: true, GNSSCollectionMode: 128, HighFrequencyIntervals: { High: 5, Medium: 15, Low: 60 }, AccFollowGNSS: false, AccFrequencyHz: 50, AccIntervalMinutes: 1 });
    const rows = await t.database.db.selectFrom('fixes').select(['pick_time', 'voltage']).where('device_id', '=', deviceId).where('pick_time', '>', applied).orderBy('pick_time').execute();
    const minute = rows.map((r) => Math.floor(Number(r.pick_time) / MINUTE));
    const want = { High: 5, Medium: 15, Low: 60 };
    const seen = new Set<string>();
    let checked = 0;
    for (let i = 1; i + 2 < rows.length; i++) {
      // Second-level fixes (10 in a minute) come on their own clock: skip the gaps around them.
      if (minute[i] === minute[i - 1] || minute[i] === minute[i + 1] || minute[i + 1] === minute[i + 2]) continue;
      const level = batteryLevel(live.sim.profile, Number(rows[i]!.voltage));
      seen.add(level);
      expect(minute[i + 1]).toBe((Math.floor(minute[i]! / want[level]) + 1) * want[level]);
      checked++;
    }
    expect(seen.size).toBeGreaterThanOrEqual(2);
    expect(checked).toBeGreaterThan(100);
  }, 240_000);

  /** A collar seed whose outage starts 3-12 h into the run, lasts 4 h or more and ends before 26 h. */
  function outageSeed(): { seed: number; from: number; to: number } {
    const spec = getProfile('deer').coverage;
    for (let seed = 1; seed < 500; seed++) {
      const c = new Coverage(seed, spec);
      for (let d = Math.floor(T0 / DAY) - 1; d <= Math.floor(T0 / DAY) + 1; d++) {
        const o = c.outage(d);
        if (o && o[0] >= T0 + 3 * HOUR && o[0] <= T0 + 12 * HOUR && o[1] - o[0] >= 4 * HOUR && o[1] <= T0 + 26 * HOUR) return { seed, from: o[0], to: o[1] };
      }
    }
    throw new Error('no collar seed with an outage in the run');
  }

  it('out of coverage but within a receiver station\'s range, the collar uploads and answers through it: the instruction names the relay', async () => {
    const { seed, from, to } = outageSeed();
    const station = await t.services.devices.register({ orgId, imei: `86451209${dialect === 'sqlite' ? 1 : 2}${String(++serial).padStart(6, '0')}`, type: getProfile('vhf').type });
    // The station stands in the collar's home range (Hunchun) and hears it within 20 km.
    const { id: deviceId, imei, live } = await device('deer', seed, true, [{ imei: station.imei, position: () => ({ lon: 130.95, lat: 43.08 }), rangeKm: 20 }]);
    await run(live, from + 30 * MINUTE);
    expect(live.sim.covered(live.sim.clock)).toBe(false);
    const id = await send(imei, { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 } });
    const sentAt = live.sim.clock;
    const applied = (await run(live, to - 30 * MINUTE, id))!;
    // Fetched at the next wake-up, through the station.
    expect(applied).toBe(sentAt + 30 * MINUTE);
    expect(await instruction(id)).toMatchObject({ status: 'SUCCESSFUL', relay_device_id: station.id });
    // The outage's fixes arrived through the station, before the collar was back in coverage.
    const fixes = (await fixTimes(deviceId)).filter((x) => x > applied && x < to - 30 * MINUTE);
    expect(fixes.length).toBeGreaterThan(12);
    expect(new Set(gaps(fixes))).toEqual(new Set([10]));
  }, 120_000);

  it('a device out of coverage fetches nothing: its instruction stays SENT until the COMM_ERROR job marks it, and is never applied', async () => {
    const { from, to, seed } = outageSeed();
    const { id: deviceId, imei, live } = await device('deer', seed, true);
    await run(live, from + 30 * MINUTE);
    expect(live.sim.covered(live.sim.clock)).toBe(false);
    const id = await send(imei, { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 } });
    expect(await run(live, to - 30 * MINUTE, id)).toBeUndefined();
    expect(await instruction(id)).toMatchObject({ status: 'SENT', delivered_at: null });
    // Nothing arrived during the outage: the last stored fix is from before it.
    expect(Math.max(...(await fixTimes(deviceId)))).toBeLessThan(from);
    // The job's pass, a day on: the device's postback window and the margin are long over.
    await t.services.instructions.markCommErrors(Date.now() + DAY);
    expect((await instruction(id)).status).toBe('COMM_ERROR');
    // Back in coverage: what the collar kept arrives, and the instruction is no longer handed to it.
    expect(await run(live, to + 4 * HOUR, id)).toBeUndefined();
    expect(live.handled.size).toBe(0);
    const fixes = await fixTimes(deviceId);
    expect(fixes.filter((x) => x >= from && x < to).length).toBeGreaterThan(6);
    expect(new Set(gaps(fixes))).toEqual(new Set([30]));
  }, 120_000);
});
