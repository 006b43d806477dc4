import { SIGNATURE_WINDOW_MS } from '@wildtrack/contract';

/**
 * Remembers request codes for the signature window so that a request can't be played twice. Codes
 * older than the window need no memory: their timestamps are refused anyway. Kept in this process;
 * several server processes behind one balancer would share it through the database or Redis.
 */
export class ReplayGuard {
  private seen = new Map<string, number>();
  private lastSweep = 0;

  constructor(
    private readonly windowMs = SIGNATURE_WINDOW_MS,
    private readonly maxEntries = 2_000_000,
  ) {}

  /** Records the code; false when it was seen inside the window. */
  remember(code: string, now: number): boolean {
    if (now - this.lastSweep > 10_000 || this.seen.size >= this.maxEntries) this.sweep(now);
    const until = this.seen.get(code);
    if (until !== undefined && until > now) return false;
    this.seen.set(code, now + this.windowMs * 2);
    return true;
  }

  private sweep(now: number): void {
    this.lastSweep = now;
    for (const [code, until] of this.seen) if (until <= now) this.seen.delete(code);
  }
}
