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

/**
 * An instruction's status change as an event of type Instr (§3 Event, EventType.Instr = 2): written by the
 * console's calls (sent, withdrawn), ingest (the device's acknowledgement) and the COMM_ERROR job, in the
 * same transaction as the change. `content` is what the event list puts into words in the reader's
 * language: the instruction's type, its new status and the device's error message when it failed.
 */
export async function recordInstructionEvent(
  db: Kysely<Database>,
  e: { deviceId: number; instructionId: number; type: string; status: string; error?: string | null; reason?: string | undefined; at: number },
): Promise<void> {
  const content = JSON.stringify({ instrType: e.type, status: e.status, ...(e.error ? { error: e.error } : {}), ...(e.reason ? { reason: e.reason } : {}) });
  await db.insertInto('events').values({ device_id: e.deviceId, type: 2, happen_time: e.at, instruction_id: e.instructionId, content }).execute();
}

/** A device's stored work status (device_work_status: settings JSON, hours in UTC, and when it held). */
export async function workStatusRow(db: Kysely<Database>, deviceId: number): Promise<{ settings: string; at: number } | undefined> {
  const r = await db.selectFrom('device_work_status').select(['settings', 'updated_at']).where('device_id', '=', deviceId).executeTakeFirst();
  return r ? { settings: r.settings, at: Number(r.updated_at) } : undefined;
}

/**
 * Stores a device's work status as it held at `at` (its own report in a batch, a SUCCESSFUL instruction, the
 * sample fleet), unless a newer one is stored: a report that arrives late does not undo a later change.
 */
export async function storeWorkStatus(db: Kysely<Database>, deviceId: number, settings: string, at: number): Promise<boolean> {
  const r = await db
    .insertInto('device_work_status')
    .values({ device_id: deviceId, settings, updated_at: at })
    .onConflict((oc) => oc.column('device_id').doUpdateSet({ settings, updated_at: at }).where('device_work_status.updated_at', '<=', at))
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
}
