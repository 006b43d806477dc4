import { Code, type DevicePermission, formatTime } from '@wildtrack/contract';
import { AppError } from '../../http/errors.js';
import type { SessionInfo } from '../../http/caller.js';

/**
 * Who may do what with a device (§6). Every call that names a device goes through `resolve`, so a
 * device the caller can't see gets the same answer as one that doesn't exist.
 * - own:     a device of the caller's organisation — every right;
 * - shared:  another user shared it with the caller and the share window is open — the share's rights
 *            (edit, remote instructions, download), never editing fixes or sharing further;
 * - example: a sample device, shown while the caller's experience flag is on — read-only, its data
 *            can be downloaded; only the caller's own remark name can change.
 */
export type AccessKind = 'own' | 'shared' | 'example';

export interface DeviceAccess {
  kind: AccessKind;
  rights: { EditDevice: boolean; EditFix: boolean; RemoteInstr: boolean; ShareDevice: boolean; DownloadData: boolean };
  /** Share window (epoch ms), for shared devices. */
  effective: number | null;
  failure: number | null;
  sharedBy?: { userId: number; name: string };
}

export type Right = keyof DeviceAccess['rights'];

export const OWN_RIGHTS = { EditDevice: true, EditFix: true, RemoteInstr: true, ShareDevice: true, DownloadData: true };
export const EXAMPLE_RIGHTS = { EditDevice: false, EditFix: false, RemoteInstr: false, ShareDevice: false, DownloadData: true };

export function permissionOf(access: DeviceAccess, zone: string): DevicePermission {
  return {
    ...access.rights,
    EffectiveTime: formatTime(access.effective, zone),
    FailureTime: formatTime(access.failure, zone),
  };
}

export const deviceNotFound = () => new AppError(Code.NotFound, 'device.notFound');

/** Refuses a write the access does not allow, naming why. */
export function requireRight(access: DeviceAccess, right: Right): void {
  if (access.kind === 'example') throw new AppError(Code.Forbidden, 'device.readOnly');
  if (!access.rights[right]) throw new AppError(Code.Forbidden, right === 'EditDevice' ? 'device.noEditRight' : 'error.forbidden');
}

export interface AccessRow {
  org_id: number;
  is_samples: number;
  share_id: number | null;
  edit_device: number | null;
  remote_instr: number | null;
  download_data: number | null;
  effective_time: number | null;
  failure_time: number | null;
  owner_user_id: number | null;
  owner_name: string | null;
}

export function accessOf(row: AccessRow, session: SessionInfo, experience: boolean): DeviceAccess | null {
  if (Number(row.org_id) === session.orgId) return { kind: 'own', rights: OWN_RIGHTS, effective: null, failure: null };
  if (row.share_id !== null) {
    return {
      kind: 'shared',
      rights: {
        EditDevice: row.edit_device === 1,
        EditFix: false,
        RemoteInstr: row.remote_instr === 1,
        ShareDevice: false,
        DownloadData: row.download_data === 1,
      },
      effective: row.effective_time,
      failure: row.failure_time,
      sharedBy: { userId: Number(row.owner_user_id), name: row.owner_name ?? '' },
    };
  }
  if (row.is_samples === 1 && experience) return { kind: 'example', rights: EXAMPLE_RIGHTS, effective: null, failure: null };
  return null;
}
