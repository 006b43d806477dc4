import { type Compilable, type Kysely, sql, type SelectQueryBuilder } from 'kysely';
import { NO_SPEED, TrackFlag, type TrackColumns } from '@wildtrack/contract';
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { Database, FixTable } from '../../db/schema.js';
import { preparedQuery } from '../../db/prepared.js';
import { markTrackDaysStale } from '../../db/shared-writes.js';
import { DAY_MS, fixDays } from '../../domain/track-days.js';
import { SUMMARY_COLUMNS, SUMMARY_RECORD, type SummaryKey } from './averaging.js';
import { FIX_COLUMNS, type FixKey, type FixRow, type SortColumn, type TrackRow } from './rows.js';

export { FIX_COLUMNS, type FixKey, type FixRow, SORT_COLUMNS, type SortColumn, type TrackRow } from './rows.js';

/** The numeric position filters (§9 and issue 12): each the column it reads. */
export const FILTER_COLUMNS = {
  speed: 'speed', altitude: 'alt', temperature: 'temperature', voltage: 'voltage', activity: 'activity', hdop: 'hdop', satellites: 'satellites',
} as const;
export type FilterName = keyof typeof FILTER_COLUMNS;

/** One numeric filter's bounds: keeps gt < value ≤ le (a fix without the value is left out). */
export interface Bounds {
  gt?: number | undefined;
  le?: number | undefined;
}

/** A device's range with the numeric position filters, the grade set and validity. */
export interface FixQuery {
  deviceId: number;
  from: number;
  to: number;
  /** Numeric filters in use (absent or empty: none). */
  bounds?: Partial<Record<FilterName, Bounds>> | undefined;
  /** Grades to keep; undefined keeps every fix, graded or not. */
  grades?: readonly number[] | undefined;
  validOnly?: boolean | undefined;
}

/** Whether a query filters on any value (speed, HDOP…) or grade: the plain track statement can't serve it. */
export function filtersValues(f: FixQuery): boolean {
  return !!f.grades || Object.values(f.bounds ?? {}).some((b) => b && (b.gt !== undefined || b.le !== undefined));
}

/**
 * A query's shape (which filters it uses, how many grades, and `extra`: what else changes its SQL) and
 * its values in the order the shape binds them: queries of one shape share one compiled statement.
 */
function shapeOf(kind: string, f: FixQuery, extra: readonly (string | number | boolean)[]): { key: string; values: unknown[]; rebuild: (slots: readonly unknown[]) => { q: FixQuery; rest: unknown[] } } {
  const values: unknown[] = [f.deviceId, f.from, f.to];
  const parts: string[] = [kind, f.validOnly ? 'v' : '', String(f.grades?.length ?? -1), ...extra.map(String)];
  const entries = Object.entries(f.bounds ?? {}).filter(([, b]) => b && (b.gt !== undefined || b.le !== undefined)) as [FilterName, Bounds][];
  for (const [name, b] of entries) {
    parts.push(`${name}${b.gt !== undefined ? '>' : ''}${b.le !== undefined ? '<=' : ''}`);
    if (b.gt !== undefined) values.push(b.gt);
    if (b.le !== undefined) values.push(b.le);
  }
  if (f.grades) values.push(...f.grades);
  return {
    key: parts.join('|'),
    values,
    // The same query with each value replaced by its stand-in, in the same order.
    rebuild: (slots) => {
      let i = 0;
      const next = () => slots[i++] as number;
      const q: FixQuery = { deviceId: next(), from: next(), to: next(), bounds: {}, validOnly: f.validOnly };
      for (const [name, b] of entries) q.bounds![name] = { gt: b.gt !== undefined ? next() : undefined, le: b.le !== undefined ? next() : undefined };
      if (f.grades) q.grades = f.grades.map(() => next());
      return { q, rest: slots.slice(i) };
    },
  };
}

export type ConvertedRow = FixRow & { operator: string | null; invalid_reason: string | null };

/** A fix as its detail reads it: the console's columns and the extras. */
export type DetailRow = FixRow & Pick<FixTable, 'extra'>;

export { DAY_MS };

/** One device's part of FixRepository.storedTracks: its whole days and the partial days at either end. */
export interface StoredTrackRequest {
  deviceId: number;
  /** Whole UTC days (day numbers) whose stored segments are wanted; dayFrom > dayTo for none. */
  dayFrom: number;
  dayTo: number;
  /** [from, to] of the partial days before and after them (epoch ms); from > to for none. */
  head: [number, number];
  tail: [number, number];
}

/** A device's stored track parts: no bounds when it has no fix at all (nothing else is then read). */
export interface StoredTrack {
  bounds: { first: number; last: number } | undefined;
  segments: Map<number, { count: number; data: Uint8Array }>;
  head: TrackRow[];
  tail: TrackRow[];
}

/** A device's track points as columns (a segment before it is encoded): TrackColumns without the IMEI. */
export type TrackPoints = Omit<TrackColumns, 'imei'>;

/** Track rows as columns, flagged valid as the codec wants them. */
export function pointsOf(rows: readonly TrackRow[]): TrackPoints {
  const n = rows.length;
  const times = new Float64Array(n);
  const lonLat = new Float64Array(2 * n);
  const alt = new Float64Array(n);
  const grade = new Uint8Array(n);
  const flags = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    times[i] = r[0];
    lonLat[2 * i] = r[1];
    lonLat[2 * i + 1] = r[2];
    alt[i] = r[3] ?? Number.NaN;
    grade[i] = r[4] ?? 0;
    flags[i] = r[5] === 1 ? TrackFlag.Valid : 0;
  }
  return { count: n, times, lonLat, alt, grade, flags };
}

