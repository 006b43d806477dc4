import { createClient } from 'redis';
import { type SharedState, windowOf } from './index.js';

/**
 * A client that gives up when the first connection fails (so a start with a wrong REDIS_URL fails at
 * once instead of waiting for ever), and once connected reconnects for as long as it takes.
 */
function newClient(url: string, state: { connected: boolean }) {
  return createClient({
    url,
    // While Redis is away a command fails at once (the call is answered 500) instead of waiting in a queue.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 5_000,
      reconnectStrategy: (retries, cause) => (state.connected ? Math.min(retries * 200, 2_000) : cause),
    },
  });
}
type Client = ReturnType<typeof newClient>;

/**
 * Shared state in Redis (REDIS_URL): a request code is a key set with NX and an expiry (PX), a counter
 * a key per window incremented and given the window's end as its expiry. Redis forgets both by itself.
 */
export class RedisSharedState implements SharedState {
  readonly kind = 'redis';

  private constructor(
    private readonly client: Client,
    private readonly prefix: string,
  ) {}

  /** Connects, failing the start (with the URL's host named) when Redis does not answer. */
  static async connect(url: string, prefix: string): Promise<RedisSharedState> {
    const state = { connected: false };
    const client = newClient(url, state);
    // Without a listener node-redis throws on a lost connection; commands fail (and calls are answered
    // 500: no replay is let through for want of memory) until it is back.
    client.on('error', () => {});
    try {
      await client.connect();
      state.connected = true;
    } catch (err) {
      client.destroy();
      throw new Error(`Redis at ${new URL(url).host} did not answer: ${err instanceof Error ? err.message : String(err)}`);
    }
    return new RedisSharedState(client, prefix);
  }

  async claimCode(code: string, now: number, expiresAt: number): Promise<boolean> {
    const ttl = Math.max(1, expiresAt - now);
    const r = await this.client.set(`${this.prefix}rc:${code}`, '1', { condition: 'NX', expiration: { type: 'PX', value: ttl } });
    return r === 'OK';
  }

  async hit(key: string, now: number, windowMs: number): Promise<{ hits: number; resetAt: number }> {
    const { index, resetAt } = windowOf(now, windowMs);
    const k = `${this.prefix}rl:${key}@${index}`;
    const [hits] = await this.client.multi().incr(k).pExpireAt(k, resetAt).exec();
    return { hits: Number(hits), resetAt };
  }

  async sweep(): Promise<number> {
    return 0;
  }

  async close(): Promise<void> {
    await this.client.close();
  }
}
