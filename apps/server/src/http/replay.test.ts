import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, calls, Code, generateSealKeyPair, Header, LIVE_STREAM_PATH, newRequestCode, sealSecret, SIGNATURE_WINDOW_MS, signedHeaders, toBase64 } from '@wildtrack/contract';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openSharedState } from '../shared-state/index.js';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';
import { redisAnswers, TEST_REDIS_URL } from '../test/redis.js';
import { NOW } from '../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../test/clock.js';

const REDIS_URL = TEST_REDIS_URL;
const REDIS = await redisAnswers();
if (!REDIS) console.warn(`replay.test.ts: the Redis cases are skipped: no Redis answers at ${REDIS_URL} (set REDIS_URL)`);

const STORES = [
  ...DIALECTS.map((dialect) => ({ name: `${dialect} (database)`, dialect, env: {} as Record<string, string> })),
  ...(REDIS ? [{ name: 'sqlite + Redis', dialect: 'sqlite' as const, env: { REDIS_URL } }] : []),
];

/** One signed public call, kept so that exactly the same bytes can be sent again (a captured request). */
function captured(now = clockNow()) {
  const payload = '{}';
  const headers = { ...signedHeaders({ path: calls.GetPublicKey.path, body: payload, now, requestCode: newRequestCode() }), 'content-type': 'application/json' };
  return (app: FastifyInstance) => app.inject({ method: 'POST', url: API_BASE + calls.GetPublicKey.path, headers, payload }).then((r) => r.json() as { Code: number });
}

