export { DeviceTree, type DeviceTreeProps } from './DeviceTree';
export { TreeLoadState } from './TreeLoadState';
export { useDeviceTree, useExperienceSwitch, useUpdateRemarkName } from './api';
export { folderLabel } from './labels';
export { NameDialog, MoveDialog } from './TreeDialogs';
export {
  CHECKABLE_PAGES,
  SENSOR_FILTER_BITS,
  buildIndex,
  checkedImeis,
  filterTree,
  firstNormalDevice,
  folderPath,
  isSelectable,
  matchesRight,
  matchesSensor,
  moveTargets,
  treePageOf,
  unselectableReason,
  type DeviceEntry,
  type FolderEntry,
  type TreeIndex,
  type TreePage,
} from './model';
export { getTreeSelection, resetTreeSelection, setTreeSelection, useTreeSelection, type TreeSelection } from './selection';
