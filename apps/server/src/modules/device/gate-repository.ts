import type SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import { parseUploadUrl } from '@wildtrack/contract';
import { recordStatusEvent } from '../../db/event-writes.js';
import { preparedQuery } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { bumpTree } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

export interface TreeDeviceRow {
  id: number;
  org_id: number;
  folder_id: number | null;
  imei: string;
  type: number;
  species_type: number;
  status: number;
  sensors: number;
  instr_support: number;
  caption: string;
  example: number;
  second_level_fix: number;
  last_voltage: number | null;
  last_work_time: number | null;
  remark_name: string | null;
}

export interface SharedDeviceRow extends TreeDeviceRow {
  share_id: number;
  edit_device: number;
  remote_instr: number;
  download_data: number;
  effective_time: number;
  failure_time: number;
  data_period: 'ALL' | 'FROM' | 'WINDOW';
  data_from: number | null;
  owner_user_id: number;
  owner_name: string;
}

const TREE_COLUMNS = [
  'd.id', 'd.org_id', 'd.folder_id', 'd.imei', 'd.type', 'd.species_type', 'd.status', 'd.sensors', 'd.instr_support', 'd.caption',
  'd.example', 'd.second_level_fix', 'd.last_voltage', 'd.last_work_time',
] as const;

/** [id, folder_id, imei, type, species_type, status, sensors, instr_support, caption, example, second_level_fix, remark_name] */
export type TreeRowArray = [number, number | null, string, number, number, number, number, number, string, number, number, string | null];

/**
 * [id, imei, last_work_time, sensors, when its work-status document was written (null: never)]: what the
 * tree's marks need of a device (GetTreeState), read fresh on every call since fixes move it.
 */
export type TreeStateRow = [number, string, number | null, number, number | null];

/**
 * The device with what decides the caller's access: its organisation and an open share to the caller.
 * Prepared once (db/prepared.ts): every call that names a device runs it, and building it cost more than
 * running it (bench/load).
 */
function withAccessQuery(db: Kysely<Database>) {
  return preparedQuery(db, 3, (imei: string, userId: number, now: number) => accessSelect(db, userId, now).where('d.imei', '=', imei));
}

/**
 * The access query of several devices, prepared once too: the IMEIs are one value (a JSON array read by
 * json_each on SQLite, a text[] on PostgreSQL), so that the SQL's text does not change with their count.
 */
function withAccessManyQuery(db: Kysely<Database>, sqlite: boolean) {
  return preparedQuery(db, 3, (imeis: string | string[], userId: number, now: number) => accessSelect(db, userId, now).where(imeisIn(sqlite, imeis)));
}

/**
 * withAccessManyQuery with only the columns of the access decision and a device's name (BRIEF_COLUMNS): last
 * positions name up to 50 devices, and every device column of each cost more than the rest of its access
 * query (bench/load).
 */
function withBriefAccessManyQuery(db: Kysely<Database>, sqlite: boolean) {
  return preparedQuery(db, 3, (imeis: string | string[], userId: number, now: number) =>
    accessJoins(db, userId, now).select([...BRIEF_COLUMNS, ...ACCESS_COLUMNS]).orderBy('s.failure_time', 'desc').where(imeisIn(sqlite, imeis)),
  );
}

function imeisIn(sqlite: boolean, imeis: string | string[]) {
  return sqlite ? sql<boolean>`d.imei in (select value from json_each(${imeis}))` : sql<boolean>`d.imei = any(${imeis}::text[])`;
}

/** What decides the caller's access besides the device's organisation (d.org_id): see DeviceGate.resolve. */
const ACCESS_COLUMNS = [
  'o.is_samples', 'r.remark_name',
  's.id as share_id', 's.edit_device', 's.remote_instr', 's.download_data', 's.effective_time as share_effective', 's.failure_time as share_failure',
  's.data_period as share_data_period', 's.data_from as share_data_from', 's.owner_user_id', 'ou.nick_name as owner_name',
] as const;

/** A device's columns in the brief access query: its access (org_id) and what names it. */
const BRIEF_COLUMNS = ['d.id', 'd.imei', 'd.org_id', 'd.caption', 'd.second_level_fix'] as const;

