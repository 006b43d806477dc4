import { parseTime } from '@wildtrack/contract';

/**
 * The acceleration panel's arithmetic, free of React: the actogram's day × hour cells of mean ODBA, and
 * where the animal was at a moment (between the two fixes around it).
 */

/** One actogram cell: a local day and hour of the user's zone with its bursts' mean ODBA. */
export interface ActogramCell {
  /** 'YYYY-MM-DD' in the user's zone. */
  day: string;
  hour: number;
  /** Mean of the bursts' mean ODBA (g), NaN when the cell has none. */
  odba: number;
  bursts: number;
}

export interface Actogram {
  days: string[];
  /** days.length × 24, row-major by day. */
  cells: ActogramCell[];
  /** The largest cell mean, for the colour scale (0 without bursts). */
  max: number;
}

const HOUR_MS = 3_600_000;

/** The zone's offset in ms east of UTC ('+08:00' → 8 h). */
export function zoneOffsetMs(zone: string): number {
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(zone);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) * 60_000;
}

const dayText = (localMs: number) => new Date(localMs).toISOString().slice(0, 10);

/**
 * The actogram of bursts (start epoch ms and mean ODBA each) over the range [start, end] (texts in the
 * zone): one row per local day of the range, 24 hour cells each, a cell's value the mean of its bursts'
 * mean ODBA.
 */
export function actogramOf(starts: ArrayLike<number>, odba: ArrayLike<number>, count: number, start: string, end: string, zone: string): Actogram {
  const offset = zoneOffsetMs(zone);
  const from = parseTime(start, zone);
  const to = parseTime(end, zone);
  if (from === null || to === null || to < from) return { days: [], cells: [], max: 0 };
  const firstDay = Math.floor((from + offset) / 86_400_000);
  const lastDay = Math.floor((to + offset) / 86_400_000);
  const dayCount = Math.min(lastDay - firstDay + 1, 3660);
  const sums = new Float64Array(dayCount * 24);
  const counts = new Uint32Array(dayCount * 24);
  for (let i = 0; i < count; i++) {
    const local = starts[i]! + offset;
    const d = Math.floor(local / 86_400_000) - firstDay;
    if (d < 0 || d >= dayCount) continue;
    const h = Math.floor((local - (d + firstDay) * 86_400_000) / HOUR_MS);
    sums[d * 24 + h]! += odba[i]!;
    counts[d * 24 + h]! += 1;
  }
  const days: string[] = [];
  const cells: ActogramCell[] = [];
  let max = 0;
  for (let d = 0; d < dayCount; d++) {
    const day = dayText((firstDay + d) * 86_400_000);
    days.push(day);
    for (let h = 0; h < 24; h++) {
      const n = counts[d * 24 + h]!;
      const v = n > 0 ? sums[d * 24 + h]! / n : NaN;
      if (n > 0 && v > max) max = v;
      cells.push({ day, hour: h, odba: v, bursts: n });
    }
  }
  return { days, cells, max };
}

/** A cell's hour as a range of texts in the zone ('YYYY-MM-DD HH:00:00' to 'HH:59:59'). */
export function cellRange(cell: Pick<ActogramCell, 'day' | 'hour'>): { start: string; end: string } {
  const hh = String(cell.hour).padStart(2, '0');
  return { start: `${cell.day} ${hh}:00:00`, end: `${cell.day} ${hh}:59:59` };
}

/** What a track offers for finding a position by time. */
export interface TimedTrack {
  count: number;
  times: ArrayLike<number>;
  lonLat: ArrayLike<number>;
}

/**
 * Where the animal was at `time`: between the fixes before and after it, linearly by time; the first or
 * last fix outside the track's span; null without fixes.
 */
export function positionAt(track: TimedTrack | undefined, time: number): { lon: number; lat: number } | null {
  if (!track || track.count === 0) return null;
  const { times, lonLat, count } = track;
  let lo = 0;
  let hi = count - 1;
  if (time <= times[0]!) return { lon: lonLat[0]!, lat: lonLat[1]! };
  if (time >= times[hi]!) return { lon: lonLat[2 * hi]!, lat: lonLat[2 * hi + 1]! };
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= time) lo = mid;
    else hi = mid;
  }
  const span = times[hi]! - times[lo]!;
  const f = span > 0 ? (time - times[lo]!) / span : 0;
  return { lon: lonLat[2 * lo]! + f * (lonLat[2 * hi]! - lonLat[2 * lo]!), lat: lonLat[2 * lo + 1]! + f * (lonLat[2 * hi + 1]! - lonLat[2 * lo + 1]!) };
}

// The overview's envelope is computed in the shared acceleration decoder (lib/acceleration), which /map2d uses too.
export { odbaEnvelope, type OdbaEnvelope } from '../../../lib/acceleration/envelope';
