import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls } from '@wildtrack/contract';
import { loadConfig } from './config.js';
import { createTestApp, DIALECTS, type TestApp } from './test/helper.js';

describe('config', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.dataDir).toMatch(/data$/);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.sessionIdleMs).toBe(7 * 24 * 3600 * 1000);
    // Shared state in the database, a sign-in limit of 60 public calls a minute per address.
    expect(c.redisUrl).toBeUndefined();
    expect(c.redisKeyPrefix).toBe('wildtrack:');
    expect(c.signInRateLimit).toBe(60);
    // Event e-mail claims a batch a minute.
    expect(c.eventMailIntervalMs).toBe(60_000);
    // Passwords at argon2's 64 MiB.
    expect(c.passwordHashMemoryKib).toBe(65536);
  });

  it('fails fast naming the variable that is wrong', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ TLS_CERT: '/tmp/cert.pem' })).toThrow(/TLS_CERT and TLS_KEY/);
    expect(() => loadConfig({ REDIS_URL: 'http://127.0.0.1:6379' })).toThrow(/REDIS_URL: must be a redis:\/\/ or rediss:\/\/ URL/);
    expect(() => loadConfig({ SIGN_IN_RATE_LIMIT: '-1' })).toThrow(/SIGN_IN_RATE_LIMIT/);
    expect(() => loadConfig({ EVENT_MAIL_INTERVAL_SECONDS: '0' })).toThrow(/EVENT_MAIL_INTERVAL_SECONDS/);
    expect(() => loadConfig({ EVENT_MAIL_INTERVAL_SECONDS: '1.5' })).toThrow(/EVENT_MAIL_INTERVAL_SECONDS/);
    expect(loadConfig({ EVENT_MAIL_INTERVAL_SECONDS: '2' }).eventMailIntervalMs).toBe(2_000);
    expect(() => loadConfig({ PASSWORD_HASH_MEMORY_KIB: '512' })).toThrow(/PASSWORD_HASH_MEMORY_KIB/);
    expect(loadConfig({ PASSWORD_HASH_MEMORY_KIB: '1024' }).passwordHashMemoryKib).toBe(1024);
    expect(loadConfig({ REDIS_URL: 'rediss://cache.example.org:6380', SIGN_IN_RATE_LIMIT: '0' })).toMatchObject({ redisUrl: 'rediss://cache.example.org:6380', signInRateLimit: 0 });
  });

  it('takes CLOCK_START as an ISO instant with its zone, unset by default', () => {
    expect(loadConfig({}).clockStart).toBeUndefined();
    expect(loadConfig({ CLOCK_START: '2026-11-01T00:00:00Z' }).clockStart).toBe(Date.UTC(2026, 10, 1));
    expect(loadConfig({ CLOCK_START: '2026-11-01T08:00+08:00' }).clockStart).toBe(Date.UTC(2026, 10, 1));
    expect(loadConfig({ CLOCK_START: '2026-11-01T00:00:00.250Z' }).clockStart).toBe(Date.UTC(2026, 10, 1) + 250);
    for (const bad of ['2026-11-01', '2026-11-01T00:00:00', 'tomorrow', '2026-13-01T00:00:00Z', '1761955200000']) {
      expect(() => loadConfig({ CLOCK_START: bad }), bad).toThrow(/CLOCK_START: must be/);
    }
  });
});

describe.each(DIALECTS)('a server built with CLOCK_START on %s', (dialect) => {
  const START = Date.UTC(2026, 10, 1);
  let t: TestApp;
  let from = 0;
  beforeAll(async () => {
    from = performance.now();
    t = await createTestApp(dialect, { CLOCK_START: new Date(START).toISOString() });
  });
  afterAll(async () => t?.close());

  it("answers at that instant plus the time since: the heartbeat's ServerTime, a session's sign-in", async () => {
    const { token, userName } = await t.userWithToken();
    const time = (await t.call(calls.Heartbeat.path, {}, { token })).body.Data as { ServerTime: number };
    const elapsed = Math.ceil(performance.now() - from);
    expect(time.ServerTime).toBeGreaterThanOrEqual(START);
    expect(time.ServerTime - START).toBeLessThanOrEqual(elapsed);
    const signedIn = Number((await t.database.db.selectFrom('users').select('last_sign_in_at').where('user_name', '=', userName).executeTakeFirstOrThrow()).last_sign_in_at);
    expect(signedIn).toBeGreaterThanOrEqual(START);
    expect(signedIn).toBeLessThanOrEqual(time.ServerTime);
  });
});
