import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commWindowMs, EventType, MediaKind, SensorKind, SensorFlag } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { DeviceRepository } from './repository.js';
import { createDevice, defaultSettings, sampleFleet } from '@wildtrack/sample-fleet';
import { ensureSampleDevices, SAMPLE_DAYS, sampleInstructionPlan } from './samples.js';

describe.each(DIALECTS)('sample (experience) devices on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('creates about six read-only example devices once, with history in every sensor kind and media type', async () => {
    const repo = new DeviceRepository(t.database.db);
    // A fixed 'now' (in the past): the fleet is made from 'now', and whether the deer's one video a day
    // falls inside a 2-day window depends on the hour (at 13:40 UTC today it did not: the test failed on
    // the clock, not on the code)
    const now = Date.UTC(2026, 10, 24, 10, 17);
    const report = await ensureSampleDevices(repo, t.services.devices, t.services.ingest, { now, days: 2, history: (e) => t.services.instructions.storeSampleHistory(e) });
    expect(report).not.toBeNull();
    expect(report!.devices).toBe(6);
    const devices = await t.database.db.selectFrom('devices').selectAll().execute();
    expect(devices).toHaveLength(6);
    expect(devices.every((d) => d.example === 1)).toBe(true);
    const org = await t.database.db.selectFrom('organisations').selectAll().where('is_samples', '=', 1).executeTakeFirstOrThrow();
    expect(devices.every((d) => Number(d.org_id) === Number(org.id))).toBe(true);

    const kinds = new Set((await t.database.db.selectFrom('sensor_records').select('kind').distinct().execute()).map((r) => r.kind));
    expect([...kinds].sort()).toEqual(Object.values(SensorKind).map((k) => k.id).sort());
    const media = new Set((await t.database.db.selectFrom('media_records').select('kind').distinct().execute()).map((r) => r.kind));
    expect([...media].sort()).toEqual(Object.values(MediaKind).sort());
    expect(Number((await t.database.db.selectFrom('acc_bursts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBeGreaterThan(100);
    // The field phone's ranger records behaviour observations as they patrol (POIs are rarer: a few a week).
    expect(Number((await t.database.db.selectFrom('behavior_records').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n)).toBeGreaterThan(5);
    // Every device that has GNSS has fixes inside the window, ending near now.
    for (const d of devices.filter((x) => (x.sensors & SensorFlag.GNSS) !== 0)) {
      const r = await t.database.db.selectFrom('fixes').select((eb) => [eb.fn.min('pick_time').as('first'), eb.fn.max('pick_time').as('last')]).where('device_id', '=', d.id).executeTakeFirstOrThrow();
      expect(Number(r.first), d.caption).toBeGreaterThanOrEqual(now - 2 * 24 * 3600_000);
      expect(now - Number(r.last), d.caption).toBeLessThan(12 * 3600_000);
    }
    // They were created reporting their work status, and with a history of instructions answered by the
    // simulated tags themselves: applied ones, one the stork refused with its message, one the seal never
    // fetched while out of coverage; an event for each status.
    expect(await t.database.db.selectFrom('device_work_status').select('device_id').execute()).toHaveLength(6);
    const instructions = await t.database.db.selectFrom('instructions').select(['status', 'error_message', 'execute_time', 'send_time']).execute();
    // (two days hold no outage of the seal as long as the server waits: its instruction is sent at the end,
    // still SENT; over the month a fresh start makes, one is found: see the plan's test below)
    expect(new Set(instructions.map((i) => i.status))).toEqual(new Set(['SUCCESSFUL', 'FAILED', 'SENT']));
    expect(instructions.find((i) => i.status === 'FAILED')!.error_message).not.toBe('');
    expect(instructions.find((i) => i.status === 'SENT')!.execute_time).toBeNull();
    for (const i of instructions.filter((x) => x.status === 'SUCCESSFUL')) expect(Number(i.execute_time)).toBeGreaterThan(Number(i.send_time));
    expect(Number((await t.database.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', EventType.Instr).executeTakeFirstOrThrow()).n)).toBe(2 * instructions.length - 1);
    expect(await ensureSampleDevices(repo, t.services.devices, t.services.ingest, { now, days: 2 })).toBeNull();
  });

  it("plans the sample month's instructions on the tags' coverage: the seal's postback change inside an outage longer than the server waits", () => {
    const now = Date.UTC(2026, 10, 24, 10, 17);
    const start = now - SAMPLE_DAYS * 24 * 3600_000;
    const fleet = sampleFleet();
    const seal = fleet[2]!;
    const plan = sampleInstructionPlan(seal, 2, start, now);
    expect(plan).toHaveLength(2);
    const probe = createDevice(seal.profile, { seed: seal.seed, start });
    const window = commWindowMs(defaultSettings(seal.profile));
    const mark = (t: number) => Math.ceil(t / 600_000) * 600_000;
    for (let t = mark(plan[0]!.sentAt); t <= plan[0]!.sentAt + window; t += 10 * 60_000) expect(probe.covered(t)).toBe(false);
    expect(probe.covered(mark(plan[1]!.sentAt))).toBe(true);
    expect(sampleInstructionPlan(fleet[0]!, 0, start, now).map((x) => x.params.Type)).toEqual(['ACQUISITION_FREQUENCY', 'POSTBACK_FREQUENCY']);
    expect(sampleInstructionPlan(fleet[3]!, 3, start, now)).toEqual([]);
  });

  it('made as of a fixed day, the history is the same on any date, shifted by whole days to end now', async () => {
    const asOf = Date.UTC(2026, 4, 20);
    const DAY = 24 * 3600_000;
    const runs: { now: number; track: string[] }[] = [];
    // Two "todays" seven weeks apart: the same positions at the same times of day, moved by 49 days.
    for (const now of [Date.UTC(2026, 10, 24, 10, 17), Date.UTC(2027, 0, 12, 10, 17)]) {
      const other = await createTestApp(dialect);
      try {
        await ensureSampleDevices(new DeviceRepository(other.database.db), other.services.devices, other.services.ingest, { now, days: 1, asOf });
        const stork = await other.database.db.selectFrom('devices').select('id').where('imei', '=', '864512040001173').executeTakeFirstOrThrow();
        const rows = await other.database.db.selectFrom('fixes').select(['pick_time', 'lon', 'lat']).where('device_id', '=', stork.id).orderBy('pick_time').execute();
        expect(rows.length).toBeGreaterThan(20);
        expect(now - Number(rows.at(-1)!.pick_time)).toBeLessThan(6 * 3600_000);
        expect(Number(rows[0]!.pick_time)).toBeGreaterThanOrEqual(now - DAY);
        runs.push({ now, track: rows.map((r) => `${(Number(r.pick_time) - now) / 1000} ${r.lon} ${r.lat}`) });
      } finally {
        await other.close();
      }
    }
    expect(runs[1]!.track).toEqual(runs[0]!.track);
  });
});
