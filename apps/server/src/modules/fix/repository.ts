import { type Kysely, sql, type SelectQueryBuilder } from 'kysely';
import type { Database as SqliteDatabase, Statement } from 'better-sqlite3';
import type { Database, FixTable } from '../../db/schema.js';
import { DAY_MS, fixDays, markTrackDaysStale } from '../../db/shared-writes.js';

/** The numeric position filters of §9 (each keeps values greater than it) and the grade set. */
export interface FixQuery {
  deviceId: number;
  from: number;
  to: number;
  speed?: number | undefined;
  altitude?: number | undefined;
  temperature?: number | undefined;
  voltage?: number | undefined;
  activity?: number | undefined;
  /** Grades to keep; undefined keeps every fix, graded or not. */
  grades?: readonly number[] | undefined;
  validOnly?: boolean | undefined;
}

export const FIX_COLUMNS = [
  'pick_time', 'lon', 'lat', 'alt', 'speed', 'course', 'temperature', 'activity', 'voltage', 'channel', 'satellites', 'hdop', 'vdop',
  'grade', 'valid', 'tx_time', 'invalid_by', 'invalid_at',
] as const;

/** A fix as the console reads it: the table's columns but the device, receipt time and extras. */
export type FixRow = Pick<FixTable, (typeof FIX_COLUMNS)[number]>;

export type ConvertedRow = FixRow & { operator: string | null; invalid_reason: string | null };

/** A fix as its detail reads it: the console's columns and the extras. */
export type DetailRow = FixRow & Pick<FixTable, 'extra'>;

/** A fix as the averaged table first reads it: time, has a position (1/0), valid (1/0), sort value. */
export type FixKey = [time: number, positioned: number, valid: number, value: number | null];

/** Sortable columns of the fixes table. */
export const SORT_COLUMNS = {
  PickTime: 'pick_time', Speed: 'speed', Altitude: 'alt', Temperature: 'temperature', Exercise: 'activity', Voltage: 'voltage',
  Satellites: 'satellites', HDOP: 'hdop', PrecisionGrade: 'grade', TransmissionTime: 'tx_time',
} as const satisfies Record<string, (typeof FIX_COLUMNS)[number]>;
export type SortColumn = (typeof SORT_COLUMNS)[keyof typeof SORT_COLUMNS];

export { DAY_MS };

/** Columns of a track point, in this order, for the bulk calls. */
export type TrackRow = [time: number, lon: number, lat: number, alt: number | null, grade: number | null, valid: number];

/**
 * Fixes for the console (the only Kysely user of the fix module). Every query names one device and a
 * pick-time range, so it is a range scan of the primary key (device_id, pick_time).
 */
