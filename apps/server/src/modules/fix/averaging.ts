import type { FixKey, FixRow, SortColumn, TrackRow } from './rows.js';

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

// ---- The averaged table from stored day summaries (bench/tracks 3) -----------------------------------
// Forming the rows of a month of second-level fixes from their keys reads 432,000 rows per page. The
// rows of each UTC day are kept instead, summarised (fix_group_days): per row its span, the time it
// shows and the mean of every sortable column. A range is then answered from the summaries of its days,
// except the rows that a range's ends or a midnight may cut or join, which are formed from the keys as
// before (`regions`): the answer is the same as groupsOf over the range's keys (averaging.test.ts).

/** The sortable columns a summary keeps the value of, in record order (pick_time's value is the time). */
export const SUMMARY_COLUMNS = ['speed', 'alt', 'temperature', 'activity', 'voltage', 'satellites', 'hdop', 'grade', 'tx_time'] as const satisfies readonly SortColumn[];
/** A summary record: start, end, shown time, 1 when made of fixes with a position, then SUMMARY_COLUMNS (NaN for none). */
export const SUMMARY_RECORD = 4 + SUMMARY_COLUMNS.length;

/** A fix as a summary reads it: time, has a position (1/0), valid (1/0), then SUMMARY_COLUMNS. */
export type SummaryKey = [time: number, positioned: number, valid: number, ...values: (number | null)[]];

/** A row of the averaged table from a summary: its fixes are read by span when it is shown. */
export interface SpanGroup extends Group {
  span: { start: number; end: number; positioned: boolean };
}

/** The rows (groups) of a day's keys, in time order, as summary records. */
export function summarise(keys: readonly SummaryKey[]): Float64Array {
  const out: number[] = [];
  const put = (start: number, end: number, time: number, positioned: number, values: (number | null)[]) => {
    out.push(start, end, time, positioned);
    for (const v of values) out.push(v === null ? Number.NaN : v);
  };
  const values = (k: SummaryKey) => k.slice(3) as (number | null)[];
  for (const k of keys) if (k[1] === 0) put(k[0], k[0], k[0], 0, values(k));
  for (const run of runs(keys.filter((k) => k[1] === 1), (k) => k[0])) {
    const first = run[0]!;
    const end = run[run.length - 1]![0];
    if (run.length === 1) {
      put(first[0], end, first[0], 1, values(first));
      continue;
    }
    const shown = members(run, (k) => k[2] === 1).members;
    put(first[0], end, shown[0]![0], 1, SUMMARY_COLUMNS.map((c, i) => {
      const v = mean(shown.map((k) => k[3 + i] ?? null));
      return v !== null && ROUNDED.has(c) ? Math.round(v) : v;
    }));
  }
  return Float64Array.from(out);
}

/**
 * Rows of the averaged table as columns (the time each shows and its sort value, NaN for none), made
 * into Group objects only for the page shown: a month holds 43,200 of them.
 */
export interface GroupSet {
  count: number;
  time: Float64Array;
  value: Float64Array;
  at(i: number): Group;
}

/** A list of groups as a set. */
export function groupSet(groups: readonly Group[]): GroupSet {
  const time = new Float64Array(groups.length);
  const value = new Float64Array(groups.length);
  groups.forEach((g, i) => {
    time[i] = g.time;
    value[i] = g.value ?? Number.NaN;
  });
  return { count: groups.length, time, value, at: (i) => groups[i]! };
}

/** Two sets as one (the rows of the summaries and those formed from the keys). */
export function joinSets(a: GroupSet, b: GroupSet): GroupSet {
  if (b.count === 0) return a;
  const time = new Float64Array(a.count + b.count);
  const value = new Float64Array(a.count + b.count);
  time.set(a.time);
  time.set(b.time, a.count);
  value.set(a.value);
  value.set(b.value, a.count);
  return { count: a.count + b.count, time, value, at: (i) => (i < a.count ? a.at(i) : b.at(i - a.count)) };
}

/**
 * The indices of one page of the set ordered by value (none last), ties by time, either way. The
 * first pages, as people read them, are picked in one pass keeping the best `offset + size`; deeper
 * ones sort the whole set.
 */
