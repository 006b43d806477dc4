import { type Kysely, sql } from 'kysely';
import { DeviceStatus } from '@wildtrack/contract';
import type { Database, NewDevice } from '../../db/schema.js';
import { silentAfterMs } from '../../domain/device-events.js';

/** Device records as the registry, imports and animal info write them (not the console's caller view). */
export class DeviceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(device: NewDevice): Promise<number> {
    const r = await this.db.insertInto('devices').values(device).returning('id').executeTakeFirstOrThrow();
    await bumpTree(this.db, { orgId: device.org_id });
    return Number(r.id);
  }

  findByImei(imei: string) {
    return this.db.selectFrom('devices').selectAll().where('imei', '=', imei).executeTakeFirst();
  }

  async orgId(name: string): Promise<number | undefined> {
    const r = await this.db.selectFrom('organisations').select('id').where('name', '=', name).executeTakeFirst();
    return r ? Number(r.id) : undefined;
  }

  async samplesOrg(): Promise<number | undefined> {
    const r = await this.db.selectFrom('organisations').select('id').where('is_samples', '=', 1).executeTakeFirst();
    return r ? Number(r.id) : undefined;
  }

  async createOrg(name: string, isSamples: boolean, now: number): Promise<number> {
    const r = await this.db
      .insertInto('organisations')
      .values({ name, parent_unit: '', created_at: now, is_samples: isSamples ? 1 : 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  /** Animal info (MountInfo, §3) as the JSON document it is kept as. */
  async setMountInfo(deviceId: number, info: string, now: number): Promise<void> {
    await this.db
      .insertInto('mount_info')
      .values({ device_id: deviceId, info, updated_at: now })
      .onConflict((oc) => oc.column('device_id').doUpdateSet({ info, updated_at: now }))
      .execute();
  }

  /** The device's work status as it reported it at `reportedAt` (device_work_status, JSON). */
  async setWorkStatus(deviceId: number, settings: string, reportedAt: number): Promise<void> {
    await this.db
      .insertInto('device_work_status')
      .values({ device_id: deviceId, settings, updated_at: reportedAt })
      .onConflict((oc) => oc.column('device_id').doUpdateSet({ settings, updated_at: reportedAt }))
      .execute();
  }

  async mountInfo(deviceId: number): Promise<string | undefined> {
    const r = await this.db.selectFrom('mount_info').select('info').where('device_id', '=', deviceId).executeTakeFirst();
    return r?.info;
  }

  async setAttributes(deviceId: number, attributes: string): Promise<void> {
    await this.db.updateTable('devices').set({ attributes }).where('id', '=', deviceId).execute();
  }

  /** Adds sensor flags (bitwise or), keeping those the device has. */
  /**
   * Archives a device at work (status Working) whose last record is older than its schedule allows as of
   * `now` (the silent mark's rule, silentAfterMs): its status becomes Retrieved (§4 "picked up/retrieved",
   * shown as archived; docs/api.md "A device's lifecycle"). A device that never reported, or that reports
   * on time, is left as it is. Answers whether it was archived.
   */
  async archiveIfPast(deviceId: number, now: number): Promise<boolean> {
    const d = await this.db
      .selectFrom('devices as d')
      .leftJoin('device_work_status as w', 'w.device_id', 'd.id')
      .select(['d.status', 'd.last_work_time', 'w.settings'])
      .where('d.id', '=', deviceId)
      .executeTakeFirst();
    if (!d || Number(d.status) !== DeviceStatus.Working || d.last_work_time === null) return false;
    if (now - Number(d.last_work_time) <= silentAfterMs(d.settings)) return false;
    const r = await this.db.updateTable('devices').set({ status: DeviceStatus.Retrieved }).where('id', '=', deviceId).where('status', '=', DeviceStatus.Working).executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await bumpTree(this.db, { deviceId });
    return true;
  }

  async addSensors(deviceId: number, mask: number): Promise<void> {
    await this.db
      .updateTable('devices')
      .set({ sensors: sql<number>`sensors | ${mask}` })
      .where('id', '=', deviceId)
      .execute();
    await bumpTree(this.db, { deviceId });
  }

  /** Whether the user is their organisation's primary user (IsPrimary). */
  async isPrimary(orgId: number, userId: number): Promise<boolean> {
    const r = await this.db.selectFrom('users').select('is_primary').where('id', '=', userId).where('org_id', '=', orgId).executeTakeFirst();
    return Number(r?.is_primary ?? 0) === 1;
  }

  async folderInOrg(folderId: number, orgId: number): Promise<boolean> {
    const r = await this.db.selectFrom('folders').select('id').where('id', '=', folderId).where('org_id', '=', orgId).executeTakeFirst();
    return r !== undefined;
  }

  async findOrCreateFolder(orgId: number, name: string, now: number): Promise<number> {
    const r = await this.db.selectFrom('folders').select('id').where('org_id', '=', orgId).where('parent_id', 'is', null).where('name', '=', name).executeTakeFirst();
    if (r) return Number(r.id);
    const created = await this.db.insertInto('folders').values({ org_id: orgId, parent_id: null, name, created_at: now }).returning('id').executeTakeFirstOrThrow();
    return Number(created.id);
  }

  /** Devices with their record counts, for the operator's list. */
  list(orgId?: number) {
    let q = this.db
      .selectFrom('devices')
      .innerJoin('organisations', 'organisations.id', 'devices.org_id')
      .leftJoin('folders', 'folders.id', 'devices.folder_id')
      .select((eb) => [
        'devices.id',
        'devices.imei',
        'devices.type',
        'devices.caption',
        'devices.model',
        'devices.sensors',
        'devices.status',
        'devices.example',
        'devices.last_work_time',
        'organisations.name as org_name',
        'folders.name as folder_name',
        eb.selectFrom('fixes').whereRef('fixes.device_id', '=', 'devices.id').select((e) => e.fn.countAll<number>().as('n')).as('fixes'),
        eb.selectFrom('sensor_records').whereRef('sensor_records.device_id', '=', 'devices.id').select((e) => e.fn.countAll<number>().as('n')).as('sensor_records'),
        eb.selectFrom('acc_bursts').whereRef('acc_bursts.device_id', '=', 'devices.id').select((e) => e.fn.countAll<number>().as('n')).as('bursts'),
        eb.selectFrom('media_records').whereRef('media_records.device_id', '=', 'devices.id').select((e) => e.fn.countAll<number>().as('n')).as('media'),
      ])
      .orderBy('devices.id');
    if (orgId !== undefined) q = q.where('devices.org_id', '=', orgId);
    return q.execute();
  }
}

/** Marks the organisation's tree rows as changed (the tree cache of DeviceGateRepository). */
export async function bumpTree(db: Kysely<Database>, of: { orgId: number } | { deviceId: number }): Promise<{ orgId: number; version: number } | undefined> {
  const q = db.updateTable('organisations').set({ tree_version: sql<number>`tree_version + 1` });
  const r = await ('orgId' in of ? q.where('id', '=', of.orgId) : q.where('id', '=', db.selectFrom('devices').select('org_id').where('id', '=', of.deviceId)))
    .returning(['id', 'tree_version'])
    .executeTakeFirst();
  return r && { orgId: Number(r.id), version: Number(r.tree_version) };
}
