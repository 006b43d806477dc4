import {
  EXPERIENCE_FOLDER_ID,
  ROOT_FOLDER_ID,
  SHARED_FOLDER_PREFIX,
  type DevicePermission,
  type TreeData,
  type TreeDevice,
  type TreeFolder,
} from '@wildtrack/contract';
import { isSelectable, matchesSensor, SENSOR_FILTER_VALUES, type TreePage } from './rules';

/**
 * The device tree's model, kept apart from React so it can be tested and measured: the fetched tree is
 * flattened once into an index (folders and devices in tree order, lower-cased search texts, parents),
 * and every search or filter walks that index instead of the nested server reply.
 */

export type FolderKind = 'root' | 'experience' | 'shared' | 'org';

export interface FolderEntry {
  key: string;
  id: string;
  parentId: string | null;
  name: string;
  nameLower: string;
  kind: FolderKind;
  /** From the server: devices in this folder and below. */
  deviceCount: number;
  sharedBy: string | undefined;
  /** Example folders (the experience folder and anything in it). */
  example: boolean;
  depth: number;
  folders: FolderEntry[];
  devices: DeviceEntry[];
}

export interface DeviceEntry {
  key: string;
  device: TreeDevice;
  /** The device's rights (TreeData.Permissions[device.Permission]). */
  permission: DevicePermission;
  /** The tree folder holding it (for shared devices the virtual share folder, not the owner's folder). */
  folderId: string;
  /** Caption, remark name and IMEI, lower-cased, for the search. */
  text: string;
  /** Devices of another organisation (shared with the caller) can't be moved. */
  shared: boolean;
}

export interface TreeIndex {
  /** Top-level folders: the root '-1', then '0' and the shared folders. */
  top: FolderEntry[];
  folderById: Map<string, FolderEntry>;
  /** Every device in tree order (depth first, folders before devices at each level). */
  devices: DeviceEntry[];
  deviceByKey: Map<string, DeviceEntry>;
  /** A device may show twice (shared by two users); the first key is the one selected. */
  keysByImei: Map<string, string[]>;
  total: number;
  sensorCounts: Record<string, number>;
}

export const folderKey = (id: string): string => `f:${id}`;
export const deviceKey = (folderId: string, imei: string): string => `d:${folderId}:${imei}`;
export const isFolderKey = (key: string): boolean => key.startsWith('f:');
export const folderIdOfKey = (key: string): string => key.slice(2);

function kindOf(id: string, example: boolean, parentKind: FolderKind | null): FolderKind {
  if (id === ROOT_FOLDER_ID) return 'root';
  if (id === EXPERIENCE_FOLDER_ID || parentKind === 'experience' || (example && parentKind === null)) return 'experience';
  if (id.startsWith(SHARED_FOLDER_PREFIX) || parentKind === 'shared') return 'shared';
  return 'org';
}

/** No right at all: what a device gets when its permission index points nowhere. */
export const NO_RIGHTS: DevicePermission = {
  EditDevice: false,
  EditFix: false,
  RemoteInstr: false,
  ShareDevice: false,
  DownloadData: false,
  EffectiveTime: '',
  FailureTime: '',
};

