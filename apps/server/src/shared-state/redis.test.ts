import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code } from '@wildtrack/contract';
import { createTestApp, type TestApp } from '../test/helper.js';
import { redisAnswers, TEST_REDIS_URL } from '../test/redis.js';
import { openSharedState } from './index.js';

const REDIS = await redisAnswers();
if (!REDIS) console.warn(`shared-state/redis.test.ts is skipped: no Redis answers at ${TEST_REDIS_URL} (set REDIS_URL)`);

/** A TCP relay to Redis that the test can cut and restore, as a network or a Redis restart would. */
function relay(target: URL) {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
  });
  return {
    listen: (port = 0) => new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port))),
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

describe('openSharedState with an unreachable REDIS_URL', () => {
  it('fails at once, naming the host, instead of waiting for ever', async () => {
    const started = Date.now();
    await expect(openSharedState({} as never, { redisUrl: 'redis://127.0.0.1:1' })).rejects.toThrow(/^Redis at 127\.0\.0\.1:1 did not answer/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe.skipIf(!REDIS)('a server on Redis when Redis goes away', () => {
  const link = relay(new URL(TEST_REDIS_URL));
  let t: TestApp;
  let port = 0;
  beforeAll(async () => {
    port = await link.listen();
    t = await createTestApp('sqlite', { REDIS_URL: `redis://127.0.0.1:${port}`, REDIS_KEY_PREFIX: `wildtrack-test-${port}:` });
  });
  afterAll(async () => {
    await t.close();
    await link.cut();
  });

  it('answers signed calls 500 (failing closed) while Redis is away, and works again once it is back', async () => {
    expect((await t.call(calls.GetPublicKey.path, {})).body.Code).toBe(Code.Success);
    await link.cut();
    const away = await t.call(calls.GetPublicKey.path, {});
    expect(away.body.Code).toBe(Code.ServerError);
    await link.listen(port);
    await expect.poll(async () => (await t.call(calls.GetPublicKey.path, {})).body.Code, { timeout: 15_000, interval: 200 }).toBe(Code.Success);
  });
});
