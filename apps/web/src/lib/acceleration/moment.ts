import type { AccelerationSeries } from '@wildtrack/contract';

/**
 * The ODBA of a moment (/map2d's replay, issue 13 item 3): the mean ODBA of the burst nearest the moment,
 * when one is near. "Near" is within the device's burst interval (the median gap between its bursts'
 * starts): between two regular bursts there is always one, in a longer gap (the logger off, a range
 * without bursts) there is none.
 */

/** Without two bursts to measure the interval from, a burst counts as near within this. */
export const LONE_BURST_WINDOW_MS = 10 * 60_000;

type Bursts = Pick<AccelerationSeries, 'burstCount' | 'start' | 'hz' | 'count' | 'meanOdba'>;

/** The median gap (ms) between consecutive burst starts; LONE_BURST_WINDOW_MS with fewer than two bursts. */
export function burstInterval(s: Bursts): number {
  if (s.burstCount < 2) return LONE_BURST_WINDOW_MS;
  const gaps = new Float64Array(s.burstCount - 1);
  for (let i = 1; i < s.burstCount; i++) gaps[i - 1] = Math.abs(s.start[i]! - s.start[i - 1]!);
  gaps.sort();
  return gaps[gaps.length >> 1]! || LONE_BURST_WINDOW_MS;
}

/** Where a burst ends (ms): its start plus its samples' span. */
const burstEnd = (s: Bursts, i: number) => s.start[i]! + (s.hz[i]! > 0 ? (s.count[i]! / s.hz[i]!) * 1000 : 0);

/**
 * The burst nearest `time` (0 inside a burst, else to its nearer edge) if it is within `window` ms: its
 * index, start and mean ODBA (g); null otherwise. Bursts are in time order (the series is).
 */
export function burstNear(s: Bursts, time: number, window: number): { index: number; start: number; odba: number } | null {
  const n = s.burstCount;
  if (n === 0) return null;
  // The last burst starting at or before `time` (-1 when none), by bisection.
  let lo = -1;
  let hi = n;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (s.start[mid]! <= time) lo = mid;
    else hi = mid;
  }
  let best = -1;
  let distance = Infinity;
  if (lo >= 0) {
    best = lo;
    distance = Math.max(0, time - burstEnd(s, lo));
  }
  if (lo + 1 < n && s.start[lo + 1]! - time < distance) {
    best = lo + 1;
    distance = s.start[lo + 1]! - time;
  }
  if (best < 0 || distance > window) return null;
  return { index: best, start: s.start[best]!, odba: s.meanOdba[best]! };
}
