import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

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
});
