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

/** A device as the read rule sees it: its id, its organisation, whether it is of the sample fleet. */
export interface DeviceRef {
  deviceId: number;
  orgId: number;
  samples: boolean;
}

/**
 * A share to the reader: the device, the window (epoch ms; open at t when effective <= t < failure) and the
 * rights it gives (absent: none; a reader that only asks whether, live delivery, reads no rights).
 */
export interface ShareGrant {
  deviceId: number;
  effective: number;
  failure: number;
  editDevice?: boolean;
  remoteInstr?: boolean;
  downloadData?: boolean;
  sharedBy?: { userId: number; name: string };
}

/** A user as the read rule sees them: their organisation, their experience switch, the shares to them (any; the rule picks). */
export interface Reader {
  orgId: number;
  experience: boolean;
  shares: readonly ShareGrant[];
}

/**
 * The read rule (§6), the one place it is written: what `reader` holds on `device` at `now`, null for nothing
 * (to a call: "no such device"). Every call resolves devices through it (DeviceGate.resolve, the tree),
 * live delivery asks it of every message (live/hub.ts) and event e-mail of every recipient (outgoing/event-mail.ts).
 * Their organisation's device: every right; else a share open at `now` (the one that ends last): its rights
 * and its window; else a sample device while the experience switch is on: read-only.
 */
export function accessOf(device: DeviceRef, reader: Reader, now: number): DeviceAccess | null {
  if (device.orgId === reader.orgId) return { kind: 'own', rights: OWN_RIGHTS, effective: null, failure: null };
  let share: ShareGrant | undefined;
  for (const s of reader.shares) {
    if (s.deviceId === device.deviceId && s.effective <= now && now < s.failure && (!share || s.failure > share.failure)) share = s;
  }
  if (share) {
    return {
      kind: 'shared',
      rights: {
        EditDevice: share.editDevice === true,
        EditFix: false,
        RemoteInstr: share.remoteInstr === true,
        ShareDevice: false,
        DownloadData: share.downloadData === true,
      },
      effective: share.effective,
      failure: share.failure,
      ...(share.sharedBy ? { sharedBy: share.sharedBy } : {}),
    };
  }
  if (device.samples && reader.experience) return { kind: 'example', rights: EXAMPLE_RIGHTS, effective: null, failure: null };
  return null;
}

/**
 * Whether `reader` may read a record of `device` taken at `time` (an event's happen time, a fix's time): the
 * device readable at `now` and the time inside what its access lets them see (windowOf) — what the event list,
 * the fix calls and every other read by time answer, asked by live delivery and event e-mail.
 */
export function mayReadRecord(device: DeviceRef, reader: Reader, now: number, time: number): boolean {
  const access = accessOf(device, reader, now);
  return access !== null && inWindow(time, access);
}

/** The access query's columns (gate-repository.ts): the device and the caller's open share to it, if any. */
export interface AccessRow {
  id: number;
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

/** The read rule (accessOf) on an access query's row, read for the caller at `now`. */
export function accessOfRow(row: AccessRow, session: Pick<SessionInfo, 'orgId'>, experience: boolean, now: number): DeviceAccess | null {
  const deviceId = Number(row.id);
  const shares: ShareGrant[] =
    row.share_id === null || row.effective_time === null || row.failure_time === null
      ? []
      : [
          {
            deviceId,
            effective: Number(row.effective_time),
            failure: Number(row.failure_time),
            editDevice: row.edit_device === 1,
            remoteInstr: row.remote_instr === 1,
            downloadData: row.download_data === 1,
            sharedBy: { userId: Number(row.owner_user_id), name: row.owner_name ?? '' },
          },
        ];
  return accessOf({ deviceId, orgId: Number(row.org_id), samples: row.is_samples === 1 }, { orgId: session.orgId, experience, shares }, now);
}

/** A range of epoch ms, both ends included. */
export interface TimeRange {
  from: number;
  to: number;
}

/** What of an access decides its window. */
export type WindowOfAccess = Pick<DeviceAccess, 'kind' | 'effective' | 'failure'>;

/**
 * What of the device's time line the access lets its holder read: a share's window, both ends included
 * (a record taken at the window's end is the recipient's, as for fixes); all of it for an own or example device.
 */
export function windowOf(access: WindowOfAccess): TimeRange {
  if (access.kind !== 'shared') return { from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY };
  return { from: access.effective ?? Number.NEGATIVE_INFINITY, to: access.failure ?? Number.POSITIVE_INFINITY };
}

/**
 * The part of `range` the access lets its holder read (windowOf): every read of a device's data by time
 * (fixes, sensors, field records, media, exports, downloads, archives, events, instructions) cuts its range
 * here. `from > to` when none of it is.
 */
export function clampToWindow(range: TimeRange, access: WindowOfAccess): TimeRange {
  const w = windowOf(access);
  return { from: Math.max(range.from, w.from), to: Math.min(range.to, w.to) };
}

/** Whether a record taken at `time` is inside what the access lets its holder read (windowOf). */
export function inWindow(time: number, access: WindowOfAccess): boolean {
  const w = windowOf(access);
  return time >= w.from && time <= w.to;
}

/** Every time a query can name (finite, for SQL): clampToWindow(ALL_TIME, access) is a share's window, or all of it. */
export const ALL_TIME: TimeRange = { from: Number.MIN_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER };
