import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceStatus, DeviceType, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { useFixedClock } from '../../test/clock.js';
import { FenceEvaluator } from './evaluator.js';
import { fenceGeometry } from './geometry.js';
import { ImportedShapes } from './packed-shapes.js';
import { FenceRepository, type FenceValues, type StagedImport } from './repository.js';
import { fenceValues } from './service.js';

/** 2026-11-20 10:00 in +08:00. */
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);
const HOUR = 3_600_000;

/** A star of n vertices around [lng, lat] (~150 kB of JSON for 5,000): a shapefile import's large ring. */
const star = (lng: number, lat: number, n: number): [number, number][] => {
  const ring = Array.from({ length: n }, (_, i): [number, number] => {
    const a = (2 * Math.PI * i) / n;
    const r = 0.01 * (1 + 0.3 * Math.sin(i * 7));
    return [lng + r * Math.cos(a), lat + r * Math.sin(a)];
  });
  return [...ring, ring[0]!];
};
const settings = { inOrOut: 'BOTH', ruleType: 1, enabled: 1, allowSendInstr: 1, imeis: ['W-ONE'], collection: { Mode: 'INTERVAL', IntervalMinutes: 5 }, postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512 } } as const;

/**
 * A shapefile import's writes (issue 26 H4): the fences go a few at a time with turns of the event loop
 * between, unseen until one short transaction switches the whole import on; a failure leaves nothing.
 */
