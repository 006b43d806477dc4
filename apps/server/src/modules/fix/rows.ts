import type { FixTable } from '../../db/schema.js';

// The fixes' row shapes the repository reads and the averaging works on: below both, so that the
// repository (which takes the summaries' columns from averaging.ts) and averaging.ts import no circle.

export const FIX_COLUMNS = [
  'pick_time', 'lon', 'lat', 'alt', 'speed', 'course', 'temperature', 'activity', 'voltage', 'channel', 'satellites', 'hdop', 'vdop',
  'grade', 'valid', 'tx_time', 'invalid_by', 'invalid_at',
] as const;

/** A fix as the console reads it: the table's columns but the device, receipt time and extras. */
export type FixRow = Pick<FixTable, (typeof FIX_COLUMNS)[number]>;

/** A fix as the averaged table first reads it: time, has a position (1/0), valid (1/0), sort value. */
export type FixKey = [time: number, positioned: number, valid: number, value: number | null];

/** Sortable columns of the fixes table. */
export const SORT_COLUMNS = {
  PickTime: 'pick_time', Speed: 'speed', Altitude: 'alt', Temperature: 'temperature', Exercise: 'activity', Voltage: 'voltage',
  Satellites: 'satellites', HDOP: 'hdop', PrecisionGrade: 'grade', TransmissionTime: 'tx_time',
} as const satisfies Record<string, (typeof FIX_COLUMNS)[number]>;
export type SortColumn = (typeof SORT_COLUMNS)[keyof typeof SORT_COLUMNS];

/** Columns of a track point, in this order, for the bulk calls. */
export type TrackRow = [time: number, lon: number, lat: number, alt: number | null, grade: number | null, valid: number];
