import type SQLite from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../db/schema.js';
import type { BehaviorDraft, PoiDraft } from './decode.js';

/** What a batch's field records added: stored POIs and observations (the rest were already stored). */
export interface FieldCounts {
  pois: number;
  behaviors: number;
}

/**
 * The write side of field records, inside the batch's transaction (batch-repository.ts): POIs and
 * observations, each stored once (a POI by device and time, an observation by device, start and recorder),
 * and each observation's motion resolved against the device's organisation's list: a default by its code,
 * else the organisation's motion of that name (any case), else a new motion of the organisation.
 */
export class SqliteFieldWrites {
  private readonly poi: SQLite.Statement;
  private readonly behavior: SQLite.Statement;
  private readonly defaultMotion: SQLite.Statement;
  private readonly orgMotion: SQLite.Statement;
  private readonly newMotion: SQLite.Statement;

  constructor(sqlite: SQLite.Database) {
    this.poi = sqlite.prepare(
      `insert or ignore into poi_records (device_id, record_time, recorder, recorder_name, name, target, lon, lat, alt, address, description, photos, received_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.behavior = sqlite.prepare(
      `insert or ignore into behavior_records (device_id, start_time, end_time, recorder, recorder_name, lon, lat, motion_id, received_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.defaultMotion = sqlite.prepare('select id from motions where org_id is null and code = lower(?)').pluck();
    this.orgMotion = sqlite
      .prepare('select id from motions where org_id = (select org_id from devices where id = ?) and lower(name) = lower(?) order by id limit 1')
      .pluck();
    this.newMotion = sqlite.prepare('insert into motions (org_id, code, name, created_at) values ((select org_id from devices where id = ?), null, ?, ?)');
  }

  write(deviceId: number, pois: readonly PoiDraft[], behaviors: readonly BehaviorDraft[], now: number): FieldCounts {
    const c: FieldCounts = { pois: 0, behaviors: 0 };
    for (const { row: p } of pois) {
      c.pois += this.poi.run(deviceId, p.record_time, p.recorder, p.recorder_name, p.name, p.target, p.lon, p.lat, p.alt, p.address, p.description, p.photos, now).changes;
    }
    for (const b of behaviors) {
      const motion = this.motion(deviceId, b.motion, now);
      c.behaviors += this.behavior.run(deviceId, b.start_time, b.end_time, b.recorder, b.recorder_name, b.lon, b.lat, motion, now).changes;
    }
    return c;
  }

  private motion(deviceId: number, name: string, now: number): number {
    const id = (this.defaultMotion.get(name) ?? this.orgMotion.get(deviceId, name)) as number | bigint | undefined;
    if (id !== undefined) return Number(id);
    return Number(this.newMotion.run(deviceId, name, now).lastInsertRowid);
  }
}

export async function writeFieldPostgres(
  trx: Kysely<Database>,
  deviceId: number,
  pois: readonly PoiDraft[],
  behaviors: readonly BehaviorDraft[],
  now: number,
): Promise<FieldCounts> {
  const c: FieldCounts = { pois: 0, behaviors: 0 };
  if (pois.length > 0) {
    const r = await trx
      .insertInto('poi_records')
      .values(pois.map(({ row }) => ({ device_id: deviceId, received_at: now, ...row })))
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    c.pois = Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  if (behaviors.length === 0) return c;
  const device = await trx.selectFrom('devices').select('org_id').where('id', '=', deviceId).executeTakeFirstOrThrow();
  const orgId = Number(device.org_id);
  const motions = new Map<string, number>();
  for (const b of behaviors) {
    const key = b.motion.toLowerCase();
    let id = motions.get(key);
    if (id === undefined) {
      const found = await trx
        .selectFrom('motions')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('org_id', 'is', null), eb('code', '=', key)]),
            eb.and([eb('org_id', '=', orgId), eb(sql<string>`lower(name)`, '=', key)]),
          ]),
        )
        // A default first, as on SQLite.
        .orderBy(sql`org_id is null`, 'desc')
        .orderBy('id')
        .executeTakeFirst();
      id = found
        ? Number(found.id)
        : Number((await trx.insertInto('motions').values({ org_id: orgId, code: null, name: b.motion, created_at: now }).returning('id').executeTakeFirstOrThrow()).id);
      motions.set(key, id);
    }
    const r = await trx
      .insertInto('behavior_records')
      .values({ device_id: deviceId, received_at: now, start_time: b.start_time, end_time: b.end_time, recorder: b.recorder, recorder_name: b.recorder_name, lon: b.lon, lat: b.lat, motion_id: id })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    c.behaviors += Number(r.numInsertedOrUpdatedRows ?? 0);
  }
  return c;
}
