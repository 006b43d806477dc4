import type { FastifyReply, FastifyRequest } from 'fastify';
import { Code } from '@wildtrack/contract';
import { AppError } from '../../http/errors.js';
import type { RateCounters } from '../../shared-state/index.js';
import { now as clockNow } from '../../lib/clock.js';

export const SIGN_IN_RATE_WINDOW_MS = 60_000;


/**
 * The sign-in rate limit per client address: at most `limit` public calls (the public key and the
 * sign-in itself: the only calls anyone may sign) from one address per minute, counted across every
 * server process; beyond it the call is answered 1012 with the seconds to wait, before its signature is
 * checked, its request code remembered, its body read or a password hashed. The lockout per account
 * (service.ts) stops guessing one account's password; this stops trying one password on many accounts
 * from one address, and bounds what an address can make the server remember.
 *
 * An onRequest hook: it runs before anything of the call, and reads the route's call definition.
 * Behind a proxy the address is the client's only with TRUST_PROXY=1.
 */
export function signInRateLimit(counters: RateCounters, limit: number) {
  return async function signInRateLimitHook(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (limit <= 0 || request.routeOptions.config.call?.auth !== 'public') return;
    const now = clockNow();
    const { hits, resetAt } = await counters.hit(`sign-in:${request.ip}`, now, SIGN_IN_RATE_WINDOW_MS);
    if (hits <= limit) return;
    const seconds = Math.max(1, Math.ceil((resetAt - now) / 1000));
    void reply.header('retry-after', String(seconds));
    throw new AppError(Code.TooManyRequests, 'auth.rateLimited', { seconds });
  };
}