/**
 * Reads a day's track on SQLite straight into typed columns: a function SQLite calls for each row of
 * the scan writes the row's values into growing typed arrays, so no row array is made (better-sqlite3
 * builds an array and sets its elements one call at a time: a million rows read as arrays cost twice
 * the CPU of this, and more in garbage collection; bench/tracks 1). One per connection (a function
 * name belongs to the connection), so every repository on it shares it.
 */
class ColumnSink {
  private capacity = 4096;
  private n = 0;
  private times = new Float64Array(this.capacity);
  private lonLat = new Float64Array(2 * this.capacity);
  private alt = new Float64Array(this.capacity);
  private grade = new Uint8Array(this.capacity);
  private flags = new Uint8Array(this.capacity);
  private readonly scan: Statement<[number, number, number], number>;

  constructor(sqlite: SqliteDatabase) {
    sqlite.function('wildtrack_track_point', { deterministic: false, directOnly: true }, (t, lon, lat, alt, grade, valid) => {
      if (this.n === this.capacity) this.grow();
      const i = this.n++;
      this.times[i] = t as number;
      this.lonLat[2 * i] = lon as number;
      this.lonLat[2 * i + 1] = lat as number;
      this.alt[i] = alt === null ? Number.NaN : (alt as number);
      this.grade[i] = (grade as number | null) ?? 0;
      this.flags[i] = valid === 1 ? TrackFlag.Valid : 0;
      return null;
    });
    // The primary key's range scan visits the rows in pick_time order (read() checks it).
    this.scan = sqlite
      .prepare<[number, number, number], number>(
        'select count(wildtrack_track_point(pick_time, lon, lat, alt, grade, valid)) from fixes where device_id = ? and pick_time >= ? and pick_time <= ? and lon is not null and lat is not null',
      )
      .pluck();
  }

  private grow(): void {
    const c = this.capacity * 2;
    const more = <T extends Float64Array | Uint8Array>(a: T, size: number): T => {
      const b = new (a.constructor as new (n: number) => T)(size);
      b.set(a);
      return b;
    };
    this.times = more(this.times, c);
    this.lonLat = more(this.lonLat, 2 * c);
    this.alt = more(this.alt, c);
    this.grade = more(this.grade, c);
    this.flags = more(this.flags, c);
    this.capacity = c;
  }

  /** The positions of [from, to] as columns (views on the sink's arrays, valid until the next read), or undefined when not in time order. */
  read(deviceId: number, from: number, to: number): TrackPoints | undefined {
    this.n = 0;
    this.scan.get(deviceId, from, to);
    const n = this.n;
    for (let i = 1; i < n; i++) if (this.times[i]! <= this.times[i - 1]!) return undefined;
    return {
      count: n,
      times: this.times.subarray(0, n),
      lonLat: this.lonLat.subarray(0, 2 * n),
      alt: this.alt.subarray(0, n),
      grade: this.grade.subarray(0, n),
      flags: this.flags.subarray(0, n),
    };
  }
}

const sinks = new WeakMap<SqliteDatabase, ColumnSink>();

/**
 * Fixes for the console (the only Kysely user of the fix module). Every query names one device and a
 * pick-time range, so it is a range scan of the primary key (device_id, pick_time).
 */
