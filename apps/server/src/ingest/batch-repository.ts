import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.js';
import type { Database } from '../db/schema.js';
import { claimNonce, markTrackDaysStale, SqliteSharedWrites, touchLastWork } from '../db/shared-writes.js';
import { fixDays } from '../domain/track-days.js';
import { deviceBefore, recordDeviceEvents, SqliteEventWrites } from '../db/event-writes.js';
import { announceEvents, type BatchTimes, detectBatchEvents, type StoredEvent } from '../domain/device-events.js';
import type { BurstRow, DecodedBatch, FixRow, SensorRow } from './decode.js';
import { Replayed } from './errors.js';
import { SqliteFieldWrites, writeFieldPostgres } from './field-writes.js';

export interface WriteCounts {
  fixes: number;
  sensors: number;
  bursts: number;
  /** Field records stored (phones; absent when the batch carried none). */
  pois?: number;
  behaviors?: number;
  duplicates: number;
}

const FIX_COLUMNS = [
  'device_id', 'pick_time', 'lon', 'lat', 'alt', 'speed', 'course', 'temperature', 'activity', 'voltage', 'channel',
  'satellites', 'hdop', 'vdop', 'grade', 'valid', 'tx_time', 'received_at', 'invalid_at', 'extra',
] as const;
const SENSOR_COLUMNS = ['device_id', 'kind', 'time', 'v1', 'v2', 'v3', 'v4', 'received_at'] as const;
const BURST_COLUMNS = ['device_id', 'start_time', 'hz', 'axes', 'sample_count', 'samples', 'odba', 'mean_odba', 'calibration', 'received_at', 'extra', 'encoding'] as const;

const insertSql = (table: string, cols: readonly string[]) =>
  `insert or ignore into ${table} (${cols.join(', ')}) values (${cols.map(() => '?').join(', ')})`;

/** Fixes per multi-row insert on SQLite: one run for 50 rows takes 0.6 of 50 runs (measured, 1,000-fix batches). */
const FIX_CHUNK = 50;

interface SqliteStatements {
  fix: SQLite.Statement;
  fixChunk: SQLite.Statement;
  sensor: SQLite.Statement;
  burst: SQLite.Statement;
  shared: SqliteSharedWrites;
  field: SqliteFieldWrites;
  events: SqliteEventWrites;
}

/**
 * Writes a batch makes in its own transaction after its records, when it stored new fixes (the fence
 * states and Fence events: modules/fence/evaluator.ts). A throw rolls the whole batch back.
 */
export interface InBatch {
  /** SQLite: inside better-sqlite3's synchronous transaction. */
  sqlite(): void;
  /** PostgreSQL: in the batch's transaction. */
  postgres(trx: Kysely<Database>): Promise<void>;
}

/**
 * The write side of the records devices send (fixes, sensor records, bursts). One batch is one
 * transaction: the nonce, every record, the stale track days and the device's last-work time commit
 * together or not at all, so an acknowledged batch is durable and a refused one leaves nothing. A record already stored (same device, kind and time) is skipped
 * and counted as a duplicate.
 */
export class BatchRepository {
  private readonly db: Kysely<Database>;
  private stmts: SqliteStatements | undefined;
  private readonly fixArgs: unknown[] = new Array(FIX_CHUNK * FIX_COLUMNS.length);

  constructor(private readonly database: Db) {
    this.db = database.db;
  }

  /** `inBatch`: more writes in the batch's own transaction, after its records (the fence states and events). */
  async write(deviceId: number, batch: DecodedBatch, nonce: string | null, now: number, inBatch?: InBatch): Promise<WriteCounts> {
    return this.database.sqlite ? this.writeSqlite(this.database.sqlite, deviceId, batch, nonce, now, inBatch) : this.writePostgres(deviceId, batch, nonce, now, inBatch);
  }

  private statements(sqlite: SQLite.Database): SqliteStatements {
    this.stmts ??= {
      fix: sqlite.prepare(insertSql('fixes', FIX_COLUMNS)),
      fixChunk: sqlite.prepare(
        `${insertSql('fixes', FIX_COLUMNS)}${`, (${FIX_COLUMNS.map(() => '?').join(', ')})`.repeat(FIX_CHUNK - 1)}`,
      ),
      sensor: sqlite.prepare(insertSql('sensor_records', SENSOR_COLUMNS)),
      burst: sqlite.prepare(insertSql('acc_bursts', BURST_COLUMNS)),
      shared: new SqliteSharedWrites(sqlite),
      field: new SqliteFieldWrites(sqlite),
      events: new SqliteEventWrites(sqlite),
    };
    return this.stmts;
  }

