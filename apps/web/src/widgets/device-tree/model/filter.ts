import { SENSOR_FILTER } from '@wildtrack/contract';
import { isSelectable, matchesRight, matchesSensor, type RightFilter, type TreePage } from './rules';
import { type DeviceEntry, type FolderEntry, type TreeIndex } from './treeIndex';

/** Searching and filtering the index into the nodes the tree draws (§6). */

export interface TreeFilters {
  search: string;
  sensor: number;
  right: RightFilter;
}

export const NO_FILTERS: TreeFilters = { search: '', sensor: SENSOR_FILTER.All, right: 'all' };

/** The filters a page's tree starts with: /share starts with the devices the user may share (§5: those without ShareDevice are filtered out first). */
export function pageFilters(page: TreePage): TreeFilters {
  return page === 'share' ? { ...NO_FILTERS, right: 'share' } : NO_FILTERS;
}

/** Devices (by IMEI) the right filter leaves out of the tree. */
export function hiddenByRight(index: TreeIndex, right: RightFilter): number {
  if (right === 'all') return 0;
  const hidden = new Set<string>();
  for (const e of index.devices) if (!matchesRight(e.device, e.permission, right)) hidden.add(e.device.IMEI);
  return hidden.size;
}

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

