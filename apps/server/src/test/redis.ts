import { createClient } from 'redis';

/** Redis for the tests that need one: $REDIS_URL, else the local default. */
export const TEST_REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Whether Redis answers a PING within a second (tests that need it are skipped, saying why, when not). */
export async function redisAnswers(url = TEST_REDIS_URL): Promise<boolean> {
  const c = createClient({ url, socket: { connectTimeout: 1_000, reconnectStrategy: false } });
  c.on('error', () => {});
  try {
    await c.connect();
    await c.ping();
    await c.close();
    return true;
  } catch {
    return false;
  }
}
