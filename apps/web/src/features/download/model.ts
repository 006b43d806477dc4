import { DOWNLOAD_TASK_CANCELLABLE, type DownloadTaskStatus, type ExportFileType, type ExportKind, fileTypeCarries, SENSOR_KIND_NAMES } from '@wildtrack/contract';

/** The kinds the form offers, in this order (the contract's ExportKind). */
export const FORM_KINDS: readonly ExportKind[] = ['fix', ...SENSOR_KIND_NAMES, 'acceleration', 'event'];

export const isRunning = (s: DownloadTaskStatus) => s === 'WAITING' || s === 'DOWNLOADING';
export const isCancellable = (s: DownloadTaskStatus) => DOWNLOAD_TASK_CANCELLABLE.includes(s);

/** The tag colour of each state (§4 Download task). */
export const STATUS_COLOR: Record<DownloadTaskStatus, string> = {
  WAITING: 'default',
  DOWNLOADING: 'processing',
  SUCCESSFUL: 'success',
  FAILED: 'error',
  CANCELLED: 'warning',
  EXPIRED: 'default',
};

/** §9: the time a file has left, in whole days and hours (rounded up to the hour: 1 minute left is "0 d 1 h"). */
export function remaining(ms: number): { days: number; hours: number } {
  const hours = Math.max(0, Math.ceil(ms / 3_600_000));
  return { days: Math.floor(hours / 24), hours: hours % 24 };
}

/** The kinds a format can carry: a Movebank CSV only positions and acceleration, GeoJSON, GPX and KML only positions. */
export function kindsFor(fileType: ExportFileType, kinds: readonly ExportKind[]): ExportKind[] {
  return kinds.filter((k) => fileTypeCarries(fileType, k));
}
