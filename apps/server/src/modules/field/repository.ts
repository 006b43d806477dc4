import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Selectable } from 'kysely';
import type { BehaviorRecordTable, Database, MotionTable, PoiRecordTable } from '../../db/schema.js';

/** A device's records whose time lies in [from, to] (epoch ms, both ends included). */
export interface FieldQuery {
  deviceId: number;
  from: number;
  to: number;
}

export interface BehaviorFilter {
  motionId?: number | undefined;
  recorder?: number | undefined;
}

export interface PageOrder<C extends string> {
  column: C;
  descending: boolean;
  limit: number;
  offset: number;
}

export type PoiRow = Omit<Selectable<PoiRecordTable>, 'device_id' | 'received_at'>;
export type MotionRow = Pick<Selectable<MotionTable>, 'id' | 'org_id' | 'code' | 'name'>;
export type BehaviorRow = Omit<Selectable<BehaviorRecordTable>, 'device_id' | 'received_at' | 'motion_id'> & { motion: MotionRow };
export type PoiColumn = 'record_time' | 'name';
export type BehaviorColumn = 'start_time' | 'end_time';

/**
 * Reads of field records (poi_records, behavior_records, motions); the ingest writes them
 * (ingest/field-writes.ts). A device's range is one index range: (device_id, record_time) and
 * (device_id, start_time, recorder).
 */
export class FieldRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private pois(q: FieldQuery) {
    return this.db.selectFrom('poi_records').where('device_id', '=', q.deviceId).where('record_time', '>=', q.from).where('record_time', '<=', q.to);
  }

  async poiCount(q: FieldQuery): Promise<number> {
    const r = await this.pois(q).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async poiPage(q: FieldQuery, order: PageOrder<PoiColumn>): Promise<PoiRow[]> {
    const direction = order.descending ? 'desc' : 'asc';
    let query = this.pois(q)
      .select(['id', 'record_time', 'recorder', 'recorder_name', 'name', 'target', 'lon', 'lat', 'alt', 'address', 'description', 'photos'])
      .orderBy(order.column, direction);
    if (order.column !== 'record_time') query = query.orderBy('record_time', direction);
    const rows = await query.limit(order.limit).offset(order.offset).execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), record_time: Number(r.record_time), recorder: Number(r.recorder) }));
  }

  /** Whether a POI of the device in the range shows the photo of this name. */
  async hasPhoto(q: FieldQuery, name: string): Promise<boolean> {
    // Names are 64 hex digits and a type (checked by the caller): no LIKE wildcard can be in one.
    const r = await this.pois(q).select('id').where('photos', 'like', `%"${name}"%`).limit(1).executeTakeFirst();
    return r !== undefined;
  }

  private behaviors(q: FieldQuery, f: BehaviorFilter) {
    let query = this.db
      .selectFrom('behavior_records as b')
      .where('b.device_id', '=', q.deviceId)
      .where('b.start_time', '>=', q.from)
      .where('b.start_time', '<=', q.to);
    if (f.motionId !== undefined) query = query.where('b.motion_id', '=', f.motionId);
    if (f.recorder !== undefined) query = query.where('b.recorder', '=', f.recorder);
    return query;
  }

  async behaviorCount(q: FieldQuery, f: BehaviorFilter): Promise<number> {
    const r = await this.behaviors(q, f).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async behaviorPage(q: FieldQuery, f: BehaviorFilter, order: PageOrder<BehaviorColumn>): Promise<BehaviorRow[]> {
    const direction = order.descending ? 'desc' : 'asc';
    let query = this.behaviors(q, f)
      .innerJoin('motions as m', 'm.id', 'b.motion_id')
      .select(['b.id', 'b.start_time', 'b.end_time', 'b.recorder', 'b.recorder_name', 'b.lon', 'b.lat'])
      .select(['m.id as motion_id', 'm.org_id as motion_org', 'm.code as motion_code', 'm.name as motion_name'])
      .orderBy(`b.${order.column}`, direction);
    if (order.column !== 'start_time') query = query.orderBy('b.start_time', direction);
    // Ties broken by the recorder: (device, start, recorder) is the unique index, so the newest page is read
    // off the index in order instead of sorting the range.
    const rows = await query.orderBy('b.recorder', direction).limit(order.limit).offset(order.offset).execute();
    return rows.map((r) => ({
      id: Number(r.id),
      start_time: Number(r.start_time),
      end_time: Number(r.end_time),
      recorder: Number(r.recorder),
      recorder_name: r.recorder_name,
      lon: r.lon,
      lat: r.lat,
      motion: { id: Number(r.motion_id), org_id: r.motion_org === null ? null : Number(r.motion_org), code: r.motion_code, name: r.motion_name },
    }));
  }

  /** The organisation's motions: the defaults first (in their order), then its own by name. */
  async motions(orgId: number): Promise<MotionRow[]> {
    const rows = await this.db
      .selectFrom('motions')
      .select(['id', 'org_id', 'code', 'name'])
      .where((eb) => eb.or([eb('org_id', 'is', null), eb('org_id', '=', orgId)]))
      .orderBy(sql`org_id is null`, 'desc')
      .orderBy(sql`case when org_id is null then '' else lower(name) end`)
      .orderBy('id')
      .execute();
    return rows.map((r) => ({ ...r, id: Number(r.id), org_id: r.org_id === null ? null : Number(r.org_id) }));
  }

  /** The recorders of the device's observations in the range, each once, by id. */
  async recorders(q: FieldQuery): Promise<{ recorder: number; recorder_name: string }[]> {
    const rows = await this.behaviors(q, {})
      .select(['b.recorder', (eb) => eb.fn.max('b.recorder_name').as('recorder_name')])
      .groupBy('b.recorder')
      .orderBy('b.recorder')
      .execute();
    return rows.map((r) => ({ recorder: Number(r.recorder), recorder_name: String(r.recorder_name) }));
  }
}
