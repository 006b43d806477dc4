import { BOUNDED_FILTERS, FixValidValue, normalisePrecision, PRECISION_GRADES, type BoundedFilter, type Fix, type PositionFilter, type SortOrder } from '@wildtrack/contract';
import { indexAtTime, type DecodedTrack } from '../../lib/tracks/types';

/**
 * The /track screen's rules kept apart from React: the position filters as the user types them (§9,
 * §5 precision input rule), and finding a fix of the map in the table's pages.
 */

/**
 * The numeric filters: §9's five, each "value > n", and HDOP and satellites; each also takes an optional
 * upper bound ("value ≤ m", issue 12), sent as the contract's `…Max` field.
 */
export const NUMERIC_FILTERS = BOUNDED_FILTERS;
export type NumericFilter = BoundedFilter;
export type UpperBound = `${NumericFilter}Max`;
export const upperOf = (key: NumericFilter): UpperBound => `${key}Max`;

/** The filter panel's fields: numbers empty when not used, the precision letters as chosen. */
export type FilterDraft = Record<NumericFilter | UpperBound, number | null> & {
  /** Precision letters, normalised: every letter means no precision filter. */
  precision: string;
  validOnly: boolean;
};

export const ALL_GRADES = PRECISION_GRADES.join('');

export const NO_FILTER: FilterDraft = {
  ...(Object.fromEntries(NUMERIC_FILTERS.flatMap((k) => [[k, null], [upperOf(k), null]])) as Record<NumericFilter | UpperBound, null>),
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

/**
 * The precision letters after a checkbox change: the chosen letters in A–E, N order. The last letter
 * can't be unticked (the boxes never ask for no grade at all), so §5's rule holds by construction.
 */
export function gradesAfter(current: string, letter: string, checked: boolean): string {
  const chosen = new Set(precisionInput(current));
  if (checked) chosen.add(letter);
  else if (chosen.size > 1) chosen.delete(letter);
  return PRECISION_GRADES.filter((g) => chosen.has(g)).join('');
}

/** The filters whose upper bound is not above their lower one (the server refuses those: 601). */
export function reversedBounds(draft: FilterDraft): NumericFilter[] {
  return NUMERIC_FILTERS.filter((k) => {
    const lower = draft[k];
    const upper = draft[upperOf(k)];
    return lower !== null && upper !== null && upper <= lower;
  });
}

/** The call's filter: unused fields left out; every letter is no precision filter (N = grades 6 and 7). */
export function toPositionFilter(draft: FilterDraft): PositionFilter {
  const out: PositionFilter = {};
  for (const key of NUMERIC_FILTERS) {
    for (const field of [key, upperOf(key)] as const) {
      const v = draft[field];
      if (v !== null && v !== undefined && Number.isFinite(v)) out[field] = v;
    }
  }
  const letters = precisionInput(draft.precision);
  if (letters !== ALL_GRADES) out.precision = letters;
  if (draft.validOnly) out.validOnly = true;
  return out;
}

/** The panel's fields for a call's filter (one kept in the URL): the inverse of toPositionFilter. */
export function toFilterDraft(filter: PositionFilter): FilterDraft {
  const draft: FilterDraft = { ...NO_FILTER, precision: filter.precision ? precisionInput(filter.precision) : ALL_GRADES, validOnly: filter.validOnly === true };
  for (const key of NUMERIC_FILTERS) {
    for (const field of [key, upperOf(key)] as const) draft[field] = filter[field] ?? null;
  }
  return draft;
}

/** How many filters are in use (the filter button's badge): a lower and an upper bound count as one. */
export function activeFilterCount(draft: FilterDraft): number {
  const f = toPositionFilter(draft);
  const names = new Set(Object.keys(f).map((k) => k.replace(/Max$/, '')));
  return names.size;
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

// ---- map selection ---------------------------------------------------------------------------------

/** A rectangle on the map's screen, in CSS pixels from its top-left corner. */
export interface ScreenBox {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

/** What a box drawn on the map holds for marking. */
export interface BoxChoice {
  /** Ids of the valid single fixes inside the box (the ones a mark changes). */
  ids: string[];
  /** Points of second-level averages inside it: their fixes are marked from the table's row. */
  averaged: number;
}

/**
 * The fixes of a track whose points lie inside a screen box (corners in any order). Only valid fixes are
 * chosen (an invalid one is already out of the analysis, a marked one can't be marked again); a point
 * that averages a second-level run stands for fixes the track doesn't name, so it is counted apart.
 */
export function fixesInBox(track: DecodedTrack | undefined, box: ScreenBox, project: (lon: number, lat: number) => { x: number; y: number }): BoxChoice {
  const out: BoxChoice = { ids: [], averaged: 0 };
  if (!track) return out;
  const left = Math.min(box.x0, box.x1);
  const right = Math.max(box.x0, box.x1);
  const top = Math.min(box.y0, box.y1);
  const bottom = Math.max(box.y0, box.y1);
  for (let i = 0; i < track.count; i++) {
    if (track.valid[i] !== 1) continue;
    const p = project(track.lonLat[2 * i]!, track.lonLat[2 * i + 1]!);
    if (p.x < left || p.x > right || p.y < top || p.y > bottom) continue;
    if (track.averaged[i] === 1) out.averaged += 1;
    else out.ids.push(String(track.times[i]));
  }
  return out;
}

/** Whether a screen point lies inside a polygon (even-odd rule; the polygon closes itself). */
export function insidePolygon(p: { x: number; y: number }, polygon: readonly { x: number; y: number }[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const a = polygon[i]!;
    const b = polygon[j]!;
    if (a.y > p.y !== b.y > p.y && p.x < ((b.x - a.x) * (p.y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

/** The fixes of a track inside a lasso drawn on the map: as fixesInBox, within the drawn outline. */
export function fixesInLasso(track: DecodedTrack | undefined, outline: readonly { x: number; y: number }[], project: (lon: number, lat: number) => { x: number; y: number }): BoxChoice {
  const out: BoxChoice = { ids: [], averaged: 0 };
  if (!track || outline.length < 3) return out;
  const xs = outline.map((p) => p.x);
  const ys = outline.map((p) => p.y);
  const bounds = { x0: Math.min(...xs), y0: Math.min(...ys), x1: Math.max(...xs), y1: Math.max(...ys) };
  for (let i = 0; i < track.count; i++) {
    if (track.valid[i] !== 1) continue;
    const p = project(track.lonLat[2 * i]!, track.lonLat[2 * i + 1]!);
    if (p.x < bounds.x0 || p.x > bounds.x1 || p.y < bounds.y0 || p.y > bounds.y1 || !insidePolygon(p, outline)) continue;
    if (track.averaged[i] === 1) out.averaged += 1;
    else out.ids.push(String(track.times[i]));
  }
  return out;
}