export class FixRepository {
  /** Prepared once: the bulk track read on SQLite skips Kysely's per-row objects (bench/tracks). */
  private trackStatement: Statement<[number, number, number, number], TrackRow> | undefined;
  private readonly prepared = new Map<string, Statement>();
  /** Compiled queries by shape (shapeOf): building a query with Kysely cost more than running it (bench/load). */
  private readonly shaped = new Map<string, (...args: unknown[]) => Promise<unknown[]>>();
  private boundsQuery: ((deviceId: number, again: number) => Promise<{ first: number | null; last: number | null }[]>) | undefined;
  private segmentsQuery: ((deviceId: number, from: number, to: number) => Promise<{ day: number; point_count: number; data: Uint8Array }[]>) | undefined;
  private lastQuery: ((device: number, before: number, after: number) => Promise<unknown[]>) | undefined;
  private lastStatement: Statement | undefined;
  private segmentStatements:
    | { insert: Statement; dirty: Statement<[number, number, number], number>; clean: Statement; next: Statement<[number, number], number> }
    | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sqlite?: SqliteDatabase,
  ) {}

  private filtered<O>(q: SelectQueryBuilder<Database, 'fixes', O>, f: FixQuery): SelectQueryBuilder<Database, 'fixes', O> {
    let out = q.where('fixes.device_id', '=', f.deviceId).where('fixes.pick_time', '>=', f.from).where('fixes.pick_time', '<=', f.to);
    // Plain comparisons on the row's own columns, after the (device_id, pick_time) range the index serves.
    for (const [name, b] of Object.entries(f.bounds ?? {}) as [FilterName, Bounds | undefined][]) {
      const column = `fixes.${FILTER_COLUMNS[name]}` as const;
      if (b?.gt !== undefined) out = out.where(column, '>', b.gt);
      if (b?.le !== undefined) out = out.where(column, '<=', b.le);
      // A device's -1 speed is "none" (NO_SPEED), not slower than everything.
      if (name === 'speed' && b?.le !== undefined) out = out.where(column, '<>', NO_SPEED);
    }
    if (f.grades) out = out.where('fixes.grade', 'in', f.grades.length > 0 ? [...f.grades] : [-1]);
    if (f.validOnly) out = out.where('fixes.valid', '=', 1);
    return out;
  }

  /**
   * Runs a SQLite write (segments, summaries) built from a read's snapshot; when another process wrote
   * since (SQLITE_BUSY), the read keeps its answer and stores nothing.
   */
  private async storeUnlessBusy(build: () => void): Promise<void> {
    await this.db.connection().execute(async () => {
      try {
        build();
      } catch (err) {
        if (!String((err as { code?: string }).code).startsWith('SQLITE_BUSY')) throw err;
      }
    });
  }

  /**
   * Runs the query `build` makes of `f` (and `extraValues`, handed to it after the query's own values),
   * compiled once per shape: `extraShape` names whatever else of it changes the SQL's text.
   */
  private runShaped<R>(
    kind: string,
    f: FixQuery,
    extraShape: readonly (string | number | boolean)[],
    extraValues: readonly unknown[],
    build: (q: FixQuery, extra: readonly unknown[]) => Compilable<R>,
  ): Promise<R[]> {
    const shape = shapeOf(kind, f, extraShape);
    let run = this.shaped.get(shape.key);
    if (!run) {
      const arity = shape.values.length + extraValues.length;
      run = preparedQuery(this.db, arity, (...slots: unknown[]) => {
        const { q, rest } = shape.rebuild(slots);
        return build(q, rest);
      }) as (...args: unknown[]) => Promise<unknown[]>;
      this.shaped.set(shape.key, run);
    }
    return run(...shape.values, ...extraValues) as Promise<R[]>;
  }

  async count(f: FixQuery): Promise<number> {
    const [row] = await this.runShaped('count', f, [], [], (q) => this.filtered(this.db.selectFrom('fixes').select((eb) => eb.fn.countAll<number | string>().as('n')), q));
    return Number(row?.n ?? 0);
  }

  private pageQuery(f: FixQuery, sort: SortColumn, descending: boolean, limit: number, offset: number) {
    let q = this.filtered(this.db.selectFrom('fixes').select(FIX_COLUMNS), f);
    // NULLs last whichever way (a fix without speed is not "the slowest"); pick_time breaks ties.
    if (sort !== 'pick_time') q = q.orderBy(sql`${sql.ref(`fixes.${sort}`)} is null`).orderBy(`fixes.${sort}`, descending ? 'desc' : 'asc');
    q = q.orderBy('fixes.pick_time', descending ? 'desc' : 'asc');
    return q.limit(limit).offset(offset);
  }

  /**
   * A page of fixes and how many the query has in all, in one statement (on PostgreSQL one round trip
   * instead of two): the page's rows each carry the count. A page past the end has no row to carry it, so
   * the count is then read alone.
   */
  async pageAndCount(f: FixQuery, sort: SortColumn, descending: boolean, limit: number, offset: number): Promise<{ rows: FixRow[]; total: number }> {
    const rows = (await this.runShaped('page+count', f, [sort, descending], [limit, offset], (query, [lim, off]) => {
      const counted = this.filtered(this.db.selectFrom('fixes').select((eb) => eb.fn.countAll<number | string>().as('n')), query);
      let q = this.db
        .selectFrom(this.pageQuery(query, sort, descending, lim as number, off as number).as('p'))
        .selectAll('p')
        .select(() => counted.as('total'));
      // the page's order, again outside it (a subquery's order is not kept by itself)
      if (sort !== 'pick_time') q = q.orderBy(sql`${sql.ref(`p.${sort}`)} is null`).orderBy(`p.${sort}`, descending ? 'desc' : 'asc');
      return q.orderBy('p.pick_time', descending ? 'desc' : 'asc');
    })) as (FixRow & { total: number | string })[];
    if (rows.length === 0) return { rows: [], total: await this.count(f) };
    const total = Number(rows[0]!.total);
    return { rows: rows.map(({ total: _, ...row }) => row), total };
  }

  /**
   * Every fix of the range in time order, reduced to what forming second-level runs and ordering the
   * averaged table by `sort` need; whole fixes are then read only for the rows of the page shown.
   */
  async keys(f: FixQuery, sort: SortColumn): Promise<FixKey[]> {
    const query = this.filtered(
      this.db
        .selectFrom('fixes')
        .select([
          'fixes.pick_time',
          sql<number>`case when fixes.lon is not null and fixes.lat is not null then 1 else 0 end`.as('positioned'),
          'fixes.valid',
          sql<number | string | null>`${sql.ref(`fixes.${sort}`)}`.as('value'),
        ]),
      f,
    ).orderBy('fixes.pick_time');
    // On SQLite as arrays straight from the driver: a few hundred thousand keys as objects cost more
    // than the query (a 259,200-fix range: 0.6 s through Kysely).
    if (this.sqlite) {
      const { sql: text, parameters } = query.compile();
      return this.preparedOf(this.sqlite, text).raw(true).all(...parameters) as FixKey[];
    }
    const rows = await query.execute();
    return rows.map((r) => [Number(r.pick_time), Number(r.positioned), Number(r.valid), r.value === null ? null : Number(r.value)]);
  }

  /** One device's fixes at these times (in no particular order). */
  async atTimes(deviceId: number, times: readonly number[]): Promise<FixRow[]> {
    const out: FixRow[] = [];
    for (let i = 0; i < times.length; i += 500) {
      const chunk = times.slice(i, i + 500);
      out.push(...((await this.db.selectFrom('fixes').select(FIX_COLUMNS).where('device_id', '=', deviceId).where('pick_time', 'in', chunk).execute()) as FixRow[]));
    }
    return out;
  }

  /** One fix with its `extra` (the JSON of what the import kept unmapped): only a single fix's detail reads it. */
  async one(deviceId: number, time: number): Promise<DetailRow | undefined> {
    return (await this.db.selectFrom('fixes').select([...FIX_COLUMNS, 'extra']).where('device_id', '=', deviceId).where('pick_time', '=', time).executeTakeFirst()) as
      | DetailRow
      | undefined;
  }

  /**
   * The positions of a range for the map: arrays, not objects, and on SQLite one prepared statement in
   * raw mode (a million rows as objects cost more than encoding them).
   */
  async track(f: FixQuery): Promise<TrackRow[]> {
    if (this.sqlite && !filtersValues(f)) return this.trackStatementOf(this.sqlite).all(f.deviceId, f.from, f.to, f.validOnly ? 1 : 0);
    const rows = await this.filtered(this.db.selectFrom('fixes').select(['pick_time', 'lon', 'lat', 'alt', 'grade', 'valid']), f)
      .where('fixes.lon', 'is not', null)
      .where('fixes.lat', 'is not', null)
      .orderBy('fixes.pick_time')
      .execute();
    return rows.map((r) => [Number(r.pick_time), r.lon as number, r.lat as number, r.alt, r.grade, r.valid]);
  }

  /** Stored segments of whole UTC days [dayFrom, dayTo]: day → point count and the encoded Track. */
  async segments(deviceId: number, dayFrom: number, dayTo: number): Promise<Map<number, { count: number; data: Uint8Array }>> {
    this.segmentsQuery ??= preparedQuery(this.db, 3, (device: number, from: number, to: number) =>
      this.db.selectFrom('track_segments').select(['day', 'point_count', 'data']).where('device_id', '=', device).where('day', '>=', from).where('day', '<=', to),
    );
    const rows = await this.segmentsQuery(deviceId, dayFrom, dayTo);
    return new Map(rows.map((r) => [Number(r.day), { count: Number(r.point_count), data: r.data }]));
  }

  /**
   * The first and last fix time of a device (any fix), or undefined when it has none: two seeks of the
   * primary key (device_id, pick_time) in one statement (one round trip on PostgreSQL), so they are exact
   * whoever wrote the fixes and cost no upkeep.
   */
  async bounds(deviceId: number): Promise<{ first: number; last: number } | undefined> {
    this.boundsQuery ??= preparedQuery(this.db, 2, (device: number, again: number) =>
      this.db.selectNoFrom((eb) => [
        eb.selectFrom('fixes').select('pick_time').where('device_id', '=', device).orderBy('pick_time', 'asc').limit(1).as('first'),
        eb.selectFrom('fixes').select('pick_time').where('device_id', '=', again).orderBy('pick_time', 'desc').limit(1).as('last'),
      ]),
    );
    const [row] = await this.boundsQuery(deviceId, deviceId);
    if (row?.first === null || row?.first === undefined) return undefined;
    return { first: Number(row.first), last: Number(row.last ?? row.first) };
  }

  /**
   * The first and last fix time of a device within [from, to] (a share's data period), or undefined when
   * it has none there: the lowest and highest key of the (device_id, pick_time) primary key in the range.
   */
  async boundsWithin(deviceId: number, from: number, to: number): Promise<{ first: number; last: number } | undefined> {
    const row = await this.db
      .selectFrom('fixes')
      .select((eb) => [eb.fn.min('pick_time').as('first'), eb.fn.max('pick_time').as('last')])
      .where('device_id', '=', deviceId)
      .where('pick_time', '>=', from)
      .where('pick_time', '<=', to)
      .executeTakeFirst();
    if (row?.first === null || row?.first === undefined) return undefined;
    return { first: Number(row.first), last: Number(row.last ?? row.first) };
  }

  /**
   * What unfiltered tracks are served from, for several devices at once: each one's first and last fix
   * time (bounds), its stored segments of the whole days [dayFrom, dayTo], and the positions of the partial
   * days at either end (head and tail, [from, to] ranges; from > to for none). On PostgreSQL one statement
   * for them all (a track of 7 days was four round trips a device: bounds, segments, head, tail); on SQLite
   * the same reads one after the other, in process.
   */
  async storedTracks(wanted: readonly StoredTrackRequest[]): Promise<StoredTrack[]> {
    if (wanted.length === 0) return [];
    if (this.sqlite) {
      const out: StoredTrack[] = [];
      for (const w of wanted) {
        const bounds = await this.bounds(w.deviceId);
        const empty = !bounds;
        out.push({
          bounds,
          segments: empty || w.dayFrom > w.dayTo ? new Map() : await this.segments(w.deviceId, w.dayFrom, w.dayTo),
          head: empty || w.head[0] > w.head[1] ? [] : await this.track({ deviceId: w.deviceId, from: w.head[0], to: w.head[1] }),
          tail: empty || w.tail[0] > w.tail[1] ? [] : await this.track({ deviceId: w.deviceId, from: w.tail[0], to: w.tail[1] }),
        });
      }
      return out;
    }
    const column = (pick: (w: StoredTrackRequest) => number) => wanted.map(pick);
    const { rows } = await sql<{
      device_id: number;
      part: number;
      t: number | null;
      n: number | null;
      lon: number | null;
      lat: number | null;
      alt: number | null;
      grade: number | null;
      valid: number | null;
      data: Uint8Array | null;
    }>`with w as (
        select * from unnest(${column((w) => w.deviceId)}::bigint[], ${column((w) => w.dayFrom)}::bigint[], ${column((w) => w.dayTo)}::bigint[],
          ${column((w) => w.head[0])}::bigint[], ${column((w) => w.head[1])}::bigint[], ${column((w) => w.tail[0])}::bigint[], ${column((w) => w.tail[1])}::bigint[])
          as w(device_id, day_from, day_to, head_from, head_to, tail_from, tail_to)
      )
      select w.device_id, 0 as part, s.day::bigint as t, s.point_count::bigint as n, null::float8 as lon, null::float8 as lat, null::float8 as alt, null::integer as grade, null::integer as valid, s.data
        from w join track_segments s on s.device_id = w.device_id and s.day >= w.day_from and s.day <= w.day_to
      union all
      select w.device_id, 1, f.pick_time, null, f.lon, f.lat, f.alt, f.grade, f.valid, null
        from w join fixes f on f.device_id = w.device_id and f.pick_time >= w.head_from and f.pick_time <= w.head_to and f.lon is not null and f.lat is not null
      union all
      select w.device_id, 2, f.pick_time, null, f.lon, f.lat, f.alt, f.grade, f.valid, null
        from w join fixes f on f.device_id = w.device_id and f.pick_time >= w.tail_from and f.pick_time <= w.tail_to and f.lon is not null and f.lat is not null
      union all
      select w.device_id, 3,
        (select pick_time from fixes where fixes.device_id = w.device_id order by pick_time asc limit 1),
        (select pick_time from fixes where fixes.device_id = w.device_id order by pick_time desc limit 1),
        null, null, null, null, null, null
        from w`.execute(this.db);
    const byDevice = new Map<number, StoredTrack>();
    for (const w of wanted) if (!byDevice.has(w.deviceId)) byDevice.set(w.deviceId, { bounds: undefined, segments: new Map(), head: [], tail: [] });
    for (const r of rows) {
      const entry = byDevice.get(Number(r.device_id))!;
      if (r.part === 0) entry.segments.set(Number(r.t), { count: Number(r.n), data: r.data! });
      else if (r.part === 3) entry.bounds = r.t === null ? undefined : { first: Number(r.t), last: Number(r.n ?? r.t) };
      else (r.part === 1 ? entry.head : entry.tail).push([Number(r.t), r.lon!, r.lat!, r.alt, r.grade, r.valid!]);
    }
    const out = wanted.map((w) => byDevice.get(w.deviceId)!);
    // Each branch is a range scan of the primary key, so in time order; a plan that isn't is put right here.
    for (const t of byDevice.values()) for (const part of [t.head, t.tail]) if (part.some((p, i) => i > 0 && p[0] < part[i - 1]![0])) part.sort((a, b) => a[0] - b[0]);
    return out;
  }

  /** The time of the device's first fix with a position at or after `from`, if any. */
  private async nextPositioned(deviceId: number, from: number): Promise<number | undefined> {
    const row = await this.db
      .selectFrom('fixes')
      .select('pick_time')
      .where('device_id', '=', deviceId)
      .where('pick_time', '>=', from)
      .where('lon', 'is not', null)
      .where('lat', 'is not', null)
      .orderBy('pick_time')
      .limit(1)
      .executeTakeFirst();
    return row ? Number(row.pick_time) : undefined;
  }

  /**
   * Builds the segments of the given days from the fixes and stores those of days that have positions:
   * an empty day is never stored (issue 11, H1: a read of ten years stored a row per day), and the days
   * without a fix are skipped by a seek to the next fix rather than read. Days queued as stale among
   * them are taken off the queue. Reading and storing happen in one transaction, so that a concurrent
   * write to a day (which deletes its segment) can't leave a stale one behind: on SQLite a deferred
   * transaction whose reads are one snapshot (and take no write lock when there is nothing to store),
   * on PostgreSQL a serializable one; either way a conflict just skips storing (the answer is still
   * built from the rows read).
   */
  async buildSegments(
    deviceId: number,
    days: readonly number[],
    encode: (points: TrackPoints) => Uint8Array,
  ): Promise<Map<number, { count: number; data: Uint8Array }>> {
    const out = new Map<number, { count: number; data: Uint8Array }>();
    if (days.length === 0) return out;
    const wanted = [...new Set(days)].sort((a, b) => a - b);
    const first = wanted[0]!;
    const last = wanted[wanted.length - 1]!;
    if (this.sqlite) {
      const sqlite = this.sqlite;
      const s = (this.segmentStatements ??= {
        insert: sqlite.prepare('insert or replace into track_segments (device_id, day, point_count, data) values (?, ?, ?, ?)'),
        dirty: sqlite.prepare<[number, number, number], number>('select day from track_segment_dirty where device_id = ? and day >= ? and day <= ?').pluck(),
        clean: sqlite.prepare('delete from track_segment_dirty where device_id = ? and day = ?'),
        next: sqlite
          .prepare<[number, number], number>('select pick_time from fixes where device_id = ? and pick_time >= ? and lon is not null and lat is not null order by pick_time limit 1')
          .pluck(),
      });
      let sink = sinks.get(sqlite);
      if (!sink) sinks.set(sqlite, (sink = new ColumnSink(sqlite)));
      const columns = sink;
      const rowsOf = this.trackStatementOf(sqlite);
      const build = sqlite.transaction(() => {
        // A day at a time, encoded as read.
        for (let i = 0; i < wanted.length; ) {
          const day = wanted[i]!;
          const from = day * DAY_MS;
          const to = (day + 1) * DAY_MS - 1;
          const points = columns.read(deviceId, from, to) ?? pointsOf(rowsOf.all(deviceId, from, to, 0));
          if (points.count > 0) {
            out.set(day, { count: points.count, data: encode(points) });
            i++;
            continue;
          }
          const next = s.next.get(deviceId, (day + 1) * DAY_MS);
          if (next === undefined) break;
          const nextDay = Math.floor(next / DAY_MS);
          while (i < wanted.length && wanted[i]! < nextDay) i++;
        }
        const stale = s.dirty.all(deviceId, first, last);
        // Nothing to store: the transaction stays a read (no write lock, nothing written).
        if (out.size === 0 && stale.length === 0) return;
        for (const [day, seg] of out) s.insert.run(deviceId, day, seg.count, Buffer.from(seg.data.buffer, seg.data.byteOffset, seg.data.byteLength));
        const asked = new Set(wanted);
        for (const day of stale) if (asked.has(day)) s.clean.run(deviceId, day);
      });
      await this.storeUnlessBusy(build);
      return out;
    }
    try {
      await this.db
        .transaction()
        .setIsolationLevel('serializable')
        .execute(async (trx) => {
          out.clear();
          const repo = new FixRepository(trx);
          // At most a month of rows at a time; years without a fix are skipped by one seek.
          for (let i = 0; i < wanted.length; ) {
            let j = i + 1;
            while (j < wanted.length && wanted[j] === wanted[j - 1]! + 1 && j - i < 31) j++;
            const from = wanted[i]!;
            const to = wanted[j - 1]!;
            const rows = await repo.track({ deviceId, from: from * DAY_MS, to: (to + 1) * DAY_MS - 1 });
            let k = 0;
            for (let day = from; day <= to; day++) {
              const end = (day + 1) * DAY_MS;
              let e = k;
              while (e < rows.length && rows[e]![0] < end) e++;
              if (e > k) out.set(day, { count: e - k, data: encode(pointsOf(rows.slice(k, e))) });
              k = e;
            }
            i = j;
            if (rows.length === 0) {
              const next = await repo.nextPositioned(deviceId, (to + 1) * DAY_MS);
              if (next === undefined) break;
              const nextDay = Math.floor(next / DAY_MS);
              while (i < wanted.length && wanted[i]! < nextDay) i++;
            }
          }
          const values = [...out].map(([day, seg]) => ({ device_id: deviceId, day, point_count: seg.count, data: seg.data }));
          for (let i = 0; i < values.length; i += 500) {
            await trx.insertInto('track_segments').values(values.slice(i, i + 500)).onConflict((oc) => oc.columns(['device_id', 'day']).doNothing()).execute();
          }
          const asked = new Set(wanted);
          const stale = (await trx.selectFrom('track_segment_dirty').select('day').where('device_id', '=', deviceId).where('day', '>=', first).where('day', '<=', last).execute())
            .map((r) => Number(r.day))
            .filter((day) => asked.has(day));
          for (let i = 0; i < stale.length; i += 500) {
            await trx.deleteFrom('track_segment_dirty').where('device_id', '=', deviceId).where('day', 'in', stale.slice(i, i + 500)).execute();
          }
        });
    } catch (err) {
      // 40001: a write to these days committed meanwhile. The rows read are still a consistent answer.
      if ((err as { code?: string }).code !== '40001') throw err;
    }
    return out;
  }

  /** Stored summaries of the averaged table's days [dayFrom, dayTo]: day → float64 records. */
  async groupDays(deviceId: number, dayFrom: number, dayTo: number): Promise<Map<number, Float64Array>> {
    const rows = await this.db
      .selectFrom('fix_group_days')
      .select(['day', 'data'])
      .where('device_id', '=', deviceId)
      .where('day', '>=', dayFrom)
      .where('day', '<=', dayTo)
      .execute();
    // copied: a blob's bytes need not sit on an 8-byte boundary
    return new Map(rows.map((r) => [Number(r.day), new Float64Array(new Uint8Array(r.data).buffer)]));
  }

  /**
   * Summarises the averaged table's rows of the given days from their fixes and stores the summaries of
   * days that have fixes (never an empty day's); days without a fix are skipped by a seek. One
   * transaction, as buildSegments, so a concurrent write can't leave a stale summary behind.
   */
  async buildGroupDays(deviceId: number, days: readonly number[], summarise: (keys: SummaryKey[]) => Float64Array): Promise<Map<number, Float64Array>> {
    const out = new Map<number, Float64Array>();
    if (days.length === 0) return out;
    const wanted = [...new Set(days)].sort((a, b) => a - b);
    const keysOf = (db: Kysely<Database>, from: number, to: number) =>
      db
        .selectFrom('fixes')
        .select([
          'pick_time',
          sql<number>`case when lon is not null and lat is not null then 1 else 0 end`.as('positioned'),
          'valid',
          ...SUMMARY_COLUMNS,
        ])
        .where('device_id', '=', deviceId)
        .where('pick_time', '>=', from)
        .where('pick_time', '<=', to)
        .orderBy('pick_time');
    const store = (day: number, records: Float64Array) => ({
      device_id: deviceId,
      day,
      group_count: records.length / SUMMARY_RECORD,
      data: Buffer.from(records.buffer, records.byteOffset, records.byteLength),
    });
    if (this.sqlite) {
      const sqlite = this.sqlite;
      const dayKeys = sqlite.prepare(keysOf(this.db, 0, 0).compile().sql).raw(true);
      const next = sqlite.prepare('select pick_time from fixes where device_id = ? and pick_time >= ? order by pick_time limit 1').pluck();
      const insert = sqlite.prepare('insert or replace into fix_group_days (device_id, day, group_count, data) values (?, ?, ?, ?)');
      const build = sqlite.transaction(() => {
        for (let i = 0; i < wanted.length; ) {
          const day = wanted[i]!;
          const keys = dayKeys.all(deviceId, day * DAY_MS, (day + 1) * DAY_MS - 1) as SummaryKey[];
          if (keys.length > 0) {
            out.set(day, summarise(keys));
            i++;
            continue;
          }
          const t = next.get(deviceId, (day + 1) * DAY_MS) as number | undefined;
          if (t === undefined) break;
          while (i < wanted.length && wanted[i]! < Math.floor(t / DAY_MS)) i++;
        }
        for (const [day, records] of out) {
          const v = store(day, records);
          insert.run(v.device_id, v.day, v.group_count, v.data);
        }
      });
      await this.storeUnlessBusy(build);
      return out;
    }
    try {
      await this.db
        .transaction()
        .setIsolationLevel('serializable')
        .execute(async (trx) => {
          out.clear();
          for (let i = 0; i < wanted.length; ) {
            const day = wanted[i]!;
            const rows = await keysOf(trx, day * DAY_MS, (day + 1) * DAY_MS - 1).execute();
            if (rows.length > 0) {
              out.set(day, summarise(rows.map((r) => [Number(r.pick_time), Number(r.positioned), Number(r.valid), ...SUMMARY_COLUMNS.map((c) => (r[c] === null ? null : Number(r[c])))])));
              i++;
              continue;
            }
            const t = await trx.selectFrom('fixes').select('pick_time').where('device_id', '=', deviceId).where('pick_time', '>=', (day + 1) * DAY_MS).orderBy('pick_time').limit(1).executeTakeFirst();
            if (!t) break;
            while (i < wanted.length && wanted[i]! < Math.floor(Number(t.pick_time) / DAY_MS)) i++;
          }
          const values = [...out].map(([day, records]) => store(day, records));
          for (let i = 0; i < values.length; i += 100) {
            await trx.insertInto('fix_group_days').values(values.slice(i, i + 100)).onConflict((oc) => oc.columns(['device_id', 'day']).doNothing()).execute();
          }
        });
    } catch (err) {
      if ((err as { code?: string }).code !== '40001') throw err;
    }
    return out;
  }

  /**
   * The fixes of summarised rows, each row's in time order: those with a position within a run's span,
   * or the one fix of a single row.
   */
  async spanRows(deviceId: number, spans: readonly { start: number; end: number; positioned: boolean }[]): Promise<FixRow[][]> {
    const out: FixRow[][] = [];
    for (const span of spans) {
      let q = this.db.selectFrom('fixes').select(FIX_COLUMNS).where('device_id', '=', deviceId).where('pick_time', '>=', span.start).where('pick_time', '<=', span.end);
      q = span.positioned ? q.where('lon', 'is not', null).where('lat', 'is not', null) : q.where('pick_time', '=', span.start);
      q = q.orderBy('pick_time');
      if (this.sqlite) {
        // a page's 20 rows: prepared once rather than built and prepared 20 times
        const { sql: text, parameters } = q.compile();
        out.push(this.preparedOf(this.sqlite, text).all(...parameters) as FixRow[]);
      } else out.push((await q.execute()) as FixRow[]);
    }
    return out;
  }

  /** A statement prepared once per SQL text (the few texts the averaged table's page runs many times). */
  private preparedOf(sqlite: SqliteDatabase, text: string): Statement {
    let statement = this.prepared.get(text);
    if (!statement) {
      statement = sqlite.prepare(text);
      if (this.prepared.size >= 64) this.prepared.clear();
      this.prepared.set(text, statement);
    }
    return statement;
  }

  private trackStatementOf(sqlite: SqliteDatabase): Statement<[number, number, number, number], TrackRow> {
    this.trackStatement ??= sqlite
      .prepare<[number, number, number, number], TrackRow>(
        'select pick_time, lon, lat, alt, grade, valid from fixes where device_id = ? and pick_time >= ? and pick_time <= ? and lon is not null and lat is not null and (? = 0 or valid = 1) order by pick_time',
      )
      .raw(true);
    return this.trackStatement;
  }

  /** The latest valid fix of a device. Prepared once (db/prepared.ts): last positions run it per device. */
  async last(deviceId: number, notAfter: number, notBefore: number): Promise<FixRow | undefined> {
    this.lastQuery ??= preparedQuery(this.db, 3, (device: number, before: number, after: number) =>
      this.db
        .selectFrom('fixes')
        .select(FIX_COLUMNS)
        .where('device_id', '=', device)
        .where('valid', '=', 1)
        .where('pick_time', '<=', before)
        .where('pick_time', '>=', after)
        .orderBy('pick_time', 'desc')
        .limit(1),
    );
    return (await this.lastQuery(deviceId, notAfter, notBefore))[0] as FixRow | undefined;
  }

  /**
   * The latest valid fix of each device, in the order given: on PostgreSQL one query for them all (a
   * lateral join, each device still one backward seek of its (device_id, pick_time) key), on SQLite the
   * prepared statement per device without a trip through the driver's queue for each.
   */
  async lastMany(devices: readonly { deviceId: number; notAfter: number; notBefore: number }[]): Promise<(FixRow | undefined)[]> {
    if (devices.length === 0) return [];
    if (this.sqlite) {
      this.lastStatement ??= this.sqlite.prepare(
        `select ${FIX_COLUMNS.join(', ')} from fixes where device_id = ? and valid = 1 and pick_time <= ? and pick_time >= ? order by pick_time desc limit 1`,
      );
      const statement = this.lastStatement;
      return devices.map((d) => statement.get(d.deviceId, d.notAfter, d.notBefore) as FixRow | undefined);
    }
    const { rows } = await sql<FixRow & { device_id: number }>`select f.device_id, ${sql.join(FIX_COLUMNS.map((c) => sql.ref(`f.${c}`)))}
      from unnest(${devices.map((d) => d.deviceId)}::bigint[], ${devices.map((d) => d.notAfter)}::bigint[], ${devices.map((d) => d.notBefore)}::bigint[]) as w(device_id, not_after, not_before)
      cross join lateral (
        select * from fixes where fixes.device_id = w.device_id and fixes.valid = 1 and fixes.pick_time <= w.not_after and fixes.pick_time >= w.not_before
        order by fixes.pick_time desc limit 1
      ) as f`.execute(this.db);
    const byDevice = new Map(rows.map((r) => [Number(r.device_id), r]));
    return devices.map((d) => {
      const row = byDevice.get(d.deviceId);
      if (!row) return undefined;
      const { device_id: _, ...fix } = row;
      return fix as FixRow;
    });
  }

  /** Marks fixes invalid (only those not marked before); one transaction; answers how many changed. */
  async markInvalid(deviceId: number, times: readonly number[], from: number, to: number, userId: number, now: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let changed = 0;
      for (let i = 0; i < times.length; i += 500) {
        const chunk = times.slice(i, i + 500);
        const result = await trx
          .updateTable('fixes')
          .set({ valid: 0, invalid_by: userId, invalid_at: now })
          .where('device_id', '=', deviceId)
          .where('pick_time', 'in', chunk)
          .where('pick_time', '>=', from)
          .where('pick_time', '<=', to)
          .where('invalid_by', 'is', null)
          .executeTakeFirst();
        changed += Number(result.numUpdatedRows);
      }
      await markTrackDaysStale(trx, deviceId, fixDays(times));
      return changed;
    });
  }

  private converted(deviceId: number, from: number, to: number) {
    return this.db
      .selectFrom('fixes')
      .where('fixes.device_id', '=', deviceId)
      .where('fixes.pick_time', '>=', from)
      .where('fixes.pick_time', '<=', to)
      .where('fixes.invalid_by', 'is not', null);
  }

  /** Days whose segments writes made stale, oldest devices first, with the device's IMEI. */
  async dirtyDays(limit: number): Promise<{ deviceId: number; imei: string; secondLevel: boolean; day: number }[]> {
    const rows = await this.db
      .selectFrom('track_segment_dirty as t')
      .innerJoin('devices as d', 'd.id', 't.device_id')
      .select(['t.device_id', 't.day', 'd.imei', 'd.second_level_fix'])
      .orderBy('t.device_id')
      .orderBy('t.day')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ deviceId: Number(r.device_id), imei: r.imei, secondLevel: Number(r.second_level_fix) === 1, day: Number(r.day) }));
  }

  /** Who marked fixes: user id → nickname (or account). */
  async operatorNames(userIds: readonly number[]): Promise<Map<number, string>> {
    if (userIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('users')
      .select(['id', sql<string>`coalesce(nullif(nick_name, ''), user_name)`.as('name')])
      .where('id', 'in', [...userIds])
      .execute();
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  }

  async convertedCount(deviceId: number, from: number, to: number): Promise<number> {
    const row = await this.converted(deviceId, from, to).select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async convertedPage(deviceId: number, from: number, to: number, limit: number, offset: number): Promise<ConvertedRow[]> {
    return (await this.converted(deviceId, from, to)
      .leftJoin('users as u', 'u.id', 'fixes.invalid_by')
      .select(FIX_COLUMNS.map((c) => `fixes.${c}` as const))
      .select(sql<string | null>`coalesce(nullif(u.nick_name, ''), u.user_name)`.as('operator'))
      .select('fixes.invalid_reason')
      .orderBy('fixes.invalid_at', 'desc')
      .orderBy('fixes.pick_time', 'desc')
      .limit(limit)
      .offset(offset)
      .execute()) as ConvertedRow[];
  }
}
