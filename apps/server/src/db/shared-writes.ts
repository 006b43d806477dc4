import type SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { Database } from './schema.js';

/**
 * The writes that more than one owner makes: device ingest, the Movebank import (through ingest) and the
 * console's fix calls. Each rule is written here once; the repositories that need it call it, so that no
 * module reads another module's repository (shared/CONVENTIONS.md 14) and no copy drifts.
 *
 * Each write comes in two forms with the same effect: on a Kysely handle (both dialects, inside a
 * Kysely transaction), and as prepared statements for a synchronous better-sqlite3 transaction (the
 * ingest fast path, which cannot await). shared-writes.test.ts holds the two forms to the same result.
 */

/** Track segments are built per UTC day. */
export const DAY_MS = 86_400_000;

/** The distinct UTC days these fix times fall on, in ascending order. */
export function fixDays(times: Iterable<number>): number[] {
  const days = new Set<number>();
  for (const t of times) days.add(Math.floor(t / DAY_MS));
  return [...days].sort((a, b) => a - b);
}

const DAYS_PER_STATEMENT = 500;

/**
 * Fixes were written or changed on these days: their track segments and averaged-table summaries are
 * stale (deleted, so that no reader gets an old one) and the days are queued for the background builder.
 */
export async function markTrackDaysStale(db: Kysely<Database>, deviceId: number, days: readonly number[]): Promise<void> {
  for (let i = 0; i < days.length; i += DAYS_PER_STATEMENT) {
    const chunk = days.slice(i, i + DAYS_PER_STATEMENT);
    await db.deleteFrom('track_segments').where('device_id', '=', deviceId).where('day', 'in', chunk).execute();
    await db.deleteFrom('fix_group_days').where('device_id', '=', deviceId).where('day', 'in', chunk).execute();
    await db
      .insertInto('track_segment_dirty')
      .values(chunk.map((day) => ({ device_id: deviceId, day })))
      .onConflict((oc) => oc.columns(['device_id', 'day']).doNothing())
      .execute();
  }
}

/** Claims a device request's nonce; false when it was used before (a replay: store nothing). */
export async function claimNonce(db: Kysely<Database>, deviceId: number, nonce: string, now: number): Promise<boolean> {
  const r = await db.insertInto('ingest_nonces').values({ device_id: deviceId, nonce, received_at: now }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}

/**
 * The device was heard from at `time`: its last-work time (and last voltage, when one came) moves
 * forward only, so a late batch of old records leaves a newer time alone.
 */
export async function touchLastWork(db: Kysely<Database>, deviceId: number, time: number, voltage: number | null = null): Promise<void> {
  await sql`update devices set last_work_time = ${time}, last_voltage = coalesce(${voltage}, last_voltage)
            where id = ${deviceId} and (last_work_time is null or last_work_time <= ${time})`.execute(db);
}

/** The same three writes as prepared statements, for a synchronous better-sqlite3 transaction. */
export class SqliteSharedWrites {
  private readonly deleteSegment: SQLite.Statement<[number, number]>;
  private readonly deleteGroups: SQLite.Statement<[number, number]>;
  private readonly insertDirty: SQLite.Statement<[number, number]>;
  private readonly insertNonce: SQLite.Statement<[number, string, number]>;
  private readonly updateLastWork: SQLite.Statement<[number, number | null, number, number]>;

  constructor(sqlite: SQLite.Database) {
    this.deleteSegment = sqlite.prepare('delete from track_segments where device_id = ? and day = ?');
    this.deleteGroups = sqlite.prepare('delete from fix_group_days where device_id = ? and day = ?');
    this.insertDirty = sqlite.prepare('insert or ignore into track_segment_dirty (device_id, day) values (?, ?)');
    this.insertNonce = sqlite.prepare('insert or ignore into ingest_nonces (device_id, nonce, received_at) values (?, ?, ?)');
    this.updateLastWork = sqlite.prepare(
      'update devices set last_work_time = ?, last_voltage = coalesce(?, last_voltage) where id = ? and (last_work_time is null or last_work_time <= ?)',
    );
  }

  markTrackDaysStale(deviceId: number, days: readonly number[]): void {
    for (const day of days) {
      this.deleteSegment.run(deviceId, day);
      this.deleteGroups.run(deviceId, day);
      this.insertDirty.run(deviceId, day);
    }
  }

  claimNonce(deviceId: number, nonce: string, now: number): boolean {
    return this.insertNonce.run(deviceId, nonce, now).changes > 0;
  }

  touchLastWork(deviceId: number, time: number, voltage: number | null = null): void {
    this.updateLastWork.run(time, voltage, deviceId, time);
  }
}