describe.each(DIALECTS)("a shapefile import's writes on %s", (dialect) => {
  let t: TestApp;
  let repo: FenceRepository;
  let orgId: number;
  let userId: number;
  let deviceId: number;
  // 12 rings of 5,000 vertices, packed as the worker hands them over
  const shapes = ImportedShapes.of(Array.from({ length: 12 }, (_, i) => fenceGeometry({ Type: 'Polygon', Coordinates: star(100 + i * 0.05, 10, 5000) })));
  const values = (i: number): FenceValues => fenceValues(`Parks ${i + 1}`, shapes.at(i), settings as never, '+08:00');
  const items = (over: Partial<StagedImport> = {}): StagedImport => ({ count: shapes.length, values, ...over });
  const count = async (table: 'fences' | 'fence_rules' | 'fence_staging') =>
    Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const listed = async () => (await repo.list([orgId], '', 0, 500)).total;

  /**
   * Runs `work` while a setImmediate ticker takes turns of the event loop; at a turn with no read under way it
   * asks what another call would see (the organisation's fence list). Answers the turns taken and each count seen.
   */
  const withTicker = async <T>(work: () => Promise<T>) => {
    const seen: number[] = [];
    let turns = 0;
    let running = true;
    let reading: Promise<void> | null = null;
    const tick = () => {
      if (!running) return;
      turns += 1;
      reading ??= listed().then((n) => {
        seen.push(n);
        reading = null;
      });
      setImmediate(tick);
    };
    setImmediate(tick);
    const out = await work();
    running = false;
    await reading;
    seen.push(await listed());
    return { out, turns, seen };
  };

  beforeAll(async () => {
    useFixedClock(T0);
    t = await createTestApp(dialect);
    await t.userWithToken({ org: 'Wetland Lab' });
    orgId = await t.services.devices.orgIdByName('Wetland Lab');
    userId = Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', orgId).executeTakeFirstOrThrow()).id);
    const r = await t.services.devices.register({ orgId, imei: 'W-ONE', caption: 'W-ONE', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'], instrSupport: [] });
    deviceId = Number(r.id);
    repo = new FenceRepository(t.database.db);
  });
  afterAll(async () => {
    await t.close();
  });

  it('writes the fences a few at a time with turns of the event loop between, unseen until they are all switched on with their rules', async () => {
    const before = { fences: await count('fences'), rules: await count('fence_rules') };
    const { out: ids, turns, seen } = await withTicker(() => repo.importFences(orgId, userId, items(), [deviceId], 1, T0));
    expect(ids).toHaveLength(12);
    // ~1.8 MB of rings in chunks of 256 kB: at least one turn between chunks (none on SQLite when one
    // transaction wrote them all: see the last case)
    expect(turns).toBeGreaterThanOrEqual(6);
    // another call saw none of them, then all: never a part
    expect(seen.every((n) => n === 0 || n === 12), seen.join(' ')).toBe(true);
    expect(await listed()).toBe(12);
    expect({ fences: await count('fences'), rules: await count('fence_rules'), staging: await count('fence_staging') }).toEqual({ fences: before.fences + 12, rules: before.rules + 12, staging: 0 });
    const rows = await repo.list([orgId], 'Parks 3', 0, 10);
    expect(rows.rows.map((r) => [r.label, JSON.parse(r.shape)])).toEqual([['Parks 3', JSON.parse(shapes.at(2).shape)]]);
    expect((await repo.rules(ids)).map((r) => r.device_id)).toEqual(ids.map(() => deviceId));
    await t.database.db.deleteFrom('fences').where('id', 'in', ids).execute();
  });

  it('leaves nothing when the import fails on the way (a shape that cannot be written after two chunks were)', async () => {
    const before = { fences: await count('fences'), rules: await count('fence_rules'), staging: await count('fence_staging') };
    const failing = items({
      values: (i) => {
        if (i === 7) throw new Error('shape 8 unreadable');
        return values(i);
      },
    });
    await expect(repo.importFences(orgId, userId, failing, [deviceId], 1, T0)).rejects.toThrow('shape 8 unreadable');
    expect({ fences: await count('fences'), rules: await count('fence_rules'), staging: await count('fence_staging') }).toEqual(before);
    expect(await listed()).toBe(0);
  });

  it("keeps staged fences out of every read, and the next import deletes those a stopped server left (an hour old), not another import's", async () => {
    const stage = async (label: string, at: number) => {
      const v = values(0);
      const r = await t.database.db
        .insertInto('fences')
        .values({ label, type: v.type, shape: v.shape, min_lng: v.bbox[0], min_lat: v.bbox[1], max_lng: v.bbox[2], max_lat: v.bbox[3], area: v.area, enabled: 1, in_or_out: 'BOTH', rule_type: 1, allow_send_instr: 1, instrs: v.instrs, time_zone: '+08:00', org_id: orgId, created_by: userId, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await t.database.db.insertInto('fence_staging').values({ fence_id: Number(r.id), staged_at: at }).execute();
      return Number(r.id);
    };
    const generation = await repo.generation();
    const left = await stage('left by a stopped server', T0 - 2 * HOUR);
    const running = await stage('another import under way', T0 - 60_000);
    expect(await repo.generation()).toBe(generation);
    expect(await listed()).toBe(0);
    expect(await repo.get(left)).toBeUndefined();
    expect((await repo.liveFences()).fences.map((f) => f.id)).toEqual([]);
    expect(await repo.fencesOfDevice(deviceId, 'all')).toEqual([]);

    const ids = await repo.importFences(orgId, userId, items({ count: 2 }), [deviceId], 1, T0);
    const remaining = (await t.database.db.selectFrom('fences').select('id').where('org_id', '=', orgId).orderBy('id').execute()).map((r) => Number(r.id));
    expect(remaining).toEqual([running, ...ids]);
    expect((await t.database.db.selectFrom('fence_staging').select('fence_id').execute()).map((r) => Number(r.fence_id))).toEqual([running]);
    expect(await listed()).toBe(2);
    await t.database.db.deleteFrom('fences').where('id', 'in', [running, ...ids]).execute();
  });

  it("builds ingest's fence index after an import a few shapes at a time, with turns of the event loop between", async () => {
    const ids = await repo.importFences(orgId, userId, items(), [deviceId], 1, T0);
    const evaluator = new FenceEvaluator(new FenceRepository(t.database.db, t.database.sqlite));
    // the next batch of the device builds the index (12 remote fences of ~150 kB, parsed and compiled)
    const { turns } = await withTicker(async () => evaluator.plan(deviceId, [{ pick_time: T0, lon: 0, lat: 0, valid: 1 }], T0));
    // before: no turn on SQLite (its queries and the whole parse ran in one go at the batch)
    expect(turns).toBeGreaterThanOrEqual(4);
    await t.database.db.deleteFrom('fences').where('id', 'in', ids).execute();
  });

  it('on SQLite, where every query runs on the event loop: one transaction writing the same fences (the save of a form) gives the loop no turn', async () => {
    if (dialect !== 'sqlite') return;
    const { out: ids, turns } = await withTicker(() => repo.save(orgId, userId, Array.from({ length: shapes.length }, (_, i) => ({ values: values(i), deviceIds: [deviceId] })), T0));
    // what a shapefile import did before importFences: the ticker never ran while the ~1.8 MB were written
    expect(turns).toBe(0);
    await t.database.db.deleteFrom('fences').where('id', 'in', ids).execute();
  });
});
