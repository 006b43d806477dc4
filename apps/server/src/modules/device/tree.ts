import {
  Code,
  type DevicePermission,
  EXPERIENCE_FOLDER_ID,
  matchesSensorFilter,
  message,
  ROOT_FOLDER_ID,
  SENSOR_FILTER_FLAGS,
  SHARED_FOLDER_PREFIX,
  type TreeData,
  type TreeFolder,
  type TreeState,
  readWorkStatus,
  reportGapOf,
} from '@wildtrack/contract';
import type { Caller } from '../../http/caller.js';
import { AppError } from '../../http/errors.js';
import { accessOfRow, type DeviceAccess, EXAMPLE_RIGHTS, OWN_RIGHTS, permissionOf } from './access.js';
import type { DeviceGateRepository, TreeDeviceRow, TreeRowArray, TreeStateRow } from './gate-repository.js';
import { captionFor } from './samples.js';
import { now as clockNow } from '../../lib/clock.js';

/** The folder tree as a caller sees it (§2.5, §6): folder ids as the API writes them, and the tree built from rows. */

/** What the tree knows of a device beside its node: its database id, the caller's access, its folder. */
export interface TreeEntry {
  id: number;
  access: DeviceAccess;
  folderIdStr: string;
}

export type FolderRef = { kind: 'root' } | { kind: 'folder'; id: number } | { kind: 'experience' } | { kind: 'shared'; ownerId: number };

export const folderNotFound = () => new AppError(Code.NotFound, 'folder.notFound');

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
export function refuseReadOnlyFolder(ref: FolderRef): void {
  if (ref.kind === 'experience') throw new AppError(Code.Forbidden, 'folder.readOnly');
  if (ref.kind === 'shared') throw new AppError(Code.Forbidden, 'folder.sharedReadOnly');
}

/**
 * The tree, and for each device its database id and access (neither travels to the client). Built
 * from row arrays in one pass: for 10,000 devices this is the whole cost of GetTree (bench/tree).
 */
export async function buildTree(q: DeviceGateRepository, caller: Caller, orgName: string): Promise<{ data: TreeData; index: Map<string, TreeEntry> }> {
  const { session, zone, lang } = caller;
  const now = clockNow();
  const [folders, own, remarks, experience, shared] = await Promise.all([
    q.folders(session.orgId),
    q.orgDeviceArrays(session.orgId),
    q.remarks(session.userId),
    q.experienceFlag(session.userId),
    q.sharedDevices(session.userId, session.orgId, now),
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
  const index = new Map<string, TreeEntry>();
  const SensorCounts: Record<string, number> = {};
  const filters = Object.keys(SENSOR_FILTER_FLAGS);
  for (const key of filters) SensorCounts[key] = 0;
  let total = 0;
  const add = (folder: TreeFolder, id: number, access: DeviceAccess, perm: number, r: TreeRowArray) => {
    folder.Devices.push({
      IMEI: r[2],
      Caption: captionFor(r[2], r[8], r[9] === 1, lang),
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
  const ownAccess: DeviceAccess = { kind: 'own', rights: OWN_RIGHTS, effective: null, failure: null, data: null };
  const ownPerm = own.length > 0 ? permissionOfAccess(ownAccess) : 0;
  for (const r of own) add((r[1] !== null && byId.get(r[1])) || root, r[0], ownAccess, ownPerm, r);

  const out: TreeFolder[] = [root];
  if (experience) {
    const samples = await q.sampleDevices(session.userId);
    const exampleAccess: DeviceAccess = { kind: 'example', rights: EXAMPLE_RIGHTS, effective: null, failure: null, data: null };
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
    const access = accessOfRow({ ...r, is_samples: 0 }, session, false, now)!;
    add(folder, Number(r.id), access, permissionOfAccess(access), toArray(r));
  }
  const count = (f: TreeFolder): number => (f.DeviceCount = f.Devices.length + f.Folders.reduce((n, c) => n + count(c), 0));
  out.forEach(count);
  // DeviceFence: how many fences hold a rule on the device (nothing is asked when no fence exists).
  const fences = await q.fenceCounts([...index.values()].map((e) => e.id));
  if (fences.size > 0) {
    const mark = (f: TreeFolder): void => {
      for (const d of f.Devices) d.DeviceFence = fences.get(index.get(d.IMEI)?.id ?? -1) ?? 0;
      f.Folders.forEach(mark);
    };
    out.forEach(mark);
  }
  return { data: { Folders: out, Permissions: permissions, Total: total, SensorCounts }, index };
}

function toArray(r: TreeDeviceRow): TreeRowArray {
  return [Number(r.id), r.folder_id === null ? null : Number(r.folder_id), r.imei, r.type, r.species_type, r.status, r.sensors, r.instr_support, r.caption, r.example, r.second_level_fix, r.remark_name];
}

// ---- the tree's marks ----------------------------------------------------------------------------

/**
 * The expected report gap of each device, kept while its work-status document stays as it was: the gap
 * comes from parsing the document (JSON), which for 10,000 devices cost more than the query, and the
 * document changes only when the device reports its configuration. Kept by the time the document was
 * written (another process writing it moves that time too) and the device's sensors (they decide the
 * default schedule of a device that never reported one).
 */
export class ReportGaps {
  private readonly kept = new Map<number, { stamp: number | null; sensors: number; gap: number }>();

  async of(q: DeviceGateRepository, rows: readonly TreeStateRow[]): Promise<number[]> {
    const stale = rows.filter(([id, , , sensors, stamp]) => {
      const k = this.kept.get(id);
      return !k || k.stamp !== stamp || k.sensors !== sensors;
    });
    const withDoc = stale.filter((r) => r[4] !== null).map((r) => r[0]);
    const docs = new Map<number, string>();
    for (let i = 0; i < withDoc.length; i += 1000) for (const [id, doc] of await q.workStatusDocs(withDoc.slice(i, i + 1000))) docs.set(id, doc.settings);
    for (const [id, , , sensors, stamp] of stale) this.kept.set(id, { stamp, sensors, gap: reportGapOf(readWorkStatus(docs.get(id))) });
    if (this.kept.size > 200_000) this.kept.clear();
    return rows.map((r) => this.kept.get(r[0])?.gap ?? reportGapOf(null));
  }
}

/**
 * GetTreeState: for every device of the caller's tree (its organisation's, the experience folder's while
 * shown, those shared with it now), each once, when its last fix was taken and how often its schedule has
 * it report. One set query for the organisation; the few others by id.
 */
export async function treeState(q: DeviceGateRepository, gaps: ReportGaps, caller: Caller): Promise<TreeState> {
  const { session } = caller;
  const [own, experience, shared] = await Promise.all([
    q.orgDeviceStates(session.orgId),
    q.experienceFlag(session.userId),
    q.sharedDevices(session.userId, session.orgId, clockNow()),
  ]);
  const samples = experience ? await q.sampleDevices(session.userId) : [];
  const ownIds = new Set(own.map((r) => r[0]));
  const otherIds = [...new Set([...samples, ...shared].map((r) => Number(r.id)))].filter((id) => !ownIds.has(id));
  const rows = otherIds.length > 0 ? [...own, ...(await q.deviceStates(otherIds))] : own;
  const gap = await gaps.of(q, rows);
  const out: TreeState = { IMEI: new Array<string>(rows.length), LastWorkAt: new Array<number | null>(rows.length), ReportGapMinutes: gap };
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    out.IMEI[i] = r[1];
    out.LastWorkAt[i] = r[2] === null ? null : Number(r[2]);
  }
  return out;
}
