import type { Db } from '../db/connect.js';
import { DatabaseSharedState } from './database.js';
import { RedisSharedState } from './redis.js';
import type { SharedState } from './state.js';

export { type RateCounters, type ReadableCounters, type SharedState, SharedStateUnavailable, windowOf } from './state.js';

export interface SharedStateOptions {
  redisUrl?: string | undefined;
  /** Keys in Redis are prefixed, so that several installations (or test runs) can share one Redis. */
  redisPrefix?: string;
}

export async function openSharedState(database: Db, opts: SharedStateOptions = {}): Promise<SharedState> {
  if (opts.redisUrl) return RedisSharedState.connect(opts.redisUrl, opts.redisPrefix ?? 'wildtrack:');
  return new DatabaseSharedState(database);
}
