/**
 * The shared state's contract, below its two stores (database.ts, redis.ts) and the index that picks one:
 * the stores import this, never the index, so the index importing them makes no circle.
 */

/**
 * What every server process must share and what must outlive a restart, beyond the database's own
 * tables: used request codes (replay protection) and fixed-window counters (rate limits). Kept in the
 * database by default, in Redis when REDIS_URL is set (faster, and it expires keys by itself).
 */
export interface SharedState {
  readonly kind: 'database' | 'redis';
  /**
   * Claims `code` until `expiresAt` (epoch ms): true the first time, false when any process claimed it
   * before and it has not expired yet. One atomic step (a unique insert; SET NX), so two processes
   * racing on one code never both win.
   */
  claimCode(code: string, now: number, expiresAt: number): Promise<boolean>;
  /**
   * Counts one hit on `key` in the fixed window of `windowMs` that `now` falls in, and returns the hits
   * so far in that window and when it ends.
   */
  hit(key: string, now: number, windowMs: number): Promise<{ hits: number; resetAt: number }>;
  /** The hits counted on `key` so far in the window `now` falls in, without counting one (0 when none). */
  count(key: string, now: number, windowMs: number): Promise<number>;
  /** Forgets what has expired (the database's job; Redis expires keys itself). Returns rows deleted. */
  sweep(now: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * The shared store did not answer (Redis away or silent): the transport answers 503 with Code.Unavailable
 * and a localised message, as a refusal rather than an unexpected error. Told by its `code`, because
 * http/ does not import this folder.
 */
export class SharedStateUnavailable extends Error {
  readonly code = 'WT_SHARED_STATE_UNAVAILABLE';
  readonly statusCode = 503;
  constructor(cause: unknown) {
    super(`the shared state store did not answer: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'SharedStateUnavailable';
  }
}

/** Fixed-window counters every server process shares (sign-in, QR polls, share look-ups): SharedState's `hit`. */
export type RateCounters = Pick<SharedState, 'hit'>;
/** Counters that are also read without counting (the account's daily budget of code tries: modules/account). */
export type ReadableCounters = Pick<SharedState, 'hit' | 'count'>;

/** The window a time falls in: windows start at multiples of their length, so every process agrees. */
export function windowOf(now: number, windowMs: number): { index: number; resetAt: number } {
  const index = Math.floor(now / windowMs);
  return { index, resetAt: (index + 1) * windowMs };
}