describe.each(STORES)('request codes on $name', ({ dialect, env }) => {
  let t: TestApp;
  // Signatures' and codes' windows are read on the server's clock: fixed at NOW.
  useFixedClock(NOW);
  const prefix = `wildtrack-test-${randomBytes(4).toString('hex')}:`;
  const appEnv = { ...env, REDIS_KEY_PREFIX: prefix };
  const config = () => loadConfig({ LOG_LEVEL: 'silent', WILDTRACK_DATA: t.dataDir, WEB_DIST: path.join(t.dataDir, 'no-web'), ...appEnv });

  beforeAll(async () => {
    t = await createTestApp(dialect, appEnv);
  });
  afterAll(async () => t.close());

  it('refuses a captured request after a restart: the code is remembered outside the process', async () => {
    const send = captured();
    expect((await send(t.app)).Code).toBe(Code.Success);
    // A new server on the same database (and Redis): a restart, or a second process behind a balancer.
    const { app: restarted } = await buildApp(config(), t.database);
    try {
      expect(await send(restarted)).toMatchObject({ Code: Code.Replayed, Msg: 'A repeated request was refused' });
      expect((await send(t.app)).Code).toBe(Code.Replayed);
    } finally {
      await restarted.close();
    }
  });

  it('refuses a captured sign-in after a restart (M3): no second session from the same bytes', async () => {
    const password = 'Godwit-Flats-4';
    const userName = `replay${randomBytes(3).toString('hex')}`;
    await t.services.users.createUser({ orgName: 'Replay Lab', userName, password });
    const key = await t.call(calls.GetPublicKey.path, {});
    const requestCode = newRequestCode();
    const payload = JSON.stringify({
      account: userName,
      pwd: sealSecret((key.body.Data as { PublicKey: string }).PublicKey, password, requestCode),
      timeZone: '+08:00',
      clientKey: toBase64(generateSealKeyPair().publicKey),
    });
    const headers = { ...signedHeaders({ path: calls.PasswordLogin.path, body: payload, requestCode, now: clockNow() }), 'content-type': 'application/json' };
    const signIn = (app: FastifyInstance) => app.inject({ method: 'POST', url: API_BASE + calls.PasswordLogin.path, headers, payload }).then((r) => r.json() as { Code: number });
    expect((await signIn(t.app)).Code).toBe(Code.Success);
    const sessions = async () => Number((await t.database.db.selectFrom('sessions').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await sessions();
    const { app: restarted } = await buildApp(config(), t.database);
    try {
      expect((await signIn(restarted)).Code).toBe(Code.Replayed);
    } finally {
      await restarted.close();
    }
    expect(await sessions()).toBe(before);
  });

  it('lets two processes racing on one code have it once', async () => {
    const send = captured();
    const { app: other } = await buildApp(config(), t.database);
    try {
      const answers = await Promise.all([send(t.app), send(other), send(t.app), send(other)]);
      expect(answers.map((a) => a.Code).sort()).toEqual([Code.Success, Code.Replayed, Code.Replayed, Code.Replayed]);
    } finally {
      await other.close();
    }
  });
});

describe.each(DIALECTS)('the request-code table on %s', (dialect) => {
  let t: TestApp;
  // Signatures' and codes' windows are read on the server's clock: fixed at NOW.
  useFixedClock(NOW);
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());
  const count = async () => Number((await t.database.db.selectFrom('request_codes').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('remembers nothing of a request refused before or by its signature check', async () => {
    const before = await count();
    const p = calls.GetPublicKey.path;
    const stale = await t.call(p, {}, { now: NOW - SIGNATURE_WINDOW_MS - 60_000 });
    expect(stale.body.Code).toBe(Code.StaleTimestamp);
    const forged = await t.call(p, {}, { headers: { [Header.signature]: '00'.repeat(32) } });
    expect(forged.body.Code).toBe(Code.BadSignature);
    const unsigned = await t.call(p, {}, { headers: { [Header.signature]: undefined } });
    expect(unsigned.body.Code).toBe(Code.BadSignature);
    const tampered = await t.call(p, {}, { headers: { [Header.requestCode]: 'changed-after-signing' } });
    expect(tampered.body.Code).toBe(Code.BadSignature);
    // A session id that names no session: refused before the signature is checked (its key is the session's).
    const noSession = await t.call(calls.Heartbeat.path, {}, { headers: { [Header.session]: 'AAAAAAAAAAAAAAAAAAAAAA' } });
    expect(noSession.body.Code).toBe(Code.SessionExpired);
    // A session call without x-session, signed with the empty-token key (which anyone can): its caller is
    // unknown, so it is refused as expired and its code is not remembered (issue 26 L3).
    for (const def of [calls.Heartbeat, calls.GetUserInfo, calls.GetTree]) {
      const anonymous = await t.call(def.path, {});
      expect(anonymous.body.Code, def.path).toBe(Code.SessionExpired);
    }
    const stream = await t.app.inject({ method: 'GET', url: API_BASE + LIVE_STREAM_PATH, headers: signedHeaders({ method: 'GET', path: LIVE_STREAM_PATH, body: undefined, now: clockNow() }) });
    expect(stream.json().Code).toBe(Code.SessionExpired);
    expect(await count()).toBe(before);
    expect((await t.call(p, {})).body.Code).toBe(Code.Success);
    expect(await count()).toBe(before + 1);
  });

  it('forgets a code after twice the signature window (the sweep job), and an expired row never blocks its code', async () => {
    const shared = await openSharedState(t.database);
    const now = NOW;
    expect(await shared.claimCode('old-code-1', now - 3 * SIGNATURE_WINDOW_MS, now - SIGNATURE_WINDOW_MS)).toBe(true);
    expect(await shared.claimCode('live-code-1', now, now + 2 * SIGNATURE_WINDOW_MS)).toBe(true);
    expect(await shared.claimCode('live-code-1', now + 1, now + 1 + 2 * SIGNATURE_WINDOW_MS)).toBe(false);
    // Not swept yet: the expired code can be claimed again all the same.
    expect(await shared.claimCode('old-code-1', now, now + 2 * SIGNATURE_WINDOW_MS)).toBe(true);
    await shared.claimCode('old-code-2', now - 3 * SIGNATURE_WINDOW_MS, now - SIGNATURE_WINDOW_MS);
    expect(await shared.sweep(now)).toBeGreaterThanOrEqual(1);
    const left = await t.database.db.selectFrom('request_codes').select('code').where('code', 'in', ['old-code-1', 'old-code-2', 'live-code-1']).orderBy('code').execute();
    expect(left.map((r) => r.code)).toEqual(['live-code-1', 'old-code-1']);
  });
});
