import {
  batteryPercent,
  Code,
  DeviceType,
  type DeviceDetail,
  type DevicePermission,
  EXPERIENCE_FOLDER_ID,
  formatTime,
  type FolderOnly,
  type Lang,
  matchesSensorFilter,
  message,
  parseOffset,
  ROOT_FOLDER_ID,
  SENSOR_FILTER_FLAGS,
  SHARED_FOLDER_PREFIX,
  type TreeData,
  type TreeDevice,
  type TreeFolder,
} from '@wildtrack/contract';
import { AppError } from '../../http/errors.js';
import type { SessionInfo } from '../auth/service.js';
import { type AccessRow, accessOf, type DeviceAccess, deviceNotFound, EXAMPLE_RIGHTS, OWN_RIGHTS, permissionOf, requireRight } from './access.js';
import type { DeviceQueries, TreeDeviceRow, TreeRowArray } from './repository.js';
import { describeWorkStatus, readWorkStatus } from './work-status.js';

export interface Caller {
  session: SessionInfo;
  lang: Lang;
  /** The caller's time zone: the call's timeZone when valid, else the one of the session's user. */
  zone: string;
}

export type ResolvedDevice = NonNullable<Awaited<ReturnType<DeviceQueries['withAccess']>>> & { access: DeviceAccess };

type FolderRef = { kind: 'root' } | { kind: 'folder'; id: number } | { kind: 'experience' } | { kind: 'shared'; ownerId: number };

const folderNotFound = () => new AppError(Code.NotFound, 'folder.notFound');

export function parseFolderRef(idStr: string): FolderRef {
  if (idStr === ROOT_FOLDER_ID) return { kind: 'root' };
  if (idStr === EXPERIENCE_FOLDER_ID) return { kind: 'experience' };
  if (idStr.startsWith(SHARED_FOLDER_PREFIX)) {
    const owner = Number(idStr.slice(SHARED_FOLDER_PREFIX.length));
    if (Number.isSafeInteger(owner) && owner > 0) return { kind: 'shared', ownerId: owner };
    throw folderNotFound();
  }
  const id = Number(idStr);
  if (!/^\d+$/.test(idStr) || !Number.isSafeInteger(id)) throw folderNotFound();
  return { kind: 'folder', id };
}

/** Folder refs that name something the caller can't edit or move things into. */
function refuseReadOnlyFolder(ref: FolderRef): void {
  if (ref.kind === 'experience') throw new AppError(Code.Forbidden, 'folder.readOnly');
  if (ref.kind === 'shared') throw new AppError(Code.Forbidden, 'folder.sharedReadOnly');
}

/**
 * Folders and devices as the caller sees them (§2.5 device tree, §3, §6): the tree, folder edits with
 * their rules, device edits with their rights, and details.
 */
export class DeviceManagement {
  constructor(private readonly q: DeviceQueries) {}

  async resolve(caller: Caller, imei: string): Promise<ResolvedDevice> {
    const row = await this.q.withAccess(imei.trim(), caller.session.userId, Date.now());
    if (!row) throw deviceNotFound();
    const accessRow: AccessRow = {
      org_id: row.org_id,
      is_samples: row.is_samples,
      share_id: row.share_id,
      edit_device: row.edit_device,
      remote_instr: row.remote_instr,
      download_data: row.download_data,
      effective_time: row.share_effective,
      failure_time: row.share_failure,
      owner_user_id: row.owner_user_id,
      owner_name: row.owner_name,
    };
    const experience = row.is_samples === 1 ? await this.q.experienceFlag(caller.session.userId) : false;
    const access = accessOf(accessRow, caller.session, experience);
    if (!access) throw deviceNotFound();
    return { ...row, access };
  }

  // ---- the tree ---------------------------------------------------------------------------------

  async tree(caller: Caller, orgName: string): Promise<TreeData> {
    return (await this.buildTree(caller, orgName)).data;
  }

