import type { Kysely, Selectable } from 'kysely';
import type SQLite from 'better-sqlite3';
import { rawSqlite } from '../../db/connect.js';
import type { AccBurstTable, Database, EventTable, FixTable, SensorRecordTable } from '../../db/schema.js';

export type ExportFixRow = Selectable<FixTable>;
export type ExportSensorRow = Pick<Selectable<SensorRecordTable>, 'time' | 'v1' | 'v2' | 'v3' | 'v4'>;
export type ExportBurstRow = Pick<Selectable<AccBurstTable>, 'start_time' | 'hz' | 'axes' | 'sample_count' | 'samples' | 'odba' | 'mean_odba' | 'calibration' | 'extra'> & { encoding: number };
export type ExportEventRow = Pick<Selectable<EventTable>, 'id' | 'type' | 'happen_time' | 'content'>;

/** One device's records in [from, to] (epoch ms, both ends included), and optionally only rows [skip, skip + limit). */
export interface ExportQuery {
  deviceId: number;
  from: number;
  to: number;
  skip?: number;
  limit?: number;
}

export interface ExportDevice {
  id: number;
  imei: string;
  caption: string;
  attributes: string;
}

const FIX_COLUMNS = 'device_id, pick_time, lon, lat, alt, speed, course, temperature, activity, voltage, channel, satellites, hdop, vdop, grade, valid, tx_time, received_at, invalid_by, invalid_at, invalid_reason, extra';

/** A fix from a raw row in FIX_COLUMNS' order (a row's cells typed `never`, assignable to each field): a literal of one shape, cheaper than better-sqlite3's row objects. */
type Cells<N extends number, R extends never[] = []> = R['length'] extends N ? R : Cells<N, [...R, never]>;
const fixOf = (r: Readonly<Cells<22>>): ExportFixRow => ({
  device_id: r[0], pick_time: r[1], lon: r[2], lat: r[3], alt: r[4], speed: r[5], course: r[6], temperature: r[7], activity: r[8], voltage: r[9], channel: r[10],
  satellites: r[11], hdop: r[12], vdop: r[13], grade: r[14], valid: r[15], tx_time: r[16], received_at: r[17], invalid_by: r[18], invalid_at: r[19], invalid_reason: r[20], extra: r[21],
});

/** The columns of a fix the CSV and XLSX tables write, in this order (pick_time first: the pages' key). */
const FIX_CELL_COLUMNS = ['pick_time', 'lon', 'lat', 'alt', 'speed', 'course', 'temperature', 'activity', 'voltage', 'channel', 'satellites', 'hdop', 'vdop', 'grade', 'valid', 'tx_time', 'invalid_at'] as const;
type FixCellColumn = (typeof FIX_CELL_COLUMNS)[number];
type Cols<T extends readonly FixCellColumn[]> = { readonly [K in keyof T]: T[K] extends FixCellColumn ? ExportFixRow[T[K]] : never };
/** A fix as the tables read it: the values of FIX_CELL_COLUMNS, in that order. */
export type ExportFixCells = Cols<typeof FIX_CELL_COLUMNS>;

/** The fix pages' two statements on one SQLite connection (the first page, and the pages after a key), prepared once per column list, rows as arrays. */
const fixStatements = new WeakMap<SQLite.Database, Map<string, { first: SQLite.Statement; after: SQLite.Statement }>>();
function fixStatementsOf(sqlite: SQLite.Database, columns: string) {
  let byColumns = fixStatements.get(sqlite);
  if (!byColumns) fixStatements.set(sqlite, (byColumns = new Map()));
  let s = byColumns.get(columns);
  if (!s) {
    const sql = (op: string) => `select ${columns} from fixes where device_id = ? and pick_time ${op} ? and pick_time <= ? order by pick_time limit ? offset ?`;
    s = { first: sqlite.prepare(sql('>=')).raw(true), after: sqlite.prepare(sql('>')).raw(true) };
    byColumns.set(columns, s);
  }
  return s;
}

/**
 * The export's reads (modules/export is their only user): a device's rows of one table in time order, in
 * batches by keyset (the last key read is the next batch's lower bound), so a file of millions of rows
 * holds one batch in memory at a time on either dialect. Batches are small: bench/export measured the
 * reads' peak RSS at 283 MB with 4,096 fixes a batch and 130 MB with 256-1,024, at no loss of speed. Read-only: the tables are the fix, sensor and
 * event modules'.
 */
