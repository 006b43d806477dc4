import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code } from '@wildtrack/contract';
import { createTestApp, type TestApp } from '../test/helper.js';
import { redisAnswers, TEST_REDIS_URL } from '../test/redis.js';
import { BASE, MIN } from '../test/fixed-time.js';
import { openSharedState } from './index.js';

const REDIS = await redisAnswers();
if (!REDIS) console.warn(`shared-state/redis.test.ts is skipped: no Redis answers at ${TEST_REDIS_URL} (set REDIS_URL)`);

/**
 * A TCP relay to Redis that the test can cut and restore, as a network or a Redis restart would, or hold
 * (connections stay open, nothing goes through), as a Redis that stopped answering would.
 */
function relay(target: URL) {
  const sockets = new Set<net.Socket>();
  let held = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 6379), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => {});
      s.on('close', () => sockets.delete(s));
    }
    client.on('data', (d) => held || upstream.write(d));
    upstream.on('data', (d) => held || client.write(d));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  return {
    listen: (port = 0) => new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port))),
    hold: (on: boolean) => {
      held = on;
    },
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

describe('openSharedState with an unreachable REDIS_URL', () => {
  it('fails at once, naming the host, instead of waiting for ever', async () => {
    // a hang guard on a real socket (not a budget: those are in bench/), timed on the monotonic clock
    const started = performance.now();
    await expect(openSharedState({} as never, { redisUrl: 'redis://127.0.0.1:1' })).rejects.toThrow(/^Redis at 127\.0\.0\.1:1 did not answer/);
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

describe.skipIf(!REDIS)('rate windows on Redis at the server\'s clock', () => {
  it('counts a window that lies on the server\'s clock (CLOCK_START a month before Redis\'s time), not one Redis expired at once', async () => {
    const shared = await openSharedState({} as never, { redisUrl: TEST_REDIS_URL, redisPrefix: `wildtrack-test-clock-${process.pid}-${BASE}:` });
    try {
      // BASE is in the past of the machine's time: a key set to expire at the window's end on Redis's clock was gone before the next hit.
      expect(await shared.hit('sign-in:192.0.2.1', BASE, MIN)).toEqual({ hits: 1, resetAt: BASE + MIN });
      expect(await shared.hit('sign-in:192.0.2.1', BASE + 59_000, MIN)).toEqual({ hits: 2, resetAt: BASE + MIN });
      expect(await shared.count('sign-in:192.0.2.1', BASE + 30_000, MIN)).toBe(2);
      expect(await shared.hit('sign-in:192.0.2.1', BASE + MIN, MIN)).toEqual({ hits: 1, resetAt: BASE + 2 * MIN });
    } finally {
      await shared.close();
    }
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

  const unavailable = { en: 'The service is unavailable for a moment; try again shortly.', zh: '服务暂时不可用，请稍后重试。' };

  it('answers signed calls 503 "unavailable" in the caller\'s language (failing closed, not a 500) while Redis is away, and works again once it is back', async () => {
    expect((await t.call(calls.GetPublicKey.path, {})).body.Code).toBe(Code.Success);
    await link.cut();
    for (const lang of ['en', 'zh'] as const) {
      const away = await t.call(calls.GetPublicKey.path, {}, { lang });
      expect(away.res.statusCode).toBe(503);
      expect(away.res.headers['retry-after']).toBe('5');
      expect(away.body).toEqual({ Code: Code.Unavailable, Msg: unavailable[lang], Data: null });
    }
    await link.listen(port);
    await expect.poll(async () => (await t.call(calls.GetPublicKey.path, {})).body.Code, { timeout: 15_000, interval: 200 }).toBe(Code.Success);
  });

  it('answers 503 "unavailable" within seconds when Redis stops answering (connection open, no reply), then works again', async () => {
    await expect.poll(async () => (await t.call(calls.GetPublicKey.path, {})).body.Code, { timeout: 15_000, interval: 200 }).toBe(Code.Success);
    link.hold(true);
    // Redis's real command timeout, guarded on the monotonic clock (not a budget: those are in bench/)
    const started = performance.now();
    const silent = await t.call(calls.GetPublicKey.path, {}, { lang: 'en' });
    expect(silent.res.statusCode).toBe(503);
    expect(silent.body).toEqual({ Code: Code.Unavailable, Msg: unavailable.en, Data: null });
    expect(performance.now() - started).toBeLessThan(10_000);
    link.hold(false);
    await expect.poll(async () => (await t.call(calls.GetPublicKey.path, {})).body.Code, { timeout: 15_000, interval: 200 }).toBe(Code.Success);
  });
});
