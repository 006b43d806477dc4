import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';
import { claimNonce, markTrackDaysStale, SqliteSharedWrites, touchLastWork } from './shared-writes.js';
import { DAY_MS, fixDays } from '../domain/track-days.js';

const T0 = Date.UTC(2025, 5, 1);
const DAY0 = T0 / DAY_MS;

describe('fixDays', () => {
  it('gives the distinct UTC days of the times, ascending', () => {
    expect(fixDays([T0 + 2 * DAY_MS + 5, T0 - 1, T0, T0 + 10, T0 + 2 * DAY_MS])).toEqual([DAY0 - 1, DAY0, DAY0 + 2]);
    expect(fixDays([])).toEqual([]);
  });
});

/**
 * Every shared write in each of its forms: on Kysely (each dialect) and, on SQLite, as the prepared
 * statements of the ingest fast path. Both forms must leave the same rows.
 */
describe.each(DIALECTS)('shared writes on %s', (dialect) => {
  let t: TestApp;
  const db = () => t.database.db;
  type Writes = {
    stale: (deviceId: number, days: number[]) => Promise<void>;
    nonce: (deviceId: number, nonce: string, now: number) => Promise<boolean>;
    touch: (deviceId: number, time: number, voltage?: number | null) => Promise<void>;
  };
  const forms: [string, () => Writes][] = [
    ['kysely', () => ({ stale: (d, days) => markTrackDaysStale(db(), d, days), nonce: (d, n, now) => claimNonce(db(), d, n, now), touch: (d, time, v) => touchLastWork(db(), d, time, v) })],
  ];
  if (dialect === 'sqlite') {
    forms.push([
      'sqlite statements',
      () => {
        const s = new SqliteSharedWrites(t.database.sqlite!);
        return { stale: async (d, days) => s.markTrackDaysStale(d, days), nonce: async (d, n, now) => s.claimNonce(d, n, now), touch: async (d, time, v) => s.touchLastWork(d, time, v) };
      },
    ]);
  }

  let orgId: number;
  let imeis = 0;
  const newDevice = async (): Promise<number> => {
    const r = await db()
      .insertInto('devices')
      .values({ org_id: orgId, folder_id: null, imei: `shared-writes-${++imeis}`, type: 1, caption: 'd', status: 1, secret: 's', effective_time: null, failure_time: null, last_work_time: null, last_voltage: null, created_at: T0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  };
  const device = (id: number) => db().selectFrom('devices').select(['last_work_time', 'last_voltage']).where('id', '=', id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const r = await db().insertInto('organisations').values({ name: 'Shared writes', parent_unit: '', created_at: T0 }).returning('id').executeTakeFirstOrThrow();
    orgId = Number(r.id);
  });
  afterAll(async () => t.close());

  describe.each(forms)('%s', (_name, make) => {
    it('marks the days stale: their segments and summaries deleted, the days queued once; other days and devices untouched', async () => {
      const w = make();
      const [a, b] = [await newDevice(), await newDevice()];
      const segment = (device_id: number, day: number) => ({ device_id, day, point_count: 1, data: new Uint8Array([1]) });
      await db().insertInto('track_segments').values([segment(a, DAY0), segment(a, DAY0 + 1), segment(a, DAY0 + 3), segment(b, DAY0)]).execute();
      await db().insertInto('track_segment_dirty').values({ device_id: a, day: DAY0 }).execute();
      const summary = (device_id: number, day: number) => ({ device_id, day, group_count: 1, data: new Uint8Array([1]) });
      await db().insertInto('fix_group_days').values([summary(a, DAY0), summary(a, DAY0 + 1), summary(a, DAY0 + 3), summary(b, DAY0)]).execute();

      await w.stale(a, [DAY0, DAY0 + 3]);

      const segments = await db().selectFrom('track_segments').select(['device_id', 'day']).where('device_id', 'in', [a, b]).orderBy('device_id').orderBy('day').execute();
      expect(segments.map((s) => [Number(s.device_id), Number(s.day)])).toEqual([[a, DAY0 + 1], [b, DAY0]]);
      const summaries = await db().selectFrom('fix_group_days').select(['device_id', 'day']).where('device_id', 'in', [a, b]).orderBy('device_id').orderBy('day').execute();
      expect(summaries.map((s) => [Number(s.device_id), Number(s.day)])).toEqual([[a, DAY0 + 1], [b, DAY0]]);
      const dirty = await db().selectFrom('track_segment_dirty').select(['device_id', 'day']).where('device_id', 'in', [a, b]).orderBy('day').execute();
      expect(dirty.map((s) => [Number(s.device_id), Number(s.day)])).toEqual([[a, DAY0], [a, DAY0 + 3]]);
    });

    it('claims a nonce once per device', async () => {
      const w = make();
      const [a, b] = [await newDevice(), await newDevice()];
      expect(await w.nonce(a, 'n-1', T0)).toBe(true);
      expect(await w.nonce(a, 'n-1', T0 + 1)).toBe(false);
      expect(await w.nonce(b, 'n-1', T0)).toBe(true);
      const rows = await db().selectFrom('ingest_nonces').select('received_at').where('device_id', '=', a).execute();
      expect(rows.map((r) => Number(r.received_at))).toEqual([T0]);
    });

    it('moves the last-work time forward only, keeping the last voltage when none came', async () => {
      const w = make();
      const a = await newDevice();
      await w.touch(a, T0 + 100, 3.9);
      expect(await device(a)).toEqual({ last_work_time: T0 + 100, last_voltage: 3.9 });
      await w.touch(a, T0 + 50, 3.5);
      expect(await device(a)).toEqual({ last_work_time: T0 + 100, last_voltage: 3.9 });
      await w.touch(a, T0 + 200);
      expect(await device(a)).toEqual({ last_work_time: T0 + 200, last_voltage: 3.9 });
      await w.touch(a, T0 + 200, 3.7);
      expect(await device(a)).toEqual({ last_work_time: T0 + 200, last_voltage: 3.7 });
    });
  });
});
