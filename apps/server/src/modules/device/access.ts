import { Code, type DevicePermission, formatTime, type ShareDataPeriod } from '@wildtrack/contract';
import { AppError } from '../../http/errors.js';
import type { SessionInfo } from '../../http/caller.js';

/**
 * Who may do what with a device (§6). Every call that names a device goes through `resolve`, so a
 * device the caller can't see gets the same answer as one that doesn't exist.
 * - own:     a device of the caller's organisation — every right;
 * - shared:  another user shared it with the caller and the share window is open — the share's rights
 *            (edit, remote instructions, download), never editing fixes or sharing further, on the records
 *            of the share's data period (all history, from a time on, or only its window: issue 28);
 * - example: a sample device, shown while the caller's experience flag is on — read-only, its data
 *            can be downloaded; only the caller's own remark name can change.
 */
export type AccessKind = 'own' | 'shared' | 'example';

export interface DeviceAccess {
  kind: AccessKind;
  rights: { EditDevice: boolean; EditFix: boolean; RemoteInstr: boolean; ShareDevice: boolean; DownloadData: boolean };
  /** Share window (epoch ms), for shared devices: when the share is valid. */
  effective: number | null;
  failure: number | null;
  /** The records a shared device's recipient reads (shareDataRange); null for an own or example device (all of them). */
  data: TimeRange | null;
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
  /** Its data period as stored (null: a share made before there were any, WINDOW): what the reader reads, shareDataRange. */
  dataPeriod: ShareDataPeriod | null;
  dataFrom: number | null;
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
  if (device.orgId === reader.orgId) return { kind: 'own', rights: OWN_RIGHTS, effective: null, failure: null, data: null };
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
      data: shareDataRange(share.dataPeriod, share.dataFrom, share.effective, share.failure),
      ...(share.sharedBy ? { sharedBy: share.sharedBy } : {}),
    };
  }
  if (device.samples && reader.experience) return { kind: 'example', rights: EXAMPLE_RIGHTS, effective: null, failure: null, data: null };
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
  data_period: ShareDataPeriod | null;
  data_from: number | null;
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
            dataPeriod: row.data_period,
            dataFrom: row.data_from === null ? null : Number(row.data_from),
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

/**
 * The records a share's data period (stored as data_period, data_from) lets its recipient read, both ends
 * included: ALL every one, FROM those from `dataFrom` on, WINDOW (and a share stored before issue 28) those
 * inside its window (a record taken at the window's end is the recipient's, as for fixes).
 */
export function shareDataRange(period: ShareDataPeriod | null, dataFrom: number | null, effective: number, failure: number): TimeRange {
  if (period === 'ALL') return { from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY };
  if (period === 'FROM' && dataFrom !== null) return { from: Number(dataFrom), to: Number.POSITIVE_INFINITY };
  return { from: effective, to: failure };
}

/** What of an access decides what its holder reads. */
export type WindowOfAccess = Pick<DeviceAccess, 'kind' | 'data'>;

/**
 * What of the device's time line the access lets its holder read: a share's data period (shareDataRange,
 * not its window, which only says whether the share is valid now); all of it for an own or example device.
 */
export function windowOf(access: WindowOfAccess): TimeRange {
  if (access.kind !== 'shared' || access.data === null) return { from: Number.NEGATIVE_INFINITY, to: Number.POSITIVE_INFINITY };
  return access.data;
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

/**
 * clampToWindow for a range the caller asked for (a list, a page, an export of one device): a range with
 * some time in it that misses all of the share's data period is refused (1001, 'share.dataFrom' or
 * 'share.dataWindow' naming the period in the caller's zone), so a recipient is told why there is nothing,
 * not shown an empty list; otherwise the clamped range.
 */
export function clampAsked(range: TimeRange, access: WindowOfAccess, zone: string): TimeRange {
  const clamped = clampToWindow(range, access);
  if (clamped.from <= clamped.to || range.from > range.to) return clamped;
  const w = windowOf(access);
  if (w.to === Number.POSITIVE_INFINITY) throw new AppError(Code.Failed, 'share.dataFrom', { from: formatTime(w.from, zone) });
  throw new AppError(Code.Failed, 'share.dataWindow', { from: formatTime(w.from, zone), to: formatTime(w.to, zone) });
}

/** Whether a record taken at `time` is inside what the access lets its holder read (windowOf). */
export function inWindow(time: number, access: WindowOfAccess): boolean {
  const w = windowOf(access);
  return time >= w.from && time <= w.to;
}

/** Every time a query can name (finite, for SQL): clampToWindow(ALL_TIME, access) is a share's window, or all of it. */
export const ALL_TIME: TimeRange = { from: Number.MIN_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER };
