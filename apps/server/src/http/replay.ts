import { SIGNATURE_WINDOW_MS } from '@wildtrack/contract';

/** Where used request codes are kept: the database or Redis (shared-state/), shared by every process. */
export interface RequestCodeStore {
  /** True the first time a code is claimed; false while an earlier claim of it has not expired. */
  claimCode(code: string, now: number, expiresAt: number): Promise<boolean>;
}

/**
 * Remembers request codes so that a request can't be played twice: not after a restart, not on another
 * server process. A code is kept for twice the signature window (a request is refused by its timestamp
 * once it is older than the window, whichever process or clock it reaches), then forgotten.
 *
 * Only codes of requests whose signature checked out are remembered (verifySignature claims the code
 * last): a request refused for a missing header, a stale timestamp, a bad signature or an unknown
 * session leaves nothing behind. The codes of public calls, which anyone can sign, are bounded by the
 * sign-in rate limit per client address (modules/auth/rate-limit.ts), checked before the signature.
 */
export class ReplayGuard {
  constructor(
    private readonly store: RequestCodeStore,
    private readonly windowMs = SIGNATURE_WINDOW_MS,
  ) {}

  /** Records the code; false when it was used before inside the window, by this process or another. */
  remember(code: string, now: number): Promise<boolean> {
    return this.store.claimCode(code, now, now + this.windowMs * 2);
  }
}
