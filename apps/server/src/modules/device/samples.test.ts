import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MediaKind, SensorKind, SensorFlag } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { DeviceRepository } from './repository.js';
import { ensureSampleDevices } from './samples.js';

describe.each(DIALECTS)('sample (experience) devices on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  it('creates about six read-only example devices once, with history in every sensor kind and media type', async () => {
    const repo = new DeviceRepository(t.database.db);
    const now = Date.now();
    const report = await ensureSampleDevices(repo, t.services.devices, t.services.ingest, { now, days: 2 });
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
    // Every device that has GNSS has fixes inside the window, ending near now.
    for (const d of devices.filter((x) => (x.sensors & SensorFlag.GNSS) !== 0)) {
      const r = await t.database.db.selectFrom('fixes').select((eb) => [eb.fn.min('pick_time').as('first'), eb.fn.max('pick_time').as('last')]).where('device_id', '=', d.id).executeTakeFirstOrThrow();
      expect(Number(r.first), d.caption).toBeGreaterThanOrEqual(now - 2 * 24 * 3600_000);
      expect(now - Number(r.last), d.caption).toBeLessThan(12 * 3600_000);
    }
    expect(await ensureSampleDevices(repo, t.services.devices, t.services.ingest, { now, days: 2 })).toBeNull();
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
