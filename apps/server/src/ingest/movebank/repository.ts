import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface TagDevice {
  id: number;
  org_id: number;
  attributes: string;
  sensors: number;
}

/** What the Movebank import reads and writes about devices besides their records. */
export class MovebankRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async findByImei(imei: string): Promise<TagDevice | undefined> {
    const r = await this.db.selectFrom('devices').select(['id', 'org_id', 'attributes', 'sensors']).where('imei', '=', imei).executeTakeFirst();
    return r && { id: Number(r.id), org_id: Number(r.org_id), attributes: r.attributes, sensors: Number(r.sensors) };
  }

  async setAttributes(deviceId: number, attributes: string): Promise<void> {
    await this.db.updateTable('devices').set({ attributes }).where('id', '=', deviceId).execute();
  }

  /** Adds sensor flags (bitwise or), keeping those the device has. */
  async addSensors(deviceId: number, mask: number): Promise<void> {
    await this.db
      .updateTable('devices')
      .set({ sensors: sql<number>`sensors | ${mask}` })
      .where('id', '=', deviceId)
      .execute();
  }

  async setMountInfo(deviceId: number, info: string, now: number): Promise<void> {
    await this.db
      .insertInto('mount_info')
      .values({ device_id: deviceId, info, updated_at: now })
      .onConflict((oc) => oc.column('device_id').doUpdateSet({ info, updated_at: now }))
      .execute();
  }

  async mountInfo(deviceId: number): Promise<string | undefined> {
    const r = await this.db.selectFrom('mount_info').select('info').where('device_id', '=', deviceId).executeTakeFirst();
    return r?.info;
  }
}
