import type { FixKey, FixRow, SortColumn, TrackRow } from './repository.js';

// Second-level averaging (§9): a run of fixes taken 1 s apart is shown as one row or one track point,
// the mean of its valid members. The fix table, its sorting and the track all form runs here.

/** Fixes closer than this belong to one run of second-level fixes (§9: 10 fixes at 1 s). */
export const SECOND_LEVEL_GAP_MS = 1500;

/** Splits time-ordered rows into runs of second-level fixes; single fixes are runs of one. */
export function runs<T>(rows: readonly T[], time: (r: T) => number): T[][] {
  const out: T[][] = [];
  let current: T[] = [];
  for (const r of rows) {
    if (current.length > 0 && time(r) - time(current[current.length - 1]!) > SECOND_LEVEL_GAP_MS) {
      out.push(current);
      current = [];
    }
    current.push(r);
  }
  if (current.length > 0) out.push(current);
  return out;
}

/** A row of the fix table: a fix, or a run of second-level fixes averaged (its fixes' times in groupIds). */
export interface TableRow extends FixRow {
  groupIds?: number[];
}

const NUMERIC_FIELDS = ['lon', 'lat', 'alt', 'speed', 'course', 'temperature', 'activity', 'voltage', 'satellites', 'hdop', 'vdop', 'grade'] as const;
/** Averaged columns shown as whole numbers. */
const ROUNDED: ReadonlySet<string> = new Set(['grade', 'satellites']);

/** The mean of the values that are numbers; null when none is. */
export function mean(values: Iterable<number | null>): number | null {
  let sum = 0;
  let n = 0;
  for (const v of values) {
    if (v !== null && Number.isFinite(v)) {
      sum += v;
      n++;
    }
  }
  return n === 0 ? null : sum / n;
}

/** A run stands for its valid members (for all of them when none is valid). */
function members<T>(run: readonly T[], valid: (r: T) => boolean): { anyValid: boolean; members: readonly T[] } {
  const anyValid = run.some(valid);
  return { anyValid, members: anyValid ? run.filter(valid) : run };
}

/** A run of second-level fixes as one row: the mean of its members, rounded where the column is whole. */
export function averageRun(run: readonly FixRow[]): TableRow {
  if (run.length === 1) return run[0]!;
  const { anyValid, members: shown } = members(run, (r) => r.valid === 1);
  const row: TableRow = { ...shown[0]!, valid: anyValid ? 1 : 0, groupIds: run.map((r) => r.pick_time) };
  for (const k of NUMERIC_FIELDS) {
    const v = mean(shown.map((m) => m[k]));
    row[k] = v !== null && ROUNDED.has(k) ? Math.round(v) : v;
  }
  return row;
}

/** A row of the averaged table before its fixes are read: the time it shows, its fixes, its sort value. */
export interface Group {
  time: number;
  times: number[];
  value: number | null;
}

/**
 * The rows of the averaged table from the range's keys. Runs are made of fixes with a position, as on
 * the map (the track sends only those), so that an averaged row and its point on the map stand for the
 * same fixes; a fix without one stays a row.
 */
export function groupsOf(keys: readonly FixKey[], column: SortColumn): Group[] {
  const groups: Group[] = [];
  const single = (k: FixKey): Group => ({ time: k[0], times: [k[0]], value: k[3] });
  for (const k of keys) if (k[1] === 0) groups.push(single(k));
  for (const run of runs(keys.filter((k) => k[1] === 1), (k) => k[0])) {
    if (run.length === 1) {
      groups.push(single(run[0]!));
      continue;
    }
    const shown = members(run, (k) => k[2] === 1).members;
    const time = shown[0]![0];
    const value = column === 'pick_time' ? time : mean(shown.map((k) => k[3]));
    groups.push({ time, times: run.map((k) => k[0]), value: value !== null && ROUNDED.has(column) ? Math.round(value) : value });
  }
  return groups;
}

/** A track with each run of second-level fixes as one point; `averaged` flags those points. */
export function averageTrack(rows: readonly TrackRow[]): { rows: TrackRow[]; averaged: Uint8Array } {
  const out: TrackRow[] = [];
  const flags: number[] = [];
  for (const run of runs(rows, (r) => r[0])) {
    if (run.length === 1) {
      out.push(run[0]!);
      flags.push(0);
      continue;
    }
    const { anyValid, members: shown } = members(run, (r) => r[5] === 1);
    const at = (i: 1 | 2 | 3 | 4) => mean(shown.map((m) => m[i]));
    const grade = at(4);
    out.push([shown[0]![0], at(1)!, at(2)!, at(3), grade === null ? null : Math.round(grade), anyValid ? 1 : 0]);
    flags.push(1);
  }
  return { rows: out, averaged: Uint8Array.from(flags) };
}
