import {
  DeviceType,
  EXPERIENCE_FOLDER_ID,
  INSTRUCTABLE_STATUSES,
  matchesSensorFilter,
  ROOT_FOLDER_ID,
  selectableOn,
  SENSOR_FILTER,
  SENSOR_FILTER_FLAGS,
  SHARED_FOLDER_PREFIX,
  type DevicePermission,
  type FolderOnly,
  type TreeData,
  type TreeDevice,
  type TreeFolder,
} from '@wildtrack/contract';

/**
 * The device tree's model, kept apart from React so it can be tested and measured: the fetched tree is
 * flattened once into an index (folders and devices in tree order, lower-cased search texts, parents),
 * and every search or filter walks that index instead of the nested server reply.
 */

/** Screens that show the tree (§2.3); each has its own selection and its own selectability rule (§6). */
export type TreePage = 'device' | 'track' | 'download' | 'share' | 'instr';
export const TREE_PAGES: readonly TreePage[] = ['device', 'track', 'download', 'share', 'instr'];
/** §2.3: the checkbox column shows only on these pages. */
export const CHECKABLE_PAGES: readonly TreePage[] = ['download', 'share', 'instr'];

export function treePageOf(pathname: string): TreePage {
  const first = pathname.split('/').filter(Boolean)[0] ?? '';
  return (TREE_PAGES as readonly string[]).includes(first) ? (first as TreePage) : 'device';
}

type DeviceKind = Pick<TreeDevice, 'Type' | 'Status'>;
type Rights = Pick<DevicePermission, 'DownloadData' | 'ShareDevice' | 'RemoteInstr'>;

/**
 * §6 "Tree selectability by page": whether a device can be selected (or checked) on a page — the
 * contract's `selectableOn` with this app's pages: a VHF receiver never; download, share and instr also
 * need the right, instr a status that takes instructions (2, 3, 4); every other page any other device.
 */
export function isSelectable(device: DeviceKind, permission: Rights, page: TreePage): boolean {
  return selectableOn(page === 'download' || page === 'share' || page === 'instr' ? page : 'other', device, permission);
}

/** Why a device is greyed out on a page (an i18n key), or null when it is selectable. */
export function unselectableReason(device: DeviceKind, permission: Rights, page: TreePage): string | null {
  if (device.Type === DeviceType.VHFReceiver) return 'tree.reason.vhf';
  if (page === 'download' && !permission.DownloadData) return 'tree.reason.download';
  if (page === 'share' && !permission.ShareDevice) return 'tree.reason.share';
  if (page === 'instr' && !permission.RemoteInstr) return 'tree.reason.instr';
  if (page === 'instr' && !INSTRUCTABLE_STATUSES.includes(device.Status)) return 'tree.reason.status';
  return null;
}

/** §6 sensor filter values and the SensorFlag bits each one accepts (1 = new or old acceleration). */
export const SENSOR_FILTER_BITS: Readonly<Record<number, number>> = SENSOR_FILTER_FLAGS;
export const SENSOR_FILTER_VALUES: readonly number[] = Object.values(SENSOR_FILTER);
export const SENSOR_FILTER_NAME: Readonly<Record<number, string>> = Object.fromEntries(
  Object.entries(SENSOR_FILTER).map(([name, value]) => [value, name]),
);

export function matchesSensor(sensor: number, filter: number): boolean {
  return matchesSensorFilter(sensor, filter);
}

/** §6 "Other filters keep only downloadable or shareable devices" (never VHF receivers). */
export type RightFilter = 'all' | 'download' | 'share';

export function matchesRight(device: DeviceKind, permission: Rights, filter: RightFilter): boolean {
  if (filter === 'all') return true;
  if (device.Type === DeviceType.VHFReceiver) return false;
  return filter === 'download' ? permission.DownloadData : permission.ShareDevice;
}

// ---- the index ------------------------------------------------------------------------------------

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

export interface TreeFilters {
  search: string;
  sensor: number;
  right: RightFilter;
}

