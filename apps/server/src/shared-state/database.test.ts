import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNATURE_WINDOW_MS } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';
import { NOW } from '../test/fixed-time.js';
import { openSharedState } from './index.js';

describe.each(DIALECTS)('request codes claimed in batches on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(dialect);
  });
  afterAll(async () => t.close());

  const stored = async (codes: string[]) =>
    (await t.database.db.selectFrom('request_codes').select('code').where('code', 'in', codes).execute()).map((r) => r.code).sort();

  it('answers each claim of a burst once its batch is stored, and refuses the copies of a code in the same batch', async () => {
    const shared = await openSharedState(t.database);
    const now = NOW;
    const expires = now + 2 * SIGNATURE_WINDOW_MS;
    // 1,200 claims issued together: more than one batch (500), with each code claimed three times.
    const codes = Array.from({ length: 400 }, (_, i) => `burst-${dialect}-${i}`);
    const claims = [...codes, ...codes, ...codes].map((code) => shared.claimCode(code, now, expires));
    const won = await Promise.all(claims);
    expect(won.slice(0, 400).every(Boolean)).toBe(true);
    expect(won.slice(400).some(Boolean)).toBe(false);
    // Every code is in the table once its claim is answered: a restart (a new state on the same database) refuses it.
    expect(await stored(codes.slice(0, 50))).toEqual(codes.slice(0, 50).sort());
    const restarted = await openSharedState(t.database);
    expect(await restarted.claimCode(codes[7]!, now + 1, expires)).toBe(false);
  });

  it('lets one of two states racing on a code have it, whatever batch each claim lands in', async () => {
    const a = await openSharedState(t.database);
    const b = await openSharedState(t.database);
    const now = NOW;
    for (let round = 0; round < 20; round++) {
      const code = `race-${dialect}-${round}`;
      const answers = await Promise.all([a.claimCode(code, now, now + 60_000), b.claimCode(code, now, now + 60_000), a.claimCode(code, now, now + 60_000)]);
      expect(answers.filter(Boolean)).toHaveLength(1);
    }
  });

  it('refuses the claims of a batch that could not be stored (the call is answered 500: no replay let through)', async () => {
    const shared = await openSharedState(t.database);
    // An expiry the column refuses (NaN: NULL on SQLite, not a bigint on PostgreSQL) fails its batch.
    const bad = shared.claimCode('bad-expiry', NOW, Number.NaN);
    const good = shared.claimCode(`after-bad-${dialect}`, NOW, NOW + 60_000);
    await expect(bad).rejects.toBeDefined();
    // The next batch is written again: one failure does not wedge the queue.
    await good.catch(() => undefined);
    expect(await shared.claimCode(`next-${dialect}`, NOW, NOW + 60_000)).toBe(true);
  });
});
