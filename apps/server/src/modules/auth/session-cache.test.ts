import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, parseCredential } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { redisAnswers, TEST_REDIS_URL } from '../../test/redis.js';
import { NOW } from '../../test/fixed-time.js';
import { advanceClock, useFixedClock } from '../../test/clock.js';
import { AuthRepository } from './repository.js';
import { AuthService, SESSION_CACHE_MS } from './service.js';

const REDIS = await redisAnswers();
if (!REDIS) console.warn(`session-cache.test.ts: the Redis case is skipped: no Redis answers at ${TEST_REDIS_URL} (set REDIS_URL)`);

describe.each(DIALECTS)('sessions kept briefly per process on %s', (dialect) => {
  let t: TestApp;
  // The kept copies' lives are read on the server's clock: fixed at NOW, moved on by the tests.
  useFixedClock(NOW);
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  /** Ends a session as another process (or `wildtrack sessions end`) would: the row goes, this process is not told. */
  const endElsewhere = (credential: string) => t.database.db.deleteFrom('sessions').where('public_id', '=', parseCredential(credential).id).execute();
  const heartbeat = async (token: string) => (await t.call(calls.Heartbeat.path, {}, { token })).body.Code;

  it('ends a session signed out in this process at once, though it was just used', async () => {
    const { token } = await t.userWithToken();
    expect(await heartbeat(token)).toBe(Code.Success);
    expect(await heartbeat(token)).toBe(Code.Success);
    expect((await t.call(calls.Exit.path, undefined, { token })).body.Code).toBe(Code.Success);
    expect(await heartbeat(token)).toBe(Code.SessionExpired);
  });

  it(`refuses a session ended by another process within ${SESSION_CACHE_MS} ms`, async () => {
    const { token } = await t.userWithToken();
    expect(await heartbeat(token)).toBe(Code.Success);
    await endElsewhere(token);
    // The kept copy lives SESSION_CACHE_MS on the server's clock: until then it still answers, then never.
    advanceClock(SESSION_CACHE_MS - 1);
    expect(await heartbeat(token)).toBe(Code.Success);
    advanceClock(1);
    expect(await heartbeat(token)).toBe(Code.SessionExpired);
  });

  it('keeps a found session for the time given and not at all with 0, and never keeps an id that names none', async () => {
    const { token } = await t.userWithToken();
    const { id } = parseCredential(token);
    const repo = new AuthRepository(t.database.db, t.database.sqlite);
    const users = t.services.users;
    const keeping = new AuthService(repo, users, 3_600_000, 60_000);
    const reading = new AuthService(repo, users, 3_600_000, 0);
    expect(await keeping.signer('AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
    const found = await keeping.signer(id);
    expect(found).toBeDefined();
    expect(await reading.signer(id)).toBeDefined();
    await endElsewhere(token);
    expect(await keeping.signer(id)).toBeDefined(); // kept: the database is not read again
    expect(await reading.signer(id)).toBeUndefined();
    await keeping.exit(found!.sessionId); // a sign-out through this service forgets it at once
    expect(await keeping.signer(id)).toBeUndefined();
  });
});

describe.skipIf(!REDIS)('sessions with REDIS_URL (several processes)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('sqlite', { REDIS_URL: TEST_REDIS_URL, REDIS_KEY_PREFIX: `wildtrack-test-session-${process.pid}:` });
  });
  afterAll(async () => t.close());

  it('reads the session on every call: one ended by another process is refused at once', async () => {
    const { token } = await t.userWithToken();
    expect((await t.call(calls.Heartbeat.path, {}, { token })).body.Code).toBe(Code.Success);
    await t.database.db.deleteFrom('sessions').where('public_id', '=', parseCredential(token).id).execute();
    expect((await t.call(calls.Heartbeat.path, {}, { token })).body.Code).toBe(Code.SessionExpired);
  });
});