export const NO_FILTERS: TreeFilters = { search: '', sensor: SENSOR_FILTER.All, right: 'all' };

export function filtersActive(filters: TreeFilters): boolean {
  return filters.search.trim() !== '' || filters.sensor !== SENSOR_FILTER.All || filters.right !== 'all';
}

/** A node of the tree as shown (the virtualized tree draws these; the fields follow antd's TreeDataNode), with the entry it shows. */
export interface TreeNode {
  key: string;
  title: string;
  children?: TreeNode[];
  isLeaf?: boolean;
  disabled?: boolean;
  selectable?: boolean;
  disableCheckbox?: boolean;
  checkable?: boolean;
  folder?: FolderEntry;
  entry?: DeviceEntry;
  /** Devices shown below a folder (with filters) or the server's count (without). */
  count?: number;
}

export interface FilteredTree {
  nodes: TreeNode[];
  /** Folder keys in the result, to expand when a search or filter applies. */
  folderKeys: string[];
  /** Devices the filters kept. */
  matched: number;
}

/**
 * The tree as shown on a page with filters applied: devices must pass the search (name, remark name or
 * IMEI; or sit below a folder whose name matches), the sensor filter and the right filter; folders show
 * when something below them does (all of them when no filter applies). One pass over the index.
 */
export function filterTree(index: TreeIndex, filters: TreeFilters, page: TreePage, checkable: boolean): FilteredTree {
  const search = filters.search.trim().toLowerCase();
  const active = filtersActive(filters);
  const folderKeys: string[] = [];
  let matched = 0;

  const deviceNode = (entry: DeviceEntry): TreeNode => {
    const selectable = isSelectable(entry.device, entry.permission, page);
    const node: TreeNode = {
      key: entry.key,
      title: entry.device.RemarkName || entry.device.Caption || entry.device.IMEI,
      isLeaf: true,
      entry,
    };
    if (!selectable) {
      node.disabled = true;
      node.disableCheckbox = true;
    }
    return node;
  };

  const walk = (folder: FolderEntry, nameMatched: boolean): TreeNode | null => {
    const matchedHere = nameMatched || (search !== '' && folder.nameLower.includes(search));
    const children: TreeNode[] = [];
    let count = 0;
    for (const sub of folder.folders) {
      const node = walk(sub, matchedHere);
      if (node) {
        children.push(node);
        count += node.count ?? 0;
      }
    }
    for (const entry of folder.devices) {
      if (search !== '' && !matchedHere && !entry.text.includes(search)) continue;
      if (!matchesSensor(entry.device.Sensor, filters.sensor)) continue;
      if (!matchesRight(entry.device, entry.permission, filters.right)) continue;
      children.push(deviceNode(entry));
      count += 1;
    }
    const keep = !active || count > 0 || (matchedHere && filters.sensor === SENSOR_FILTER.All && filters.right === 'all');
    if (!keep) return null;
    folderKeys.push(folder.key);
    const node: TreeNode = {
      key: folder.key,
      title: folder.name,
      children,
      folder,
      count: active ? count : folder.deviceCount,
    };
    // A checkable page checks devices: a folder with nothing selectable below has no checkbox to offer.
    if (checkable && !children.some((c) => !c.disableCheckbox)) node.disableCheckbox = true;
    return node;
  };

  const nodes: TreeNode[] = [];
  for (const folder of index.top) {
    const node = walk(folder, false);
    if (node) {
      nodes.push(node);
      matched += active ? (node.count ?? 0) : 0;
    }
  }
  if (!active) matched = index.devices.length;
  return { nodes, folderKeys, matched };
}

// ---- rows, expansion and checks (what the virtualized tree draws) -----------------------------------

/** One row of the tree as drawn: a node of the filtered tree below expanded folders only. */
export interface TreeRow {
  node: TreeNode;
  /** 0 for the top-level folders. */
  depth: number;
  /** The folder row above it (null at the top). */
  parentKey: string | null;
  /** A folder with something in it (it gets a switcher). */
  hasChildren: boolean;
  expanded: boolean;
}

