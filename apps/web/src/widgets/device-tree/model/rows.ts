import type { TreeNode } from './filter';
import { isFolderKey } from './treeIndex';

/** The rows the virtualized tree draws, and its checkboxes (§2.3). */

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

