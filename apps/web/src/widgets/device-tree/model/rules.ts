import {
  DeviceStatus,
  DeviceType,
  INSTRUCTABLE_STATUSES,
  matchesSensorFilter,
  selectableOn,
  SENSOR_FILTER,
  SENSOR_FILTER_FLAGS,
  type DevicePermission,
  type TreeDevice,
} from '@wildtrack/contract';

/** Which screens show the tree, and which devices each lets the user pick (§2.3, §6); the filters' rules. */

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
  // archived (status 5: retrieved, or an imported history that has ended; docs/api.md "A device's lifecycle")
  if (page === 'instr' && device.Status === DeviceStatus.Retrieved) return 'tree.reason.archived';
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