/**
 * The rows to draw, in order: every node whose folders above are all expanded. Linear in the rows it
 * answers (collapsed branches are not walked), so expanding every folder of a large tree costs one pass.
 */
export function visibleRows(nodes: readonly TreeNode[], expanded: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const visit = (list: readonly TreeNode[], depth: number, parentKey: string | null): void => {
    for (const node of list) {
      const hasChildren = (node.children?.length ?? 0) > 0;
      const open = hasChildren && expanded.has(node.key);
      rows.push({ node, depth, parentKey, hasChildren, expanded: open });
      if (open) visit(node.children!, depth + 1, node.key);
    }
  };
  visit(nodes, 0, null);
  return rows;
}

/** A folder's checkbox: every checkable device below it checked, some of them, or none. */
export type FolderCheck = 'all' | 'some';

/**
 * The checkbox state of every folder of the (filtered) tree from the checked device keys: a folder is
 * checked when each device below it that may be checked is, half-checked when some are. One pass.
 */
export function folderChecks(nodes: readonly TreeNode[], checked: ReadonlySet<string>): Map<string, FolderCheck> {
  const out = new Map<string, FolderCheck>();
  const visit = (node: TreeNode): [number, number] => {
    if (!node.children) return node.disableCheckbox ? [0, 0] : [1, checked.has(node.key) ? 1 : 0];
    let total = 0;
    let on = 0;
    for (const child of node.children) {
      const [t, c] = visit(child);
      total += t;
      on += c;
    }
    if (total > 0 && on === total) out.set(node.key, 'all');
    else if (on > 0) out.set(node.key, 'some');
    return [total, on];
  };
  for (const node of nodes) visit(node);
  return out;
}

/**
 * Checks or unchecks a node: a device, or every checkable device below a folder (§2.3). Answers the new
 * checked keys: the devices, and the folders now wholly checked (as antd's tree reports them). Devices
 * checked earlier that the filters hide now stay checked.
 */
export function toggleCheck(nodes: readonly TreeNode[], checkedKeys: readonly string[], node: TreeNode, check: boolean): string[] {
  const devices = new Set(checkedKeys.filter((k) => !isFolderKey(k)));
  const apply = (n: TreeNode): void => {
    if (n.children) for (const child of n.children) apply(child);
    else if (!n.disableCheckbox) {
      if (check) devices.add(n.key);
      else devices.delete(n.key);
    }
  };
  apply(node);
  const out = [...devices];
  for (const [key, state] of folderChecks(nodes, devices)) if (state === 'all') out.push(key);
  return out;
}

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

export interface MoveTargetNode {
  key: string;
  value: string;
  title: string;
  disabled?: boolean;
  children: MoveTargetNode[];
}

/**
 * The folders a device or folder may move to (§2.4): the organisation's folders, never the experience
 * folder nor a shared one, and for a folder never itself or anything below it (those branches are left
 * out). The current place is shown but disabled.
 */
export function moveTargets(folders: readonly FolderOnly[], opts: { moving?: string; current?: string; rootLabel: string }): MoveTargetNode[] {
  const build = (folder: FolderOnly): MoveTargetNode | null => {
    if (folder.IdStr === opts.moving) return null;
    if (folder.IdStr === EXPERIENCE_FOLDER_ID || folder.IdStr.startsWith(SHARED_FOLDER_PREFIX)) return null;
    const node: MoveTargetNode = {
      key: folder.IdStr,
      value: folder.IdStr,
      title: folder.IdStr === ROOT_FOLDER_ID ? opts.rootLabel : folder.Name,
      children: folder.Folders.map(build).filter((n): n is MoveTargetNode => n !== null),
    };
    if (folder.IdStr === opts.current) node.disabled = true;
    return node;
  };
  return folders.map(build).filter((n): n is MoveTargetNode => n !== null);
}