  /**
   * The tree, and for each device its database id and access (neither travels to the client). Built
   * from row arrays in one pass: for 10,000 devices this is the whole cost of GetTree (bench/tree).
   */
  private async buildTree(caller: Caller, orgName: string): Promise<{ data: TreeData; index: Map<string, { id: number; access: DeviceAccess; folderIdStr: string }> }> {
    const { session, zone, lang } = caller;
    const now = Date.now();
    const [folders, own, remarks, experience, shared] = await Promise.all([
      this.q.folders(session.orgId),
      this.q.orgDeviceArrays(session.orgId),
      this.q.remarks(session.userId),
      this.q.experienceFlag(session.userId),
      this.q.sharedDevices(session.userId, session.orgId, now),
    ]);
    const permissions: DevicePermission[] = [];
    const permissionIndex = new Map<string, number>();
    const permissionOfAccess = (access: DeviceAccess): number => {
      const p = permissionOf(access, zone);
      const key = JSON.stringify(p);
      let i = permissionIndex.get(key);
      if (i === undefined) {
        i = permissions.push(p) - 1;
        permissionIndex.set(key, i);
      }
      return i;
    };
    const index = new Map<string, { id: number; access: DeviceAccess; folderIdStr: string }>();
    const SensorCounts: Record<string, number> = {};
    const filters = Object.keys(SENSOR_FILTER_FLAGS);
    for (const key of filters) SensorCounts[key] = 0;
    let total = 0;
    const add = (folder: TreeFolder, id: number, access: DeviceAccess, perm: number, r: TreeRowArray) => {
      folder.Devices.push({
        IMEI: r[2],
        Caption: r[8],
        RemarkName: r[11] ?? remarks.get(id) ?? '',
        Type: r[3],
        SpeciesType: r[4],
        Status: r[5],
        Sensor: r[6],
        InstrSupport: r[7],
        Permission: perm,
        Example: r[9] === 1,
        SecondLevelFix: r[10] === 1 ? 1 : 0,
        DeviceFence: 0,
      });
      index.set(r[2], { id, access, folderIdStr: folder.IdStr });
      total += 1;
      for (const key of filters) if (matchesSensorFilter(r[6], Number(key))) SensorCounts[key]! += 1;
    };

    const root: TreeFolder = { IdStr: ROOT_FOLDER_ID, ParentIdStr: '', Name: orgName || message(lang, 'tree.root'), DeviceCount: 0, Example: false, Folders: [], Devices: [] };
    const byId = new Map<number, TreeFolder>();
    for (const f of folders) {
      byId.set(Number(f.id), { IdStr: String(f.id), ParentIdStr: f.parent_id === null ? ROOT_FOLDER_ID : String(f.parent_id), Name: f.name, DeviceCount: 0, Example: false, Folders: [], Devices: [] });
    }
    for (const f of folders) (f.parent_id === null ? root : (byId.get(Number(f.parent_id)) ?? root)).Folders.push(byId.get(Number(f.id))!);
    const ownAccess: DeviceAccess = { kind: 'own', rights: OWN_RIGHTS, effective: null, failure: null };
    const ownPerm = own.length > 0 ? permissionOfAccess(ownAccess) : 0;
    for (const r of own) add((r[1] !== null && byId.get(r[1])) || root, r[0], ownAccess, ownPerm, r);

    const out: TreeFolder[] = [root];
    if (experience) {
      const samples = await this.q.sampleDevices(session.userId);
      const exampleAccess: DeviceAccess = { kind: 'example', rights: EXAMPLE_RIGHTS, effective: null, failure: null };
      const folder: TreeFolder = { IdStr: EXPERIENCE_FOLDER_ID, ParentIdStr: '', Name: message(lang, 'tree.experience'), DeviceCount: 0, Example: true, Folders: [], Devices: [] };
      const perm = samples.length > 0 ? permissionOfAccess(exampleAccess) : 0;
      for (const r of samples) add(folder, Number(r.id), exampleAccess, perm, toArray(r));
      out.push(folder);
    }
    const byOwner = new Map<number, TreeFolder>();
    for (const r of shared) {
      const ownerId = Number(r.owner_user_id);
      let folder = byOwner.get(ownerId);
      if (!folder) {
        folder = { IdStr: `${SHARED_FOLDER_PREFIX}${ownerId}`, ParentIdStr: '', Name: message(lang, 'tree.sharedBy', { name: r.owner_name }), DeviceCount: 0, Example: false, SharedBy: r.owner_name, Folders: [], Devices: [] };
        byOwner.set(ownerId, folder);
        out.push(folder);
      }
      const access = accessOf({ ...r, is_samples: 0 }, session, false)!;
      add(folder, Number(r.id), access, permissionOfAccess(access), toArray(r));
    }
    const count = (f: TreeFolder): number => (f.DeviceCount = f.Devices.length + f.Folders.reduce((n, c) => n + count(c), 0));
    out.forEach(count);
    return { data: { Folders: out, Permissions: permissions, Total: total, SensorCounts }, index };
  }