export class ExportRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async device(imei: string): Promise<ExportDevice | undefined> {
    const row = await this.db.selectFrom('devices').select(['id', 'imei', 'caption', 'attributes']).where('imei', '=', imei).executeTakeFirst();
    return row ? { ...row, id: Number(row.id) } : undefined;
  }

  /** Keyset batches over `read(after, n)`: each call reads the rows after the previous batch's last key. */
  private async *walk<R>(q: ExportQuery, batch: number, read: (after: R | undefined, skip: number, n: number) => Promise<R[]>): AsyncGenerator<R[]> {
    let remaining = q.limit ?? Infinity;
    let skip = q.skip ?? 0;
    let last: R | undefined;
    while (remaining > 0) {
      const n = Math.min(batch, remaining);
      const rows = await read(last, skip, n);
      skip = 0;
      if (rows.length === 0) return;
      remaining -= rows.length;
      last = rows[rows.length - 1];
      yield rows;
      if (rows.length < n) return;
    }
  }

  fixes(q: ExportQuery, batch = 512): AsyncGenerator<ExportFixRow[]> {
    const sqlite = rawSqlite(this.db);
    if (sqlite) {
      // On SQLite the pages are read as arrays by statements of our own on Kysely's connection, while Kysely
      // holds it for us (nothing else runs between): better-sqlite3's row objects were half the CSV's time
      // (bench/export). A page is read whole, so no statement stays open across the writer's awaits.
      const { first, after: next } = fixStatementsOf(sqlite, FIX_COLUMNS);
      return this.walk<ExportFixRow>(q, batch * 2, (after, skip, n) =>
        this.db.connection().execute(async () => (after ? next.all(q.deviceId, after.pick_time, q.to, n, skip) : first.all(q.deviceId, q.from, q.to, n, skip)).map((r) => fixOf(r as Cells<22>))),
      );
    }
    return this.walk<ExportFixRow>(q, batch, (after, skip, n) =>
      this.db
        .selectFrom('fixes')
        .selectAll()
        .where('device_id', '=', q.deviceId)
        .where('pick_time', after ? '>' : '>=', after ? after.pick_time : q.from)
        .where('pick_time', '<=', q.to)
        .orderBy('pick_time')
        .limit(n)
        .offset(skip)
        .execute(),
    );
  }

  /**
   * The fixes as the CSV and XLSX tables write them: only their columns, as arrays (ExportFixCells). On
   * SQLite straight from better-sqlite3 (no object per row: 1M fixes read in 1.3 CPU s instead of 1.8),
   * on PostgreSQL from Kysely's objects.
   */
  fixCells(q: ExportQuery, batch = 1024): AsyncGenerator<ExportFixCells[]> {
    const sqlite = rawSqlite(this.db);
    if (sqlite) {
      const { first, after: next } = fixStatementsOf(sqlite, FIX_CELL_COLUMNS.join(', '));
      return this.walk<ExportFixCells>(q, batch * 2, (after, skip, n) =>
        this.db.connection().execute(async () => (after ? next.all(q.deviceId, after[0], q.to, n, skip) : first.all(q.deviceId, q.from, q.to, n, skip)) as ExportFixCells[]),
      );
    }
    return this.walk<ExportFixCells>(q, batch, async (after, skip, n) =>
      (
        await this.db
          .selectFrom('fixes')
          .select([...FIX_CELL_COLUMNS])
          .where('device_id', '=', q.deviceId)
          .where('pick_time', after ? '>' : '>=', after ? after[0] : q.from)
          .where('pick_time', '<=', q.to)
          .orderBy('pick_time')
          .limit(n)
          .offset(skip)
          .execute()
      ).map((f) => FIX_CELL_COLUMNS.map((c: FixCellColumn) => f[c]) as unknown as ExportFixCells),
    );
  }

  /** The extras and source marks of the fixes that have any (a Movebank file's extra columns are known before its first row). */
  fixExtras(q: ExportQuery, batch = 1024): AsyncGenerator<Pick<ExportFixRow, 'pick_time' | 'extra' | 'invalid_reason'>[]> {
    return this.walk<Pick<ExportFixRow, 'pick_time' | 'extra' | 'invalid_reason'>>({ deviceId: q.deviceId, from: q.from, to: q.to }, batch, (after, _skip, n) =>
      this.db
        .selectFrom('fixes')
        .select(['pick_time', 'extra', 'invalid_reason'])
        .where('device_id', '=', q.deviceId)
        .where('pick_time', after ? '>' : '>=', after ? after.pick_time : q.from)
        .where('pick_time', '<=', q.to)
        .where((eb) => eb.or([eb('extra', 'is not', null), eb('invalid_reason', 'is not', null)]))
        .orderBy('pick_time')
        .limit(n)
        .execute(),
    );
  }

  sensor(kind: number, q: ExportQuery, batch = 1024): AsyncGenerator<ExportSensorRow[]> {
    return this.walk<ExportSensorRow>(q, batch, (after, skip, n) =>
      this.db
        .selectFrom('sensor_records')
        .select(['time', 'v1', 'v2', 'v3', 'v4'])
        .where('device_id', '=', q.deviceId)
        .where('kind', '=', kind)
        .where('time', after ? '>' : '>=', after ? after.time : q.from)
        .where('time', '<=', q.to)
        .orderBy('time')
        .limit(n)
        .offset(skip)
        .execute(),
    );
  }

  bursts(q: ExportQuery, batch = 64): AsyncGenerator<ExportBurstRow[]> {
    return this.walk<ExportBurstRow>(q, batch, (after, skip, n) =>
      this.db
        .selectFrom('acc_bursts')
        .select(['start_time', 'hz', 'axes', 'sample_count', 'samples', 'odba', 'mean_odba', 'calibration', 'encoding', 'extra'])
        .where('device_id', '=', q.deviceId)
        .where('start_time', after ? '>' : '>=', after ? after.start_time : q.from)
        .where('start_time', '<=', q.to)
        .orderBy('start_time')
        .limit(n)
        .offset(skip)
        .execute(),
    );
  }

  events(q: ExportQuery, batch = 1024): AsyncGenerator<ExportEventRow[]> {
    return this.walk<ExportEventRow>(q, batch, (after, skip, n) => {
      let query = this.db
        .selectFrom('events')
        .select(['id', 'type', 'happen_time', 'content'])
        .where('device_id', '=', q.deviceId)
        .where('happen_time', '<=', q.to);
      query = after
        ? query.where((eb) => eb.or([eb('happen_time', '>', after.happen_time), eb.and([eb('happen_time', '=', after.happen_time), eb('id', '>', after.id)])]))
        : query.where('happen_time', '>=', q.from);
      return query.orderBy('happen_time').orderBy('id').limit(n).offset(skip).execute();
    });
  }

  // ---- the read API's reference data (direct-read.ts) ---------------------------------------------

  /** The devices of these ids as the tables name them. */
  async devices(ids: readonly number[]): Promise<ExportDevice[]> {
    const out: ExportDevice[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db.selectFrom('devices').select(['id', 'imei', 'caption', 'attributes']).where('id', 'in', ids.slice(i, i + 500)).execute();
      for (const r of rows) out.push({ ...r, id: Number(r.id) });
    }
    return out;
  }

  /** Each device's first and last fix time and fix count in [from, to] (devices without a fix there are absent). */
  async fixSpans(ids: readonly number[], from: number, to: number): Promise<Map<number, { first: number; last: number; count: number }>> {
    const out = new Map<number, { first: number; last: number; count: number }>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db
        .selectFrom('fixes')
        .select((eb) => ['device_id', eb.fn.min('pick_time').as('first'), eb.fn.max('pick_time').as('last'), eb.fn.countAll<string | number>().as('n')])
        .where('device_id', 'in', ids.slice(i, i + 500))
        .where('pick_time', '>=', from)
        .where('pick_time', '<=', to)
        .groupBy('device_id')
        .execute();
      for (const r of rows) out.set(Number(r.device_id), { first: Number(r.first), last: Number(r.last), count: Number(r.n) });
    }
    return out;
  }

  /** Which of these devices hold an acceleration burst. */
  async withBursts(ids: readonly number[]): Promise<Set<number>> {
    const out = new Set<number>();
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await this.db.selectFrom('acc_bursts').select('device_id').distinct().where('device_id', 'in', ids.slice(i, i + 500)).execute();
      for (const r of rows) out.add(Number(r.device_id));
    }
    return out;
  }
}
