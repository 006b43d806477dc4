import { useSyncExternalStore } from 'react';
import type { TreePage } from './rules';

/**
 * What the tree has selected and checked on each page. The tree sits in the layout, once, while the
 * screens stay mounted (keep-alive): each screen keeps its own selection here, and reads it with
 * `useTreeSelection(page)`.
 */
export interface TreeSelection {
  /** The folder whose devices the screen lists (for a selected device: the folder holding it in the tree). */
  folderId: string | null;
  /** The selected device, if any. */
  imei: string | null;
  /** Checked device keys (checkable pages). */
  checkedKeys: readonly string[];
  /** The default selection has been made (§4: the first normal device). */
  initialised: boolean;
}

const EMPTY: TreeSelection = { folderId: null, imei: null, checkedKeys: [], initialised: false };

const state = new Map<TreePage, TreeSelection>();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function getTreeSelection(page: TreePage): TreeSelection {
  return state.get(page) ?? EMPTY;
}

export function setTreeSelection(page: TreePage, next: Partial<TreeSelection>): void {
  state.set(page, { ...getTreeSelection(page), initialised: true, ...next });
  for (const listener of listeners) listener();
}

/** Forgets every page's selection (sign-out, tests). */
export function resetTreeSelection(): void {
  state.clear();
  for (const listener of listeners) listener();
}

export function useTreeSelection(page: TreePage): TreeSelection {
  return useSyncExternalStore(
    subscribe,
    () => getTreeSelection(page),
    () => getTreeSelection(page),
  );
}