  async folderTree(caller: Caller): Promise<FolderOnly[]> {
    const tree = await this.tree(caller, '');
    const strip = (f: TreeFolder): FolderOnly => ({ IdStr: f.IdStr, ParentIdStr: f.ParentIdStr, Name: f.Name, DeviceCount: f.DeviceCount, Folders: f.Folders.map(strip) });
    return [strip(tree.Folders[0]!)];
  }

  // ---- folders ----------------------------------------------------------------------------------

  /** A folder of the caller's organisation (or the root); anything else is "no such folder". */
  private async ownFolder(caller: Caller, idStr: string): Promise<number | null> {
    const ref = parseFolderRef(idStr);
    refuseReadOnlyFolder(ref);
    if (ref.kind === 'root') return null;
    if (ref.kind !== 'folder' || !(await this.q.folder(ref.id, caller.session.orgId))) throw folderNotFound();
    return ref.id;
  }

  private async editableFolder(caller: Caller, idStr: string): Promise<number> {
    const id = await this.ownFolder(caller, idStr);
    if (id === null) throw new AppError(Code.Forbidden, 'error.forbidden');
    return id;
  }

  async createFolder(caller: Caller, name: string, parentIdStr: string): Promise<string> {
    const parent = await this.ownFolder(caller, parentIdStr);
    return String(await this.q.createFolder(caller.session.orgId, parent, name, Date.now()));
  }

  async renameFolder(caller: Caller, idStr: string, name: string): Promise<void> {
    await this.q.renameFolder(await this.editableFolder(caller, idStr), name);
  }

  /** The folder and every folder below it, leaves first. */
  private async subtree(orgId: number, id: number): Promise<number[]> {
    const folders = await this.q.folders(orgId);
    const children = new Map<number, number[]>();
    for (const f of folders) {
      if (f.parent_id === null) continue;
      const list = children.get(Number(f.parent_id)) ?? [];
      list.push(Number(f.id));
      children.set(Number(f.parent_id), list);
    }
    const out: number[] = [];
    const walk = (n: number) => {
      for (const c of children.get(n) ?? []) walk(c);
      out.push(n);
    };
    walk(id);
    return out;
  }

  async deleteFolder(caller: Caller, idStr: string): Promise<void> {
    const id = await this.editableFolder(caller, idStr);
    const ids = await this.subtree(caller.session.orgId, id);
    if ((await this.q.countDevicesIn(ids)) > 0) throw new AppError(Code.Failed, 'folder.notEmpty');
    await this.q.deleteFolders(ids);
  }

  async moveFolder(caller: Caller, idStr: string, parentIdStr: string): Promise<void> {
    const id = await this.editableFolder(caller, idStr);
    const parent = await this.ownFolder(caller, parentIdStr);
    if (parent !== null && (await this.subtree(caller.session.orgId, id)).includes(parent)) throw new AppError(Code.Forbidden, 'folder.cycle');
    await this.q.setFolderParent(id, parent);
  }

  // ---- devices ----------------------------------------------------------------------------------

  async moveDevice(caller: Caller, imei: string, folderIdStr: string): Promise<void> {
    const d = await this.resolve(caller, imei);
    requireRight(d.access, 'EditDevice');
    // Folders belong to the organisation: a shared device stays where its owner keeps it.
    if (d.access.kind !== 'own') throw new AppError(Code.Forbidden, 'device.noEditRight');
    const folder = await this.ownFolder(caller, folderIdStr);
    await this.q.moveDevice(Number(d.id), folder);
  }

  async setRemark(caller: Caller, imei: string, remark: string): Promise<void> {
    const d = await this.resolve(caller, imei);
    await this.q.setRemark(caller.session.userId, Number(d.id), remark.trim());
  }

  async setSecondLevelFix(caller: Caller, imei: string, enabled: boolean): Promise<void> {
    const d = await this.resolve(caller, imei);
    requireRight(d.access, 'EditDevice');
    if (d.type === DeviceType.Phone) throw new AppError(Code.Forbidden, 'device.secondLevelPhone');
    await this.q.updateDevice(Number(d.id), { second_level_fix: enabled ? 1 : 0 });
  }

