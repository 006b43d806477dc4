import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { DeviceStatus, DeviceType, type FenceSettings, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { down, up } from '../../db/migrations/2026-11-26T01-00-00_fence_crossing_writes.js';
import { FenceRepository } from './repository.js';
import { fenceValues } from './service.js';

const T = Date.UTC(2026, 10, 20, 2, 0, 0);
const SQUARE: [number, number][] = [[121, 31], [121.1, 31], [121.1, 31.1], [121, 31.1]];

/** Migration 2026-11-26T01-00-00_fence_crossing_writes on a database that holds states and events from before it. */
describe.each(DIALECTS)('fence crossing writes migration on %s', (dialect) => {
  let t: TestApp;
  let device: number;
  let fence: number;

  beforeAll(async () => {
    t = await createTestApp(dialect);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  const db = () => t.database.db;
  const states = async () =>
    (await db().selectFrom('fence_states').select(['fence_id', 'device_id', 'inside', 'fix_time']).orderBy('fence_id').execute()).map((r) => [Number(r.fence_id), Number(r.device_id), Number(r.inside), Number(r.fix_time)]);
  const events = async () => (await db().selectFrom('events').select(['type', 'dedup_key']).where('device_id', '=', device).orderBy('id').execute()).map((r) => [Number(r.type), r.dedup_key]);
  const insertEvent = (type: number, key: string | null) => db().insertInto('events').values({ device_id: device, type, happen_time: T, content: '{}', dedup_key: key }).execute();

  it('keeps every state and event, makes the dedup index partial and (SQLite) the states clustered by their key', async () => {
    await t.userWithToken({ org: 'Migrated Lab' });
    const orgId = (await t.services.devices.orgIdByName('Migrated Lab'))!;
    device = Number((await t.services.devices.register({ orgId, imei: 'M-ONE', caption: 'M-ONE', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'], instrSupport: [] })).id);
    const settings: FenceSettings = {
      enabled: 1, inOrOut: 'BOTH', ruleType: 1, allowSendInstr: 0, imeis: ['M-ONE'],
      collection: { Mode: 'INTERVAL', IntervalMinutes: 5 }, postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512, Realtime: false }, timeZone: '+00:00',
    };
    const ids = await new FenceRepository(db()).save(orgId, null, [1, 2].map((k) => ({ values: fenceValues(`M${k}`, { Type: 'Polygon', Coordinates: SQUARE }, settings, '+00:00'), deviceIds: [device] })), T);
    fence = ids[0]!;

    // the database as it was before the migration, with what it held
    await down(db());
    await db().insertInto('fence_states').values([{ fence_id: ids[0]!, device_id: device, inside: 1, fix_time: T - 5000 }, { fence_id: ids[1]!, device_id: device, inside: 0, fix_time: T - 7000 }]).execute();
    await insertEvent(1, null);
    await insertEvent(1, null);
    await insertEvent(3, 'silent:1');
    const before = { states: await states(), events: await events() };
    expect(before.states).toHaveLength(2);

    await up(db());
    expect(await states()).toEqual(before.states);
    expect(await events()).toEqual(before.events);
    // a keyed event is still one per device and key; events without a key are not in the index
    await expect(insertEvent(3, 'silent:1')).rejects.toThrow();
    await insertEvent(1, null);
    expect((await events()).filter(([, k]) => k === null)).toHaveLength(3);
    if (dialect === 'sqlite') {
      const def = (name: string) => String((t.database.sqlite!.prepare('select sql from sqlite_master where name = ?').get(name) as { sql: string }).sql).toLowerCase();
      expect(def('fence_states')).toContain('without rowid');
      expect(def('events_device_dedup_idx')).toMatch(/where\s+"?dedup_key"? is not null/);
    } else {
      const r = await sql<{ indexdef: string }>`select indexdef from pg_indexes where indexname = 'events_device_dedup_idx' and schemaname = current_schema()`.execute(db());
      expect(r.rows[0]!.indexdef.toLowerCase()).toContain('where (dedup_key is not null)');
    }
    // the states' foreign keys came along: a fence deleted takes its states
    await db().deleteFrom('fence_rules').where('fence_id', '=', fence).execute();
    await db().deleteFrom('fences').where('id', '=', fence).execute();
    expect((await states()).map((s) => s[0])).toEqual([ids[1]]);
  });

  it('goes back down and up again', async () => {
    await down(db());
    await insertEvent(1, null);
    await up(db());
    expect((await events()).length).toBeGreaterThan(0);
  });
});
