import { formatTime } from '@wildtrack/contract';

// The fixed instants route tests make their records at (not "now"), and the zone they read them in:
// one place for what field, sensor, acceleration, fix and instruction tests share.

/** The zone the tests sign in with and read times in. */
export const ZONE = '+08:00';
export const MIN = 60_000;
export const HOUR = 60 * MIN;
export const DAY = 24 * HOUR;
/** 2026-11-01 08:00 in +08:00. */
export const BASE = Date.UTC(2026, 10, 1, 0, 0, 0);
/** The instant a test that needs "now" runs at (test/clock.ts useFixedClock): a month after BASE. */
export const NOW = BASE + 30 * DAY;
/** A time as the API's text in the zone (ZONE unless given). */
export const local = (ms: number, zone = ZONE): string => formatTime(ms, zone);

/** A paged list's Data. */
export interface Page<R> {
  List: R[];
  Total: number;
}