  async updateProperty(caller: Caller, imei: string, p: { caption?: string | undefined; description?: string | undefined; speciesType?: number | undefined; status?: number | undefined }): Promise<void> {
    const d = await this.resolve(caller, imei);
    requireRight(d.access, 'EditDevice');
    const values: Parameters<DeviceQueries['updateDevice']>[1] = {};
    if (p.caption !== undefined) values.caption = p.caption;
    if (p.description !== undefined) values.description = p.description;
    if (p.speciesType !== undefined) values.species_type = p.speciesType;
    if (p.status !== undefined) values.status = p.status;
    if (Object.keys(values).length > 0) await this.q.updateDevice(Number(d.id), values);
  }

  /** Whether the caller can see a device whose animal info shows this uploaded image. */
  async canSeeImage(session: SessionInfo, url: string): Promise<boolean> {
    for (const imei of await this.q.devicesShowingImage(url)) {
      try {
        await this.resolve({ session, lang: 'en', zone: '+00:00' }, imei);
        return true;
      } catch {
        // not this one
      }
    }
    return false;
  }

  async setExperience(caller: Caller, enabled: boolean): Promise<void> {
    await this.q.setExperienceFlag(caller.session.userId, enabled);
  }

  // ---- details ----------------------------------------------------------------------------------

  private async details(caller: Caller, items: { id: number; access: DeviceAccess; remark: string; folderIdStr: string }[]): Promise<DeviceDetail[]> {
    const ids = items.map((i) => i.id);
    const [rows, firsts, docs] = await Promise.all([this.q.detailRows(ids), this.q.firstFixTime(ids), this.q.workStatusDocs(ids)]);
    const byId = new Map(rows.map((r) => [Number(r.id), r]));
    const now = Date.now();
    return items.flatMap((it) => {
      const r = byId.get(it.id);
      if (!r) return [];
      const doc = readWorkStatus(docs.get(it.id), r.sensors);
      const first = firsts.get(it.id);
      const lastWork = r.last_work_time;
      const shared = it.access.kind === 'shared';
      return [
        {
          IMEI: r.imei,
          Caption: r.caption,
          RemarkName: it.remark,
          CustomerName: r.org_name,
          FolderIdStr: it.folderIdStr,
          FolderName: it.folderIdStr === EXPERIENCE_FOLDER_ID ? message(caller.lang, 'tree.experience') : shared ? '' : (r.folder_name ?? ''),
          ModelName: r.model,
          Type: r.type,
          SpeciesType: r.species_type,
          BatteryType: r.battery_type,
          Image: r.image,
          Status: r.status,
          Voltage: r.last_voltage,
          BatteryLevel: r.last_voltage === null ? null : batteryPercent(r.last_voltage),
          LastWorkTime: formatTime(lastWork, caller.zone),
          WorkDays: first !== undefined ? Math.max(1, Math.ceil(((lastWork ?? now) - first) / 86_400_000)) : 0,
          EffectiveTime: formatTime(shared ? it.access.effective : r.effective_time, caller.zone),
          FailureTime: formatTime(shared ? it.access.failure : r.failure_time, caller.zone),
          Description: r.description,
          Attent: false,
          FenceCount: 0,
          Sensor: r.sensors,
          InstrSupport: r.instr_support,
          SecondLevelFix: r.second_level_fix === 1 ? 1 : 0,
          Example: r.example === 1,
          Permission: permissionOf(it.access, caller.zone),
          ...describeWorkStatus(doc, caller.lang),
        },
      ];
    });
  }

  async detail(caller: Caller, imei: string): Promise<DeviceDetail> {
    const d = await this.resolve(caller, imei);
    const folderIdStr =
      d.access.kind === 'example' ? EXPERIENCE_FOLDER_ID : d.access.kind === 'shared' ? `${SHARED_FOLDER_PREFIX}${d.access.sharedBy?.userId}` : d.folder_id === null ? ROOT_FOLDER_ID : String(d.folder_id);
    const [detail] = await this.details(caller, [{ id: Number(d.id), access: d.access, remark: d.remark_name ?? '', folderIdStr }]);
    if (!detail) throw deviceNotFound();
    return detail;
  }