export function buildIndex(data: TreeData): TreeIndex {
  const folderById = new Map<string, FolderEntry>();
  const devices: DeviceEntry[] = [];
  const deviceByKey = new Map<string, DeviceEntry>();
  const keysByImei = new Map<string, string[]>();

  const visit = (folder: TreeFolder, parent: FolderEntry | null, depth: number): FolderEntry => {
    const kind = kindOf(folder.IdStr, folder.Example, parent?.kind ?? null);
    const entry: FolderEntry = {
      key: folderKey(folder.IdStr),
      id: folder.IdStr,
      parentId: parent ? parent.id : null,
      name: folder.Name,
      nameLower: folder.Name.toLowerCase(),
      kind,
      deviceCount: folder.DeviceCount,
      sharedBy: folder.SharedBy,
      example: folder.Example || kind === 'experience',
      depth,
      folders: [],
      devices: [],
    };
    folderById.set(entry.id, entry);
    for (const child of folder.Folders) entry.folders.push(visit(child, entry, depth + 1));
    for (const device of folder.Devices) {
      const key = deviceKey(entry.id, device.IMEI);
      if (deviceByKey.has(key)) continue;
      const d: DeviceEntry = {
        key,
        device,
        permission: data.Permissions[device.Permission] ?? NO_RIGHTS,
        folderId: entry.id,
        text: `${device.Caption}\n${device.RemarkName}\n${device.IMEI}`.toLowerCase(),
        shared: kind === 'shared',
      };
      entry.devices.push(d);
      devices.push(d);
      deviceByKey.set(key, d);
      const keys = keysByImei.get(device.IMEI);
      if (keys) keys.push(key);
      else keysByImei.set(device.IMEI, [key]);
    }
    return entry;
  };

  const top = data.Folders.map((folder) => visit(folder, null, 0));
  return { top, folderById, devices, deviceByKey, keysByImei, total: data.Total, sensorCounts: data.SensorCounts };
}

/** The folders from a folder up to its top-level folder, top first. */
export function folderPath(index: TreeIndex, folderId: string): FolderEntry[] {
  const path: FolderEntry[] = [];
  let current = index.folderById.get(folderId);
  while (current) {
    path.unshift(current);
    current = current.parentId === null ? undefined : index.folderById.get(current.parentId);
  }
  return path;
}

/** Keys of the folders above a node (to expand so that it shows). */
export function ancestorKeys(index: TreeIndex, folderId: string): string[] {
  return folderPath(index, folderId).map((f) => f.key);
}

/**
 * §4 Tree: "the tree loads with the first normal device as default" — the first device, in tree order,
 * that is selectable on the page and not an example; an example one when there is nothing else.
 */
export function firstNormalDevice(index: TreeIndex, page: TreePage): DeviceEntry | undefined {
  let example: DeviceEntry | undefined;
  for (const entry of index.devices) {
    if (!isSelectable(entry.device, entry.permission, page)) continue;
    if (!entry.device.Example) return entry;
    example ??= entry;
  }
  return example;
}

/** Which actions a folder's context menu offers (§2.4, §6: nothing on the experience or shared folders). */
export function folderActions(folder: FolderEntry): { add: boolean; rename: boolean; remove: boolean; move: boolean } {
  if (folder.kind === 'root') return { add: true, rename: false, remove: false, move: false };
  if (folder.kind !== 'org') return { add: false, rename: false, remove: false, move: false };
  return { add: true, rename: true, remove: true, move: true };
}

/** Device menu: example and shared devices allow only a remark-name change (§5, §6). */
export function deviceActions(entry: DeviceEntry): { move: boolean; remark: boolean } {
  return { move: !entry.device.Example && !entry.shared, remark: true };
}

// ---- filtering ------------------------------------------------------------------------------------
/** The devices (unique by IMEI) behind a set of checked tree keys. */
export function checkedImeis(index: TreeIndex, keys: readonly string[]): string[] {
  const out = new Set<string>();
  for (const key of keys) {
    const entry = index.deviceByKey.get(key);
    if (entry) out.add(entry.device.IMEI);
  }
  return [...out];
}

/** Per-sensor counts computed from the index (used when the server's counts are missing a value). */
export function sensorCounts(index: TreeIndex): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const value of SENSOR_FILTER_VALUES) counts[value] = 0;
  for (const entry of index.devices) {
    for (const value of SENSOR_FILTER_VALUES) if (matchesSensor(entry.device.Sensor, value)) counts[value] = (counts[value] ?? 0) + 1;
  }
  return counts;
}

// ---- the move-to picker ---------------------------------------------------------------------------

