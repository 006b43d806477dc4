import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { AccBurstTable, Database, SensorRecordTable } from '../../db/schema.js';

/** A scalar sensor record as the console reads it: its time and up to four values in the kind's layout. */
export type SensorRow = Pick<SensorRecordTable, 'time' | 'v1' | 'v2' | 'v3' | 'v4'>;
export type SensorColumn = keyof SensorRow;

/** A burst as the console reads it: everything but the device, arrival time and extras. */
export type BurstRow = Pick<AccBurstTable, 'start_time' | 'hz' | 'axes' | 'sample_count' | 'samples' | 'odba' | 'mean_odba' | 'calibration'> & { encoding: number };
export type BurstColumn = 'start_time' | 'mean_odba';

/** A device's records of one kind (or its bursts) whose time lies in [from, to] (epoch ms, both ends included). */
export interface SensorQuery {
  deviceId: number;
  from: number;
  to: number;
}

/** One bucket of an envelope: its records' count, mean time, and per value column the min, max and mean. */
export interface BucketRow {
  n: number;
  time: number;
  min: (number | null)[];
  max: (number | null)[];
  mean: (number | null)[];
}

const VALUES = ['v1', 'v2', 'v3', 'v4'] as const;

/** One page: the column to order by (ties by time, in the same direction), the page's size and offset. */
export interface PageOrder<C extends string> {
  column: C;
  descending: boolean;
  limit: number;
  offset: number;
}

/**
 * Reads of the records devices send besides fixes: scalar sensor records (sensor_records, keyed by device,
 * kind and time) and acceleration bursts (acc_bursts, keyed by device and start time). The ingest writes
 * them (ingest/batch-repository.ts); a device's range is one key range on both dialects.
 */
export class SensorRepository {
  constructor(
    private readonly db: Kysely<Database>,
    /** On SQLite, the envelope is read bucket by bucket with one prepared statement (see buckets). */
    private readonly sqlite?: SqliteDatabase,
  ) {}

  private bucketStatements = new Map<string, Statement>();

  /** The first `limit` records of the range in time order (a series with few enough records is sent whole). */
  async first(kind: number, q: SensorQuery, limit: number): Promise<SensorRow[]> {
    return this.page(kind, q, { column: 'time', descending: false, limit, offset: 0 });
  }

