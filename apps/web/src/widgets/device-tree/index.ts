/**
 * The device tree: a slot, i.e. a feature that the layout and the screens embed (§2.3, §2.5, §4, §6).
 * Like a feature it owns its calls (api/: the tree, the folder picker, the folder and device changes),
 * its model and its components; unlike a feature it may be imported by features, through this file
 * only. It imports no feature.
 */
export { DeviceTree, type DeviceTreeProps } from './components/DeviceTree';
export { TreeLoadState } from './components/TreeLoadState';
// The devices picker of the map and media screens, and the tree's rows and titles it is made of.
export { DevicePicker } from './components/DevicePicker';
export { VirtualTree } from './components/VirtualTree';
export { NodeTitle } from './components/NodeTitle';
export { NameDialog, MoveDialog } from './components/TreeDialogs';
export { useDeviceTree, useExperienceSwitch, useUpdateRemarkName } from './api';
export {
  CHECKABLE_PAGES,
  SENSOR_FILTER_BITS,
  buildIndex,
  checkedImeis,
  filterTree,
  filtersActive,
  NO_FILTERS,
  firstNormalDevice,
  folderLabel,
  folderPath,
  isSelectable,
  matchesRight,
  matchesSensor,
  moveTargets,
  treePageOf,
  unselectableReason,
  getTreeSelection,
  resetTreeSelection,
  setTreeSelection,
  useTreeSelection,
  type DeviceEntry,
  type FilteredTree,
  type TreeNode,
  type FolderEntry,
  type TreeIndex,
  type TreePage,
  type TreeSelection,
} from './model';