  private async writeSqlite(sqlite: SQLite.Database, deviceId: number, b: DecodedBatch, nonce: string | null, now: number, inBatch?: InBatch): Promise<WriteCounts> {
    const s = this.statements(sqlite);
    const stored: StoredEvent[] = [];
    // Holding Kysely's connection keeps its queries from interleaving with this transaction.
    const counts = await this.db.connection().execute(async () =>
      sqlite.transaction((): WriteCounts => {
        if (nonce !== null && !s.shared.claimNonce(deviceId, nonce, now)) throw new Replayed();
        const c: WriteCounts = { fixes: 0, sensors: 0, bursts: 0, duplicates: 0 };
        // One parameter array, filled in place: building arrays per fix cost more than the inserts saved.
        const args = this.fixArgs;
        const put = (f: FixRow, k: number): number => {
          args[k++] = deviceId; args[k++] = f.pick_time; args[k++] = f.lon; args[k++] = f.lat; args[k++] = f.alt; args[k++] = f.speed;
          args[k++] = f.course; args[k++] = f.temperature; args[k++] = f.activity; args[k++] = f.voltage; args[k++] = f.channel;
          args[k++] = f.satellites; args[k++] = f.hdop; args[k++] = f.vdop; args[k++] = f.grade; args[k++] = f.valid; args[k++] = f.tx_time;
          args[k++] = now; args[k++] = f.invalid_at; args[k++] = f.extra;
          return k;
        };
        let i = 0;
        for (; i + FIX_CHUNK <= b.fixes.length; i += FIX_CHUNK) {
          let k = 0;
          for (let j = i; j < i + FIX_CHUNK; j++) k = put(b.fixes[j]!, k);
          c.fixes += s.fixChunk.run(args).changes;
        }
        for (; i < b.fixes.length; i++) {
          put(b.fixes[i]!, 0);
          c.fixes += s.fix.run(args.slice(0, FIX_COLUMNS.length)).changes;
        }
        for (const r of b.sensors) c.sensors += s.sensor.run(deviceId, r.kind, r.time, r.v1, r.v2, r.v3, r.v4, now).changes;
        for (const r of b.bursts) {
          c.bursts += s.burst.run(deviceId, r.start_time, r.hz, r.axes, r.sample_count, Buffer.from(r.samples), Buffer.from(r.odba), r.mean_odba,
            r.calibration, now, r.extra, r.encoding).changes;
        }
        c.duplicates = b.fixes.length + b.sensors.length + b.bursts.length - c.fixes - c.sensors - c.bursts;
        if (b.pois?.length || b.behaviors?.length) {
          const f = s.field.write(deviceId, b.pois ?? [], b.behaviors ?? [], now);
          Object.assign(c, f);
          c.duplicates += (b.pois?.length ?? 0) + (b.behaviors?.length ?? 0) - f.pois - f.behaviors;
        }
        if (c.fixes > 0) s.shared.markTrackDaysStale(deviceId, fixDays(pickTimes(b.fixes)));
        if (b.lastTime !== null) {
          // Events the batch makes (a silence ended, the battery low), read against the device as it was: one query a batch.
          const before = b.history ? undefined : s.events.deviceBefore(deviceId);
          if (before) s.events.record(deviceId, detectBatchEvents(before, batchTimes(b), now), stored);
          s.shared.touchLastWork(deviceId, b.lastTime, b.lastVoltage);
        }
        if (c.fixes > 0) inBatch?.sqlite();
        return c;
      })(),
    );
    announceEvents(stored);
    return counts;
  }

  private async writePostgres(deviceId: number, b: DecodedBatch, nonce: string | null, now: number, inBatch?: InBatch): Promise<WriteCounts> {
    let stored: StoredEvent[] = [];
    const counts = await this.db.transaction().execute(async (trx) => {
      if (nonce !== null && !(await claimNonce(trx, deviceId, nonce, now))) throw new Replayed();
      const c: WriteCounts = { fixes: 0, sensors: 0, bursts: 0, duplicates: 0 };
      c.fixes = await insertChunks(trx, 'fixes', b.fixes.map((f: FixRow) => ({ device_id: deviceId, received_at: now, invalid_by: null, ...f })), 2000);
      c.sensors = await insertChunks(trx, 'sensor_records', b.sensors.map((r: SensorRow) => ({ device_id: deviceId, received_at: now, ...r })), 5000);
      c.bursts = await insertChunks(trx, 'acc_bursts', b.bursts.map((r: BurstRow) => ({ device_id: deviceId, received_at: now, ...r })), 500);
      c.duplicates = b.fixes.length + b.sensors.length + b.bursts.length - c.fixes - c.sensors - c.bursts;
      if (b.pois?.length || b.behaviors?.length) {
        const f = await writeFieldPostgres(trx, deviceId, b.pois ?? [], b.behaviors ?? [], now);
        Object.assign(c, f);
        c.duplicates += (b.pois?.length ?? 0) + (b.behaviors?.length ?? 0) - f.pois - f.behaviors;
      }
      if (c.fixes > 0) await markTrackDaysStale(trx, deviceId, fixDays(pickTimes(b.fixes)));
      if (b.lastTime !== null) {
        const before = b.history ? undefined : await deviceBefore(trx, deviceId);
        if (before) stored = await recordDeviceEvents(trx, deviceId, detectBatchEvents(before, batchTimes(b), now));
        await touchLastWork(trx, deviceId, b.lastTime, b.lastVoltage);
      }
      if (c.fixes > 0) await inBatch?.postgres(trx);
      return c;
    });
    announceEvents(stored);
    return counts;
  }

}

/** The batch as event detection reads it: its newest time and voltage, and all its record times on demand. */
function batchTimes(b: DecodedBatch): BatchTimes {
  return {
    lastTime: b.lastTime,
    lastVoltage: b.lastVoltage,
    *times() {
      for (const f of b.fixes) yield f.pick_time;
      for (const r of b.sensors) yield r.time;
      for (const r of b.bursts) yield r.start_time;
      for (const p of b.pois ?? []) yield p.row.record_time;
      for (const x of b.behaviors ?? []) yield x.end_time;
    },
  };
}

function* pickTimes(fixes: readonly FixRow[]): Generator<number> {
  for (const f of fixes) yield f.pick_time;
}

async function insertChunks<T extends 'fixes' | 'sensor_records' | 'acc_bursts'>(
  trx: Kysely<Database>,
  table: T,
  rows: Parameters<ReturnType<Kysely<Database>['insertInto']>['values']>[0][],
  chunk: number,
): Promise<number> {
  let inserted = 0;
  for (let i = 0; i < rows.length; i += chunk) {
    const r = await trx
      .insertInto(table)
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      .values(rows.slice(i, i + chunk) as any)
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    inserted += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return inserted;
}