/** The device with its organisation, the caller's open share and remark: the access queries' joins. */
function accessJoins(db: Kysely<Database>, userId: number, now: number) {
  return db
    .selectFrom('devices as d')
    .innerJoin('organisations as o', 'o.id', 'd.org_id')
    .leftJoin('device_shares as s', (j) =>
      j.onRef('s.device_id', '=', 'd.id').on('s.recipient_user_id', '=', userId).on('s.effective_time', '<=', now).on('s.failure_time', '>', now),
    )
    .leftJoin('users as ou', 'ou.id', 's.owner_user_id')
    .leftJoin('device_remarks as r', (j) => j.onRef('r.device_id', '=', 'd.id').on('r.user_id', '=', userId));
}

/** The access query without its device: one device (withAccessQuery) or several (withAccessMany). */
function accessSelect(db: Kysely<Database>, userId: number, now: number) {
  return accessJoins(db, userId, now)
    .leftJoin('folders as f', 'f.id', 'd.folder_id')
    .selectAll('d')
    .select([...ACCESS_COLUMNS, 'o.name as org_name', 'f.name as folder_name'])
    .orderBy('s.failure_time', 'desc');
}

/** Reads and edits behind the console's device calls: the tree, folders, access checks and details. */
/** DeviceGateRepository.detailOne's statement, built once. */
function withDetailOneQuery(db: Kysely<Database>) {
  return preparedQuery(db, 1, (id: number) =>
    db
      .selectFrom('devices as d')
      .innerJoin('organisations as o', 'o.id', 'd.org_id')
      .leftJoin('folders as f', 'f.id', 'd.folder_id')
      .leftJoin('device_work_status as w', 'w.device_id', 'd.id')
      .selectAll('d')
      .select((eb) => [
        'o.name as org_name',
        'f.name as folder_name',
        'w.settings as work_settings',
        'w.updated_at as work_at',
        eb.selectFrom('fixes').select('pick_time').whereRef('fixes.device_id', '=', 'd.id').orderBy('pick_time').limit(1).as('first_fix'),
        eb.selectFrom('fence_rules').select((e) => e.fn.countAll<number>().as('n')).whereRef('fence_rules.device_id', '=', 'd.id').as('fence_count'),
      ])
      .where('d.id', '=', id),
  );
}