  /**
   * The range cut into buckets of `bucketMs` from q.from: per non-empty bucket, in time order, its count,
   * mean time and each of the first `values` columns' min, max and mean. On SQLite each bucket is its own
   * key-range read (a GROUP BY over a computed bucket sorts every record in a temporary b-tree first: 2-3×
   * slower on a million); on PostgreSQL one GROUP BY (a hash aggregate over the key range).
   */
  async buckets(kind: number, q: SensorQuery, bucketMs: number, values: number, circular: readonly boolean[] = []): Promise<BucketRow[]> {
    const cols = VALUES.slice(0, values);
    // A compass angle's mean is the direction of its unit vectors' mean (350° and 10° average to 0°, not 180°).
    const meanOf = (k: number, avg: unknown, sin: unknown, cos: unknown): number | null => {
      if (!circular[k]) return avg === null || avg === undefined ? null : Number(avg);
      if (sin === null || sin === undefined || cos === null || cos === undefined) return null;
      return ((Math.atan2(Number(sin), Number(cos)) * 180) / Math.PI + 360) % 360;
    };
    if (this.sqlite) {
      const key = `${values}:${circular.join()}`;
      let statement = this.bucketStatements.get(key);
      if (!statement) {
        const aggregates = cols
          .map((c, k) => (circular[k] ? `min(${c}), max(${c}), avg(sin(radians(${c}))), avg(cos(radians(${c})))` : `min(${c}), max(${c}), avg(${c}), null`))
          .join(', ');
        statement = this.sqlite
          .prepare(`select count(*), avg(time), ${aggregates} from sensor_records where device_id = ? and kind = ? and time >= ? and time < ?`)
          .raw(true);
        this.bucketStatements.set(key, statement);
      }
      const out: BucketRow[] = [];
      const read = this.sqlite.transaction(() => {
        for (let start = q.from; start <= q.to; start += bucketMs) {
          const r = statement.get(q.deviceId, kind, start, Math.min(start + bucketMs, q.to + 1)) as (number | null)[];
          const n = Number(r[0]);
          if (n === 0) continue;
          out.push({
            n,
            time: Number(r[1]),
            min: cols.map((_, k) => r[2 + 4 * k] as number | null),
            max: cols.map((_, k) => r[3 + 4 * k] as number | null),
            mean: cols.map((_, k) => meanOf(k, r[4 + 4 * k], r[4 + 4 * k], r[5 + 4 * k])),
          });
        }
      });
      read();
      return out;
    }
    // PostgreSQL: the same per-bucket key-range reads in one statement (a LATERAL aggregate per bucket).
    // A GROUP BY over the computed bucket sorted every record (on disk past work_mem): 3× slower on a million.
    // JIT off: the planner's cost for the whole loop is large, and compiling took longer than the query.
    const buckets = Math.max(1, Math.ceil((q.to + 1 - q.from) / bucketMs));
    const [from, width, end] = [sql.lit(Math.floor(q.from)), sql.lit(Math.floor(bucketMs)), sql.lit(Math.floor(q.to) + 1)];
    const aggregates = sql.join(
      cols.flatMap((c, k) => {
        const col = sql.ref(c);
        return [
          sql`min(${col}) as ${sql.ref(`min_${c}`)}`,
          sql`max(${col}) as ${sql.ref(`max_${c}`)}`,
          ...(circular[k]
            ? [sql`avg(sin(radians(${col}))) as ${sql.ref(`sin_${c}`)}`, sql`avg(cos(radians(${col}))) as ${sql.ref(`cos_${c}`)}`]
            : [sql`avg(${col}) as ${sql.ref(`avg_${c}`)}`]),
        ];
      }),
    );
    const result = await this.db.transaction().execute(async (trx) => {
      await sql`set local jit = off`.execute(trx);
      return sql<Record<string, unknown>>`
        select x.* from generate_series(0, ${sql.lit(buckets - 1)}) as k,
        lateral (
          select count(*) as n, avg(time::float8) as t, ${aggregates}
          from sensor_records
          where device_id = ${q.deviceId} and kind = ${kind}
            and time >= ${from} + k * ${width}::bigint and time < least(${from} + (k + 1) * ${width}::bigint, ${end})
        ) as x
        where x.n > 0
        order by k`.execute(trx);
    });
    const rows = result.rows;
    const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    return rows.map((r) => {
      const row = r as Record<string, unknown>;
      return {
        n: Number(row.n),
        time: Number(row.t),
        min: cols.map((c) => num(row[`min_${c}`])),
        max: cols.map((c) => num(row[`max_${c}`])),
        mean: cols.map((c, k) => meanOf(k, row[`avg_${c}`], row[`sin_${c}`], row[`cos_${c}`])),
      };
    });
  }

  async count(kind: number, q: SensorQuery): Promise<number> {
    const r = await this.db
      .selectFrom('sensor_records')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('device_id', '=', q.deviceId)
      .where('kind', '=', kind)
      .where('time', '>=', q.from)
      .where('time', '<=', q.to)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async page(kind: number, q: SensorQuery, order: PageOrder<SensorColumn>): Promise<SensorRow[]> {
    const direction = order.descending ? 'desc' : 'asc';
    let query = this.db
      .selectFrom('sensor_records')
      .select(['time', 'v1', 'v2', 'v3', 'v4'])
      .where('device_id', '=', q.deviceId)
      .where('kind', '=', kind)
      .where('time', '>=', q.from)
      .where('time', '<=', q.to)
      .orderBy(order.column, direction);
    if (order.column !== 'time') query = query.orderBy('time', direction);
    const rows = await query.limit(order.limit).offset(order.offset).execute();
    return rows.map((r) => ({ time: Number(r.time), v1: r.v1, v2: r.v2, v3: r.v3, v4: r.v4 }));
  }

  async burstCount(q: SensorQuery): Promise<number> {
    const r = await this.db
      .selectFrom('acc_bursts')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('device_id', '=', q.deviceId)
      .where('start_time', '>=', q.from)
      .where('start_time', '<=', q.to)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async burstPage(q: SensorQuery, order: PageOrder<BurstColumn>): Promise<BurstRow[]> {
    const direction = order.descending ? 'desc' : 'asc';
    let query = this.db
      .selectFrom('acc_bursts')
      .select(['start_time', 'hz', 'axes', 'sample_count', 'samples', 'odba', 'mean_odba', 'calibration', 'encoding'])
      .where('device_id', '=', q.deviceId)
      .where('start_time', '>=', q.from)
      .where('start_time', '<=', q.to)
      .orderBy(order.column, direction);
    if (order.column !== 'start_time') query = query.orderBy('start_time', direction);
    const rows = await query.limit(order.limit).offset(order.offset).execute();
    return rows.map((r) => ({ ...r, start_time: Number(r.start_time), sample_count: Number(r.sample_count), encoding: Number(r.encoding) }));
  }
}