  /** Devices of a folder ref (optionally with everything below), with their access, in tree order. */
  async devicesOf(caller: Caller, folderIdStr: string, recursive: boolean): Promise<{ node: TreeDevice; id: number; access: DeviceAccess; folderIdStr: string; permission: DevicePermission }[]> {
    const ref = parseFolderRef(folderIdStr);
    const { data: tree, index } = await this.buildTree(caller, '');
    const findFolder = (list: TreeFolder[]): TreeFolder | undefined => {
      for (const f of list) {
        if (f.IdStr === folderIdStr) return f;
        const inner = findFolder(f.Folders);
        if (inner) return inner;
      }
      return undefined;
    };
    const folder = ref.kind === 'root' ? tree.Folders[0] : findFolder(tree.Folders);
    if (!folder) throw folderNotFound();
    const out: { node: TreeDevice; id: number; access: DeviceAccess; folderIdStr: string; permission: DevicePermission }[] = [];
    const walk = (f: TreeFolder) => {
      for (const node of f.Devices) out.push({ node, ...index.get(node.IMEI)!, permission: tree.Permissions[node.Permission]! });
      if (recursive) f.Folders.forEach(walk);
    };
    walk(folder);
    return out;
  }

  async page(
    caller: Caller,
    o: { folderId: string; currentPage: number; pageSize: number; sortField?: string | undefined; sortOrder?: 'ascend' | 'descend' | undefined; recursive: boolean },
  ): Promise<{ List: DeviceDetail[]; Total: number }> {
    const devices = await this.devicesOf(caller, o.folderId, o.recursive);
    const key = o.sortField ?? 'Caption';
    const dir = o.sortOrder === 'descend' ? -1 : 1;
    // Voltage, last work time and model are details: read them for the folder's devices only when the
    // table is sorted by one of them.
    const extra = key === 'Voltage' || key === 'LastWorkTime' || key === 'ModelName' ? new Map((await this.q.detailRows(devices.map((d) => d.id))).map((r) => [Number(r.id), r])) : undefined;
    const value = (d: (typeof devices)[number]): string | number => {
      switch (key) {
        case 'IMEI':
          return d.node.IMEI;
        case 'Status':
          return d.node.Status;
        case 'Voltage':
          return extra?.get(d.id)?.last_voltage ?? -Infinity;
        case 'LastWorkTime':
          return extra?.get(d.id)?.last_work_time ?? -Infinity;
        case 'ModelName':
          return extra?.get(d.id)?.model ?? '';
        default:
          return (d.node.RemarkName || d.node.Caption).toLowerCase();
      }
    };
    devices.sort((a, b) => {
      const x = value(a);
      const y = value(b);
      return (x < y ? -1 : x > y ? 1 : a.node.IMEI < b.node.IMEI ? -1 : 1) * dir;
    });
    const start = (o.currentPage - 1) * o.pageSize;
    const slice = devices.slice(start, start + o.pageSize);
    const list = await this.details(caller, slice.map((d) => ({ id: d.id, access: d.access, remark: d.node.RemarkName, folderIdStr: d.folderIdStr })));
    return { List: list, Total: devices.length };
  }

  async count(caller: Caller, folderId: string, recursive: boolean): Promise<number> {
    return (await this.devicesOf(caller, folderId, recursive)).length;
  }

  async handhelds(caller: Caller) {
    const tree = await this.tree(caller, '');
    const out: { IMEI: string; Caption: string; RemarkName: string }[] = [];
    const walk = (f: TreeFolder) => {
      for (const d of f.Devices) if (d.Type === DeviceType.Phone) out.push({ IMEI: d.IMEI, Caption: d.Caption, RemarkName: d.RemarkName });
      f.Folders.forEach(walk);
    };
    tree.Folders.forEach(walk);
    return out;
  }
}

function toArray(r: TreeDeviceRow): TreeRowArray {
  return [Number(r.id), r.folder_id === null ? null : Number(r.folder_id), r.imei, r.type, r.species_type, r.status, r.sensors, r.instr_support, r.caption, r.example, r.second_level_fix, r.remark_name];
}

export function zoneOr(zone: string | undefined, fallback: string): string {
  return zone && parseOffset(zone) !== null ? zone : fallback;
}
