/**
 * The server's one clock (shared/CONVENTIONS.md 22): every "what time is it" of the server (sessions,
 * shares' windows, rate and code windows, ingest's time checks, jobs' schedules and leases) reads `now()`,
 * so that a test can fix the instant and no test depends on the date it runs or sleeps past a boundary.
 *
 * Three ways it runs, one process-wide state:
 * - real (the default): `Date.now()`, read on each call (so Vitest's fake timers still reach it);
 * - started at an instant (`CLOCK_START`, config.ts; `startClock`): that instant plus the real time elapsed
 *   since, measured on the monotonic `performance.now()`, so it never steps back when the system clock does;
 * - fixed (tests only: `setClock`, `advanceClock`): the instant set, moving only when told.
 *
 * `now()` allocates nothing and answers whole milliseconds, as every table stores them.
 * Durations (how long a pass or a request took, a timeout's deadline) are not "what time is it": they stay
 * on `performance.now()` or `Date.now()` where they are measured, and say so.
 */

const REAL = 0;
const STARTED = 1;
const FIXED = 2;

let mode: typeof REAL | typeof STARTED | typeof FIXED = REAL;
/** STARTED: the instant the clock was started at; FIXED: the instant it reads. */
let base = 0;
/** STARTED: `performance.now()` when it was started. */
let startedAt = 0;

/** What time it is for the server: ms since the epoch, a whole number. */
export function now(): number {
  if (mode === REAL) return Date.now();
  if (mode === FIXED) return base;
  return base + Math.floor(performance.now() - startedAt);
}

/** From now on the clock reads `instantMs` and advances with real elapsed time (what `CLOCK_START` does). */
export function startClock(instantMs: number): void {
  base = checked(instantMs);
  startedAt = performance.now();
  mode = STARTED;
}

/** Tests: the clock reads `instantMs` and stays there until set or advanced again. */
export function setClock(instantMs: number): void {
  base = checked(instantMs);
  mode = FIXED;
}

/** Tests: moves a fixed clock on by `ms` (back with a negative `ms`), or fixes it that far from now. */
export function advanceClock(ms: number): void {
  setClock(now() + ms);
}

/** The real clock again (tests reset to it between tests: test/clock.ts). */
export function useRealClock(): void {
  mode = REAL;
}

/** Whether the clock is the system's (neither started at an instant nor fixed). */
export function clockIsReal(): boolean {
  return mode === REAL;
}

function checked(instantMs: number): number {
  if (!Number.isSafeInteger(instantMs)) throw new RangeError(`the clock takes whole milliseconds since the epoch, not ${instantMs}`);
  return instantMs;
}