export class DeviceGateRepository {
  private treeStmt: SQLite.Statement | undefined;
  private treeStateStmt: SQLite.Statement | undefined;
  private readonly treeCache = new Map<number, { version: number; rows: TreeRowArray[] }>();
  private readonly accessQuery: ReturnType<typeof withAccessQuery>;
  private readonly firstFixQuery: (deviceId: number) => Promise<{ pick_time: number }[]>;
  private readonly accessManyQuery: ReturnType<typeof withAccessManyQuery>;
  private readonly briefAccessManyQuery: ReturnType<typeof withBriefAccessManyQuery>;
  private readonly detailOneQuery: ReturnType<typeof withDetailOneQuery>;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sqlite?: SQLite.Database,
  ) {
    this.accessQuery = withAccessQuery(db);
    this.accessManyQuery = withAccessManyQuery(db, sqlite !== undefined);
    this.briefAccessManyQuery = withBriefAccessManyQuery(db, sqlite !== undefined);
    this.detailOneQuery = withDetailOneQuery(db);
    this.firstFixQuery = preparedQuery(db, 1, (deviceId: number) => db.selectFrom('fixes').select('pick_time').where('device_id', '=', deviceId).orderBy('pick_time').limit(1));
  }

  /**
   * How many fences hold a rule on each device (the tree's DeviceFence, the detail's FenceCount): one
   * point query when no fence exists at all, else one query per 500 devices.
   */
  async fenceCounts(deviceIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (deviceIds.length === 0) return out;
    if (!(await this.db.selectFrom('fence_rules').select('id').limit(1).executeTakeFirst())) return out;
    for (let i = 0; i < deviceIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('fence_rules')
        .select((eb) => ['device_id', eb.fn.countAll<number>().as('n')])
        .where('device_id', 'in', deviceIds.slice(i, i + 500))
        .groupBy('device_id')
        .execute();
      for (const r of rows) out.set(Number(r.device_id), Number(r.n));
    }
    return out;
  }

  async experienceFlag(userId: number): Promise<boolean> {
    const r = await this.db.selectFrom('user_settings').select('experience_func').where('user_id', '=', userId).executeTakeFirst();
    return r?.experience_func === 1;
  }

  async setExperienceFlag(userId: number, enabled: boolean): Promise<void> {
    await this.db.updateTable('user_settings').set({ experience_func: enabled ? 1 : 0 }).where('user_id', '=', userId).execute();
  }

  /** The device with what decides the caller's access: its organisation and an open share to the caller. */
  async withAccess(imei: string, userId: number, now: number) {
    return (await this.accessQuery(imei, userId, now))[0];
  }

  /**
   * withAccess for several devices in one query per 500 (last positions name up to a folder's devices):
   * by IMEI, the row withAccess would answer (the open share that ends last first).
   */
  async withAccessMany(imeis: readonly string[], userId: number, now: number) {
    return this.byImei(imeis, (chunk) => this.accessManyQuery(chunk, userId, now));
  }

  /** withAccessMany with only the columns of the access decision and the device's name (BRIEF_COLUMNS). */
  async withBriefAccessMany(imeis: readonly string[], userId: number, now: number) {
    return this.byImei(imeis, (chunk) => this.briefAccessManyQuery(chunk, userId, now));
  }

  /** One query per 500 IMEIs (a JSON array on SQLite); by IMEI, each device's first row (the open share that ends last). */
  private async byImei<R extends { imei: string }>(imeis: readonly string[], query: (chunk: string | string[]) => Promise<R[]>): Promise<Map<string, R>> {
    const out = new Map<string, R>();
    for (let i = 0; i < imeis.length; i += 500) {
      const chunk = imeis.slice(i, i + 500);
      for (const row of await query(this.sqlite ? JSON.stringify(chunk) : chunk)) if (!out.has(row.imei)) out.set(row.imei, row);
    }
    return out;
  }

  private treeSelect(userId: number) {
    return this.db
      .selectFrom('devices as d')
      .leftJoin('device_remarks as r', (j) => j.onRef('r.device_id', '=', 'd.id').on('r.user_id', '=', userId))
      .select([...TREE_COLUMNS, 'r.remark_name']);
  }

  /**
   * The organisation's devices as arrays in TreeRowArray order (without remark names), sorted by
   * caption: the tree's hot path (bench/tree). Kept per organisation while its tree_version stands —
   * every write of a tree field bumps it, in this process or another (the CLI, a second server) — so
   * an unchanged organisation costs one point query. The arrays are shared: callers must not change them.
   */
  async orgDeviceArrays(orgId: number): Promise<readonly TreeRowArray[]> {
    const v = await this.db.selectFrom('organisations').select('tree_version').where('id', '=', orgId).executeTakeFirst();
    const version = Number(v?.tree_version ?? 0);
    const hit = this.treeCache.get(orgId);
    if (hit && hit.version === version) return hit.rows;
    let rows: TreeRowArray[];
    if (this.sqlite) {
      // Raw arrays from a prepared statement take half the time of row objects through the builder.
      this.treeStmt ??= this.sqlite
        .prepare('select id, folder_id, imei, type, species_type, status, sensors, instr_support, caption, example, second_level_fix, null from devices where org_id = ?')
        .raw(true);
      rows = this.treeStmt.all(orgId) as TreeRowArray[];
    } else {
      const list = await this.db.selectFrom('devices as d').select(TREE_COLUMNS).where('d.org_id', '=', orgId).execute();
      rows = list.map((r) => [Number(r.id), r.folder_id === null ? null : Number(r.folder_id), r.imei, r.type, r.species_type, r.status, r.sensors, r.instr_support, r.caption, r.example, r.second_level_fix, null]);
    }
    rows.sort((a, b) => (a[8] < b[8] ? -1 : a[8] > b[8] ? 1 : 0));
    if (this.treeCache.size > 200) this.treeCache.clear();
    this.treeCache.set(orgId, { version, rows });
    return rows;
  }

  /**
   * The organisation's devices with their last fix time and the stamp of their work-status document: the
   * tree's marks for its own devices, one set query (a prepared statement returning arrays on SQLite, as
   * orgDeviceArrays).
   */
  async orgDeviceStates(orgId: number): Promise<TreeStateRow[]> {
    if (this.sqlite) {
      this.treeStateStmt ??= this.sqlite
        .prepare('select d.id, d.imei, d.last_work_time, d.sensors, w.updated_at from devices d left join device_work_status w on w.device_id = d.id where d.org_id = ?')
        .raw(true);
      return this.treeStateStmt.all(orgId) as TreeStateRow[];
    }
    return this.treeStates().where('d.org_id', '=', orgId).execute().then(toStateRows);
  }

  /** orgDeviceStates for devices by id (the experience folder's and those shared with the caller: few), 500 a query. */
  async deviceStates(ids: readonly number[]): Promise<TreeStateRow[]> {
    const out: TreeStateRow[] = [];
    for (let i = 0; i < ids.length; i += 500) out.push(...toStateRows(await this.treeStates().where('d.id', 'in', ids.slice(i, i + 500)).execute()));
    return out;
  }

  private treeStates() {
    return this.db
      .selectFrom('devices as d')
      .leftJoin('device_work_status as w', 'w.device_id', 'd.id')
      .select(['d.id', 'd.imei', 'd.last_work_time', 'd.sensors', 'w.updated_at']);
  }

  /** The user's own names for devices (few: only those they set). */
  async remarks(userId: number): Promise<Map<number, string>> {
    const rows = await this.db.selectFrom('device_remarks').select(['device_id', 'remark_name']).where('user_id', '=', userId).execute();
    return new Map(rows.map((r) => [Number(r.device_id), r.remark_name]));
  }

  sampleDevices(userId: number): Promise<TreeDeviceRow[]> {
    return this.treeSelect(userId)
      .innerJoin('organisations as o', 'o.id', 'd.org_id')
      .where('o.is_samples', '=', 1)
      .orderBy('d.id')
      .execute();
  }

  /** Devices shared with the user whose window is open now (one row per device: the latest share). */
  async sharedDevices(userId: number, orgId: number, now: number): Promise<SharedDeviceRow[]> {
    const rows = await this.treeSelect(userId)
      .innerJoin('device_shares as s', 's.device_id', 'd.id')
      .innerJoin('users as ou', 'ou.id', 's.owner_user_id')
      .select([
        's.id as share_id', 's.edit_device', 's.remote_instr', 's.download_data', 's.effective_time', 's.failure_time', 's.owner_user_id',
        's.data_period', 's.data_from', 'ou.nick_name as owner_name',
      ])
      .where('s.recipient_user_id', '=', userId)
      .where('s.effective_time', '<=', now)
      .where('s.failure_time', '>', now)
      .where('d.org_id', '!=', orgId)
      .orderBy('s.failure_time', 'desc')
      .execute();
    const seen = new Set<number>();
    return rows.filter((r) => (seen.has(Number(r.id)) ? false : (seen.add(Number(r.id)), true))) as SharedDeviceRow[];
  }

  /**
   * What an organisation holds on these devices now: each device's own organisation, and the shares open now
   * to an enabled user of `orgId` from an enabled user of the device's organisation (DeviceGate.orgAccess).
   */
  async orgGrants(orgId: number, deviceIds: readonly number[], now: number) {
    if (deviceIds.length === 0) return { devices: [], shares: [] };
    const devices = await this.db.selectFrom('devices').select(['id', 'org_id']).where('id', 'in', [...deviceIds]).execute();
    const shares = await this.db
      .selectFrom('device_shares as s')
      .innerJoin('devices as d', 'd.id', 's.device_id')
      .innerJoin('users as r', 'r.id', 's.recipient_user_id')
      .innerJoin('users as o', 'o.id', 's.owner_user_id')
      .select(['s.device_id', 's.edit_device', 's.remote_instr', 's.download_data', 's.effective_time', 's.failure_time', 's.data_period', 's.data_from', 's.owner_user_id', 'o.nick_name as owner_name'])
      .where('s.device_id', 'in', [...deviceIds])
      .where('r.org_id', '=', orgId)
      .where('r.enabled', '=', 1)
      .where('o.enabled', '=', 1)
      .whereRef('o.org_id', '=', 'd.org_id')
      .where('s.effective_time', '<=', now)
      .where('s.failure_time', '>', now)
      .execute();
    return {
      devices: devices.map((d) => ({ id: Number(d.id), orgId: Number(d.org_id) })),
      shares: shares.map((s) => ({
        deviceId: Number(s.device_id), edit: Number(s.edit_device) === 1, remote: Number(s.remote_instr) === 1, download: Number(s.download_data) === 1,
        effective: Number(s.effective_time), failure: Number(s.failure_time),
        dataPeriod: s.data_period, dataFrom: s.data_from === null ? null : Number(s.data_from), ownerId: Number(s.owner_user_id), ownerName: s.owner_name,
      })),
    };
  }

  folders(orgId: number) {
    return this.db.selectFrom('folders').select(['id', 'parent_id', 'name']).where('org_id', '=', orgId).orderBy('name').execute();
  }

  async folder(id: number, orgId: number) {
    return this.db.selectFrom('folders').select(['id', 'parent_id', 'name']).where('id', '=', id).where('org_id', '=', orgId).executeTakeFirst();
  }

  async createFolder(orgId: number, parentId: number | null, name: string, now: number): Promise<number> {
    const r = await this.db.insertInto('folders').values({ org_id: orgId, parent_id: parentId, name, created_at: now }).returning('id').executeTakeFirstOrThrow();
    return Number(r.id);
  }

  async renameFolder(id: number, name: string): Promise<void> {
    await this.db.updateTable('folders').set({ name }).where('id', '=', id).execute();
  }

  async setFolderParent(id: number, parentId: number | null): Promise<void> {
    await this.db.updateTable('folders').set({ parent_id: parentId }).where('id', '=', id).execute();
  }

  async countDevicesIn(folderIds: number[]): Promise<number> {
    if (folderIds.length === 0) return 0;
    const r = await this.db.selectFrom('devices').select((eb) => eb.fn.countAll<number>().as('n')).where('folder_id', 'in', folderIds).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Deletes folders (a subtree given leaves first) in one transaction. */
  async deleteFolders(idsLeavesFirst: number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const id of idsLeavesFirst) await trx.deleteFrom('folders').where('id', '=', id).execute();
    });
  }

  async moveDevice(deviceId: number, folderId: number | null): Promise<void> {
    await this.db.updateTable('devices').set({ folder_id: folderId }).where('id', '=', deviceId).execute();
    this.patchTree(await bumpTree(this.db, { deviceId }), deviceId, (r) => (r[1] = folderId));
  }

  /**
   * After this process changed one device: when the organisation's version moved by exactly this one
   * change, the kept rows are changed in place (no re-read of the whole organisation, bench/tree "after
   * a move"); otherwise another writer came between and the rows are dropped.
   */
  private patchTree(bumped: { orgId: number; version: number } | undefined, deviceId: number, change: (row: TreeRowArray) => void): void {
    if (!bumped) return;
    const kept = this.treeCache.get(bumped.orgId);
    if (!kept) return;
    const row = kept.version === bumped.version - 1 ? kept.rows.find((r) => r[0] === deviceId) : undefined;
    if (!row) {
      this.treeCache.delete(bumped.orgId);
      return;
    }
    const caption = row[8];
    change(row);
    if (row[8] !== caption) kept.rows.sort((a, b) => (a[8] < b[8] ? -1 : a[8] > b[8] ? 1 : 0));
    kept.version = bumped.version;
  }

  async setRemark(userId: number, deviceId: number, remark: string): Promise<void> {
    if (remark === '') {
      await this.db.deleteFrom('device_remarks').where('user_id', '=', userId).where('device_id', '=', deviceId).execute();
      return;
    }
    await this.db
      .insertInto('device_remarks')
      .values({ user_id: userId, device_id: deviceId, remark_name: remark })
      .onConflict((oc) => oc.columns(['user_id', 'device_id']).doUpdateSet({ remark_name: remark }))
      .execute();
  }

  async updateDevice(deviceId: number, values: { second_level_fix?: number; caption?: string; description?: string; species_type?: number; status?: number }, now = clockNow()): Promise<void> {
    const from = values.status === undefined ? undefined : (await this.db.selectFrom('devices').select('status').where('id', '=', deviceId).executeTakeFirst())?.status;
    await this.db.updateTable('devices').set(values).where('id', '=', deviceId).execute();
    // A status set to another one is a Device event (issue 15 item 3).
    if (from !== undefined && values.status !== undefined && Number(from) !== values.status) await recordStatusEvent(this.db, deviceId, Number(from), values.status, now);
    this.patchTree(await bumpTree(this.db, { deviceId }), deviceId, (r) => {
      if (values.caption !== undefined) r[8] = values.caption;
      if (values.species_type !== undefined) r[4] = values.species_type;
      if (values.status !== undefined) r[5] = values.status;
      if (values.second_level_fix !== undefined) r[10] = values.second_level_fix;
    });
  }

  /**
   * Each device's first fix time: one seek of the key (device_id, pick_time) per device. A grouped
   * min(pick_time) over the devices read every fix of each on SQLite (its min optimisation skips
   * grouped queries): 10,000 rows for a device's detail, the detail's whole cost (bench/load).
   */
  async firstFixTime(deviceIds: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const id of deviceIds) {
      const [row] = await this.firstFixQuery(id);
      if (row) out.set(id, Number(row.pick_time));
    }
    return out;
  }

  /** The stored work-status documents of the devices, with when each was reported (devices without one are absent). */
  async workStatusDocs(deviceIds: number[]): Promise<Map<number, { settings: string; at: number }>> {
    if (deviceIds.length === 0) return new Map();
    const rows = await this.db.selectFrom('device_work_status').select(['device_id', 'settings', 'updated_at']).where('device_id', 'in', deviceIds).execute();
    return new Map(rows.map((r) => [Number(r.device_id), { settings: r.settings, at: Number(r.updated_at) }]));
  }

  /**
   * The newest `limit` fixes of a device in [from, to] by fix time, newest first: one bounded range of the
   * fixes key (device_id, pick_time), read backwards.
   */
  async recentFixes(deviceId: number, from: number, to: number, limit: number) {
    const rows = await this.db
      .selectFrom('fixes')
      .select(['pick_time', 'received_at', 'tx_time', 'voltage'])
      .where('device_id', '=', deviceId)
      .where('pick_time', '>=', from)
      .where('pick_time', '<=', to)
      .orderBy('pick_time', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({
      pick_time: Number(r.pick_time),
      received_at: Number(r.received_at),
      tx_time: r.tx_time === null ? null : Number(r.tx_time),
      voltage: r.voltage === null ? null : Number(r.voltage),
    }));
  }

  async setWorkStatusDoc(deviceId: number, settings: string, now: number): Promise<void> {
    await this.db
      .insertInto('device_work_status')
      .values({ device_id: deviceId, settings, updated_at: now })
      .onConflict((oc) => oc.column('device_id').doUpdateSet({ settings, updated_at: now }))
      .execute();
  }

  /** IMEIs of devices of the picture's own organisation whose animal info shows it (another's device showing it gives no access). */
  async devicesShowingImage(url: string): Promise<string[]> {
    const upload = parseUploadUrl(url);
    if (!upload) return [];
    const rows = await this.db
      .selectFrom('mount_info as m')
      .innerJoin('devices as d', 'd.id', 'm.device_id')
      .select('d.imei')
      .where('d.org_id', '=', Number(upload.org))
      .where('m.info', 'like', `%${url.replace(/[%_]/g, '')}%`)
      .execute();
    return rows.map((r) => r.imei);
  }

  /** Full rows of the given devices with organisation and folder names, for details pages. */
  /**
   * One device's detail row with what detailRows, firstFixTime, workStatusDocs and fenceCounts answer for
   * it, in one statement (GetDetailByIMEI runs on every device the console opens: one round trip on
   * PostgreSQL instead of four).
   */
  async detailOne(deviceId: number) {
    return (await this.detailOneQuery(deviceId))[0];
  }

  detailRows(deviceIds: number[]) {
    return this.db
      .selectFrom('devices as d')
      .innerJoin('organisations as o', 'o.id', 'd.org_id')
      .leftJoin('folders as f', 'f.id', 'd.folder_id')
      .selectAll('d')
      .select(['o.name as org_name', 'f.name as folder_name'])
      .where('d.id', 'in', deviceIds.length ? deviceIds : [-1])
      .execute();
  }
}

function toStateRows(rows: { id: number; imei: string; last_work_time: number | null; sensors: number; updated_at: number | null }[]): TreeStateRow[] {
  return rows.map((r) => [Number(r.id), r.imei, r.last_work_time === null ? null : Number(r.last_work_time), r.sensors, r.updated_at === null ? null : Number(r.updated_at)]);
}
