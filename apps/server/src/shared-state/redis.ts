import { createClient } from 'redis';
import { type SharedState, SharedStateUnavailable, windowOf } from './state.js';

/**
 * How long a command may wait for Redis's answer before the call is answered 'unavailable' (503): a
 * Redis that stopped answering with the connection still open. node-redis's own command timeout only
 * covers commands not yet written, so the wait is bounded here.
 */
const COMMAND_TIMEOUT_MS = 2_000;

/**
 * A client that gives up when the first connection fails (so a start with a wrong REDIS_URL fails at
 * once instead of waiting for ever), and once connected reconnects for as long as it takes.
 */
export function newClient(url: string, state: { connected: boolean }) {
  const client = createClient({
    url,
    // While Redis is away a command fails at once (the call is answered 503, Code.Unavailable) instead of
    // waiting in a queue.
    disableOfflineQueue: true,
    // The wait is bounded by run() below; node-redis's own default (5 s) would make an AbortSignal.timeout for
    // every command, each one firing later and building a DOMException (~1 % of a server's CPU under bench/load).
    commandOptions: { timeout: 0 },
    socket: {
      connectTimeout: 5_000,
      reconnectStrategy: (retries, cause) => (state.connected ? Math.min(retries * 200, 2_000) : cause),
    },
  });
  // Without a listener node-redis throws on a lost connection; commands fail (and calls are answered
  // 503 'unavailable': no replay is let through for want of memory) until it is back.
  client.on('error', () => {});
  return client;
}
type Client = ReturnType<typeof newClient>;

class NoAnswer extends Error {
  constructor() {
    super(`Redis did not answer within ${COMMAND_TIMEOUT_MS} ms`);
  }
}

/**
 * Shared state in Redis (REDIS_URL): a request code is a key set with NX and an expiry (PX), a counter
 * a key per window incremented and given the window's end as its expiry. Redis forgets both by itself.
 * A command that fails or gets no answer in time throws SharedStateUnavailable.
 */
export class RedisSharedState implements SharedState {
  readonly kind = 'redis';

  private constructor(
    private client: Client,
    private readonly url: string,
    private readonly prefix: string,
  ) {}

  /** Connects, failing the start (with the URL's host named) when Redis does not answer. */
  static async connect(url: string, prefix: string): Promise<RedisSharedState> {
    const state = { connected: false };
    const client = newClient(url, state);
    try {
      await client.connect();
      state.connected = true;
    } catch (err) {
      client.destroy();
      throw new Error(`Redis at ${new URL(url).host} did not answer: ${err instanceof Error ? err.message : String(err)}`);
    }
    return new RedisSharedState(client, url, prefix);
  }

  /** One command with a bounded wait; a connection that let a command go unanswered is replaced. */
  private async run<T>(command: (client: Client) => Promise<T>): Promise<T> {
    const client = this.client;
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        command(client),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new NoAnswer()), COMMAND_TIMEOUT_MS);
        }),
      ]);
    } catch (err) {
      if (err instanceof NoAnswer) this.replace(client);
      throw new SharedStateUnavailable(err);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Answers on a connection that left a command unanswered can no longer be matched to their commands:
   * it is dropped (its waiting commands fail) and a new one made, which reconnects for as long as it takes.
   */
  private replace(stale: Client): void {
    if (this.client !== stale) return;
    const fresh = newClient(this.url, { connected: true });
    this.client = fresh;
    stale.destroy();
    fresh.connect().catch(() => {});
  }

  async claimCode(code: string, now: number, expiresAt: number): Promise<boolean> {
    const ttl = Math.max(1, expiresAt - now);
    const r = await this.run((c) => c.set(`${this.prefix}rc:${code}`, '1', { condition: 'NX', expiration: { type: 'PX', value: ttl } }));
    return r === 'OK';
  }

  async hit(key: string, now: number, windowMs: number): Promise<{ hits: number; resetAt: number }> {
    const { index, resetAt } = windowOf(now, windowMs);
    const k = `${this.prefix}rl:${key}@${index}`;
    // Expiring after the window's time left, not at its end: the end is on the server's clock (lib/clock.ts),
    // which CLOCK_START may set apart from Redis's own.
    const [hits] = await this.run((c) => c.multi().incr(k).pExpire(k, Math.max(1, resetAt - now)).exec());
    return { hits: Number(hits), resetAt };
  }

  async count(key: string, now: number, windowMs: number): Promise<number> {
    const { index } = windowOf(now, windowMs);
    const hits = await this.run((c) => c.get(`${this.prefix}rl:${key}@${index}`));
    return Number(hits ?? 0);
  }

  async sweep(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    const client = this.client;
    if (client.isOpen) await client.close();
    else client.destroy();
  }
}