export function pageOf(set: GroupSet, descending: boolean, offset: number, size: number): number[] {
  const { time, value, count } = set;
  const before = (i: number, j: number): number => {
    const x = value[i]!;
    const y = value[j]!;
    if (x === y || (Number.isNaN(x) && Number.isNaN(y))) return descending ? time[j]! - time[i]! : time[i]! - time[j]!;
    if (Number.isNaN(x)) return 1;
    if (Number.isNaN(y)) return -1;
    return descending ? y - x : x - y;
  };
  const k = Math.min(count, offset + size);
  if (k <= 0 || offset >= count) return [];
  if (k * 16 > count) {
    const all: number[] = [];
    for (let i = 0; i < count; i++) all.push(i);
    return all.sort(before).slice(offset, k);
  }
  const best: number[] = [];
  for (let i = 0; i < count; i++) {
    if (best.length === k && before(i, best[k - 1]!) >= 0) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(i, best[mid]!) < 0) hi = mid;
      else lo = mid + 1;
    }
    best.splice(lo, 0, i);
    if (best.length > k) best.pop();
  }
  return best.slice(offset);
}

/**
 * The averaged table's rows over [from, to] from the days' summaries: those that stand as they are,
 * and the time regions whose rows must be formed from the keys (groupsOf over the keys of each region,
 * added to `kept`, gives groupsOf over the range's keys). A row is formed again when a range's end cuts
 * it, or when a fix with a position of the next or previous day is within 1.5 s of it (the two runs are
 * one). `days` holds every day of the range that has fixes.
 */
export function groupsFromSummaries(
  days: ReadonlyMap<number, Float64Array>,
  from: number,
  to: number,
  column: SortColumn,
): { kept: GroupSet; regions: [number, number][] } {
  const at = column === 'pick_time' ? 2 : 4 + (SUMMARY_COLUMNS as readonly string[]).indexOf(column);
  let size = 0;
  for (const records of days.values()) size += records.length / SUMMARY_RECORD;
  // (typed arrays filled in loops: TypedArray.from with a map function is many times slower)
  const start = new Float64Array(size);
  const end = new Float64Array(size);
  const time = new Float64Array(size);
  const value = new Float64Array(size);
  const positioned = new Uint8Array(size);
  let n = 0;
  const cut: [number, number][] = [];
  // The first and last time with a position of each day, to see whether a run joins one across midnight.
  const ends = new Map<number, { first: number; last: number }>();
  for (const [day, records] of days) {
    let first = Number.POSITIVE_INFINITY;
    let last = Number.NEGATIVE_INFINITY;
    for (let r = 0; r < records.length; r += SUMMARY_RECORD) {
      if (records[r + 3] !== 1) continue;
      first = Math.min(first, records[r]!);
      last = Math.max(last, records[r + 1]!);
    }
    ends.set(day, { first, last });
  }
  for (const [day, records] of days) {
    const before = ends.get(day - 1)?.last ?? Number.NEGATIVE_INFINITY;
    const after = ends.get(day + 1)?.first ?? Number.POSITIVE_INFINITY;
    for (let r = 0; r < records.length; r += SUMMARY_RECORD) {
      const s = records[r]!;
      const e = records[r + 1]!;
      if (e < from || s > to) continue;
      const p = records[r + 3]!;
      const edge = p === 1 && (s - before <= SECOND_LEVEL_GAP_MS || after - e <= SECOND_LEVEL_GAP_MS);
      if (edge || s < from || e > to) {
        cut.push([Math.max(s, from), Math.min(e, to)]);
        continue;
      }
      start[n] = s;
      end[n] = e;
      time[n] = records[r + 2]!;
      value[n] = records[r + at]!;
      positioned[n] = p;
      n++;
    }
  }
  // Regions close enough for a run to join them are one region.
  cut.sort((a, b) => a[0] - b[0]);
  const regions: [number, number][] = [];
  for (const c of cut) {
    const last = regions[regions.length - 1];
    if (last && c[0] - last[1] <= SECOND_LEVEL_GAP_MS) last[1] = Math.max(last[1], c[1]);
    else regions.push([c[0], c[1]]);
  }
  const inRegion = (s: number, e: number) => {
    let lo = 0;
    let hi = regions.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const [a, b] = regions[mid]!;
      if (e < a) hi = mid - 1;
      else if (s > b) lo = mid + 1;
      else return true;
    }
    return false;
  };
  const keep = new Uint32Array(n);
  const keptTime = new Float64Array(n);
  const keptValue = new Float64Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    if (regions.length > 0 && inRegion(start[i]!, end[i]!)) continue;
    keep[count] = i;
    keptTime[count] = time[i]!;
    keptValue[count] = value[i]!;
    count++;
  }
  const kept: GroupSet = {
    count,
    time: keptTime.subarray(0, count),
    value: keptValue.subarray(0, count),
    at: (k) => {
      const i = keep[k]!;
      const v = value[i]!;
      const g: SpanGroup = { time: time[i]!, times: [], value: Number.isNaN(v) ? null : v, span: { start: start[i]!, end: end[i]!, positioned: positioned[i] === 1 } };
      return g;
    },
  };
  return { kept, regions };
}