export class FixRepository {
  /** Prepared once: the bulk track read on SQLite skips Kysely's per-row objects (bench/tracks). */
  private trackStatement: Statement<[number, number, number, number], TrackRow> | undefined;
  private segmentInsert: Statement | undefined;
  private dirtyDelete: Statement | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sqlite?: SqliteDatabase,
  ) {}

  private filtered<O>(q: SelectQueryBuilder<Database, 'fixes', O>, f: FixQuery): SelectQueryBuilder<Database, 'fixes', O> {
    let out = q.where('fixes.device_id', '=', f.deviceId).where('fixes.pick_time', '>=', f.from).where('fixes.pick_time', '<=', f.to);
    if (f.speed !== undefined) out = out.where('fixes.speed', '>', f.speed);
    if (f.altitude !== undefined) out = out.where('fixes.alt', '>', f.altitude);
    if (f.temperature !== undefined) out = out.where('fixes.temperature', '>', f.temperature);
    if (f.voltage !== undefined) out = out.where('fixes.voltage', '>', f.voltage);
    if (f.activity !== undefined) out = out.where('fixes.activity', '>', f.activity);
    if (f.grades) out = out.where('fixes.grade', 'in', f.grades.length > 0 ? [...f.grades] : [-1]);
    if (f.validOnly) out = out.where('fixes.valid', '=', 1);
    return out;
  }

  async count(f: FixQuery): Promise<number> {
    const row = await this.filtered(this.db.selectFrom('fixes').select((eb) => eb.fn.countAll<number | string>().as('n')), f).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async page(f: FixQuery, sort: SortColumn, descending: boolean, limit: number, offset: number): Promise<FixRow[]> {
    let q = this.filtered(this.db.selectFrom('fixes').select(FIX_COLUMNS), f);
    // NULLs last whichever way (a fix without speed is not "the slowest"); pick_time breaks ties.
    if (sort !== 'pick_time') q = q.orderBy(sql`${sql.ref(`fixes.${sort}`)} is null`).orderBy(`fixes.${sort}`, descending ? 'desc' : 'asc');
    q = q.orderBy('fixes.pick_time', descending ? 'desc' : 'asc');
    return (await q.limit(limit).offset(offset).execute()) as FixRow[];
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
      return this.sqlite.prepare(text).raw(true).all(...parameters) as FixKey[];
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
    const simple = f.speed === undefined && f.altitude === undefined && f.temperature === undefined && f.voltage === undefined && f.activity === undefined && !f.grades;
    if (this.sqlite && simple) return this.trackStatementOf(this.sqlite).all(f.deviceId, f.from, f.to, f.validOnly ? 1 : 0);
    const rows = await this.filtered(this.db.selectFrom('fixes').select(['pick_time', 'lon', 'lat', 'alt', 'grade', 'valid']), f)
      .where('fixes.lon', 'is not', null)
      .where('fixes.lat', 'is not', null)
      .orderBy('fixes.pick_time')
      .execute();
    return rows.map((r) => [Number(r.pick_time), r.lon as number, r.lat as number, r.alt, r.grade, r.valid]);
  }

  /** Stored segments of whole UTC days [dayFrom, dayTo]: day → point count and the encoded Track. */
  async segments(deviceId: number, dayFrom: number, dayTo: number): Promise<Map<number, { count: number; data: Uint8Array }>> {
    const rows = await this.db
      .selectFrom('track_segments')
      .select(['day', 'point_count', 'data'])
      .where('device_id', '=', deviceId)
      .where('day', '>=', dayFrom)
      .where('day', '<=', dayTo)
      .execute();
    return new Map(rows.map((r) => [Number(r.day), { count: Number(r.point_count), data: r.data }]));
  }

  /**
   * Builds the segments of the given days from the fixes and stores them, reading and writing in one
   * transaction so that a concurrent write to a day (which deletes its segment) can't leave a stale
   * one behind: on SQLite an immediate transaction, on PostgreSQL a serializable one whose conflict
   * just skips storing (the answer is still built from the rows read).
   */
  async buildSegments(
    deviceId: number,
    days: readonly number[],
    encode: (rows: TrackRow[]) => Uint8Array,
  ): Promise<Map<number, { count: number; data: Uint8Array }>> {
    const out = new Map<number, { count: number; data: Uint8Array }>();
    if (days.length === 0) return out;
    const wanted = new Set(days);
    const first = Math.min(...days);
    const last = Math.max(...days);
    const split = (rows: TrackRow[]) => {
      let i = 0;
      for (let day = first; day <= last; day++) {
        const end = (day + 1) * DAY_MS;
        let j = i;
        while (j < rows.length && rows[j]![0] < end) j++;
        if (wanted.has(day)) out.set(day, { count: j - i, data: encode(rows.slice(i, j)) });
        i = j;
      }
    };
    const query: FixQuery = { deviceId, from: first * DAY_MS, to: (last + 1) * DAY_MS - 1 };
    if (this.sqlite) {
      const sqlite = this.sqlite;
      const insert = (this.segmentInsert ??= sqlite.prepare('insert or replace into track_segments (device_id, day, point_count, data) values (?, ?, ?, ?)'));
      const clean = (this.dirtyDelete ??= sqlite.prepare('delete from track_segment_dirty where device_id = ? and day = ?'));
      const read = this.trackStatementOf(sqlite);
      await this.db.connection().execute(async () =>
        sqlite.transaction(() => {
          split(read.all(query.deviceId, query.from, query.to, 0));
          for (const [day, seg] of out) {
            insert.run(deviceId, day, seg.count, Buffer.from(seg.data.buffer, seg.data.byteOffset, seg.data.byteLength));
            clean.run(deviceId, day);
          }
        }).immediate(),
      );
      return out;
    }
    try {
      await this.db
        .transaction()
        .setIsolationLevel('serializable')
        .execute(async (trx) => {
          out.clear();
          split(await new FixRepository(trx).track(query));
          const values = [...out].map(([day, seg]) => ({ device_id: deviceId, day, point_count: seg.count, data: seg.data }));
          for (let i = 0; i < values.length; i += 500) {
            await trx.insertInto('track_segments').values(values.slice(i, i + 500)).onConflict((oc) => oc.columns(['device_id', 'day']).doNothing()).execute();
          }
          for (let i = 0; i < days.length; i += 500) {
            await trx.deleteFrom('track_segment_dirty').where('device_id', '=', deviceId).where('day', 'in', days.slice(i, i + 500)).execute();
          }
        });
    } catch (err) {
      // 40001: a write to these days committed meanwhile. The rows read are still a consistent answer.
      if ((err as { code?: string }).code !== '40001') throw err;
    }
    return out;
  }

  private trackStatementOf(sqlite: SqliteDatabase): Statement<[number, number, number, number], TrackRow> {
    this.trackStatement ??= sqlite
      .prepare<[number, number, number, number], TrackRow>(
        'select pick_time, lon, lat, alt, grade, valid from fixes where device_id = ? and pick_time >= ? and pick_time <= ? and lon is not null and lat is not null and (? = 0 or valid = 1) order by pick_time',
      )
      .raw(true);
    return this.trackStatement;
  }

  /** The latest valid fix of a device. */
  async last(deviceId: number, notAfter: number, notBefore: number): Promise<FixRow | undefined> {
    return (await this.db
      .selectFrom('fixes')
      .select(FIX_COLUMNS)
      .where('device_id', '=', deviceId)
      .where('valid', '=', 1)
      .where('pick_time', '<=', notAfter)
      .where('pick_time', '>=', notBefore)
      .orderBy('pick_time', 'desc')
      .limit(1)
      .executeTakeFirst()) as FixRow | undefined;
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
  async dirtyDays(limit: number): Promise<{ deviceId: number; imei: string; day: number }[]> {
    const rows = await this.db
      .selectFrom('track_segment_dirty as t')
      .innerJoin('devices as d', 'd.id', 't.device_id')
      .select(['t.device_id', 't.day', 'd.imei'])
      .orderBy('t.device_id')
      .orderBy('t.day')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ deviceId: Number(r.device_id), imei: r.imei, day: Number(r.day) }));
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
