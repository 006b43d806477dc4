import { FixValidValue, normalisePrecision, PRECISION_GRADES, type Fix, type PositionFilter, type SortOrder } from '@wildtrack/contract';
import { indexAtTime, type DecodedTrack } from '../../lib/tracks/types';

/**
 * The /track screen's rules kept apart from React: the position filters as the user types them (§9,
 * §5 precision input rule), and finding a fix of the map in the table's pages.
 */

/** The numeric filters of §9, each "value > n". */
export const NUMERIC_FILTERS = ['speed', 'altitude', 'temperature', 'voltage', 'activity'] as const;
export type NumericFilter = (typeof NUMERIC_FILTERS)[number];

/** The filter panel's fields: numbers empty when not used, the precision letters as shown. */
export interface FilterDraft {
  speed: number | null;
  altitude: number | null;
  temperature: number | null;
  voltage: number | null;
  activity: number | null;
  /** Precision letters, normalised: every letter means no precision filter. */
  precision: string;
  validOnly: boolean;
}

export const ALL_GRADES = PRECISION_GRADES.join('');

export const NO_FILTER: FilterDraft = {
  speed: null,
  altitude: null,
  temperature: null,
  voltage: null,
  activity: null,
  precision: ALL_GRADES,
  validOnly: false,
};

/**
 * §5 Precision filter as the input applies it: A–E and N only (either case, spaces and commas ignored),
 * duplicates removed, anything else resets to every letter. The contract's rule, so the server reads
 * the same letters.
 */
export function precisionInput(raw: string): string {
  return normalisePrecision(raw);
}

/** Whether the §5 rule threw the typed letters away (something other than A–E and N was typed). */
export function precisionWasReset(raw: string): boolean {
  const letters = raw.toUpperCase().replace(/[\s,]/g, '');
  return [...letters].some((letter) => !(PRECISION_GRADES as readonly string[]).includes(letter));
}

/** The call's filter: unused fields left out; every letter is no precision filter (N = grades 6 and 7). */
export function toPositionFilter(draft: FilterDraft): PositionFilter {
  const out: PositionFilter = {};
  for (const key of NUMERIC_FILTERS) {
    const v = draft[key];
    if (v !== null && Number.isFinite(v)) out[key] = v;
  }
  const letters = precisionInput(draft.precision);
  if (letters !== ALL_GRADES) out.precision = letters;
  if (draft.validOnly) out.validOnly = true;
  return out;
}

/** How many filters are in use (the filter button's badge). */
export function activeFilterCount(draft: FilterDraft): number {
  const f = toPositionFilter(draft);
  return Object.keys(f).length;
}

// ---- validity --------------------------------------------------------------------------------------

export type FixState = 'valid' | 'noPosition' | 'outOfRange' | 'marked';

/** Why a fix is or isn't valid (§5 position validity, §4 marking), as the table labels it. */
export function fixState(fix: Pick<Fix, 'Validity' | 'ValidValue' | 'Longitude' | 'Latitude' | 'ConvertedInvalid'>): FixState {
  if (fix.ValidValue === FixValidValue.Marked || fix.ConvertedInvalid) return 'marked';
  if (fix.Validity === 1) return 'valid';
  if (fix.Longitude === null || fix.Latitude === null) return 'noPosition';
  return 'outOfRange';
}

/** The fix Ids marking a row covers: an averaged row stands for every fix of its run. */
export function idsToMark(rows: Iterable<Pick<Fix, 'Id' | 'GroupIds'>>): string[] {
  const ids = new Set<string>();
  for (const row of rows) for (const id of row.GroupIds && row.GroupIds.length > 0 ? row.GroupIds : [row.Id]) ids.add(id);
  return [...ids];
}

// ---- table <-> map ---------------------------------------------------------------------------------

/** The point of a track at a fix's time (its Id is the pick time in ms), or -1 when the track has none. */
export function trackIndexOf(track: DecodedTrack | undefined, id: string): number {
  if (!track) return -1;
  const time = Number(id);
  const index = indexAtTime(track, time);
  return index >= 0 && track.times[index] === time ? index : -1;
}

/**
 * Where a fix stands in the time-sorted table: `before` rows are older than it, of `total`. Descending
 * (the default order) puts the newest first.
 */
export function rowPosition(before: number, total: number, order: SortOrder): number {
  const position = order === 'ascend' ? before : total - before - 1;
  return Math.max(0, Math.min(Math.max(total - 1, 0), position));
}

/** The 1-based page holding a 0-based row position. */
export function pageOf(position: number, pageSize: number): number {
  return Math.floor(Math.max(0, position) / pageSize) + 1;
}

/**
 * After the counted page has come: 'found' when it holds the fix, else the neighbouring page towards it
 * (the count can be one off: fixes within one second, a second-level run cut by the range), or 'lost'
 * when no page can hold it.
 */
export function locateStep(
  id: string,
  rows: readonly Pick<Fix, 'Id'>[],
  total: number,
  paging: { currentPage: number; pageSize: number; sortField?: string | undefined; sortOrder?: SortOrder | undefined },
): 'found' | 'lost' | number {
  if (rows.some((r) => r.Id === id)) return 'found';
  if (rows.length === 0) return 'lost';
  const time = Number(id);
  const descending = (paging.sortField ? paging.sortOrder : 'descend') !== 'ascend';
  const first = Number(rows[0]!.Id);
  const last = Number(rows[rows.length - 1]!.Id);
  let next = paging.currentPage;
  if (descending ? time > first : time < first) next -= 1;
  else if (descending ? time < last : time > last) next += 1;
  const pages = Math.max(1, Math.ceil(total / paging.pageSize));
  return next === paging.currentPage || next < 1 || next > pages ? 'lost' : next;
}
