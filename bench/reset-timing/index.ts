// bench/reset-timing: asking a password-reset code (GetUnloginSecurityAuthCode) for an address that has an account
// and for one that has none must take about as long, or the answer's time tells who is registered (docs/accounts.md).
// account.test.ts once asserted this with a wall clock (< 5 ms apart), which failed on a busy CI machine; the budget
// lives here: |fastest known − fastest unknown| <= 5 ms (the fastest is what the code costs: on a busy machine single
// times wander by tens of ms), with the ratio of the fastest known / unknown (the baseline, measured in the same run,
// alternating) printed beside it.
import { calls, Code } from '@wildtrack/contract';
import { createTestApp } from '../../apps/server/src/test/helper.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const BUDGET_MS = 5;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const t = await createTestApp('sqlite');
try {
  await t.services.users.createUser({ orgName: 'Kite Lab', userName: 'kiteLab01', password: 'Kite-Lab-2026', email: 'kite@example.org' });
  const time = async (account: string): Promise<number> => {
    // each ask starts from no earlier code and no rate counter, as a first ask does
    await t.database.db.updateTable('verification_codes').set({ sent_at: 0 }).execute();
    await t.database.db.deleteFrom('rate_counters').execute();
    const start = process.hrtime.bigint();
    const res = await t.call(calls.GetUnloginSecurityAuthCode.path, { account });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (res.body.Code !== Code.Success) throw new Error(`${account}: ${JSON.stringify(res.body)}`);
    return ms;
  };
  // warm-up: the first calls compile the routes and open the database
  for (let i = 0; i < 3; i += 1) {
    await time('kite@example.org');
    await time('nobody@example.org');
  }
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    known.push(await time('kite@example.org'));
    unknown.push(await time(`nobody${i}@example.org`));
  }
  const fastestGap = Math.abs(Math.min(...known) - Math.min(...unknown));
  const ratio = Math.min(...known) / Math.min(...unknown);
  console.log(`reset code, ${RUNS} asks each (alternating): known address median ${median(known).toFixed(2)} ms (fastest ${Math.min(...known).toFixed(2)}), unknown address (baseline) median ${median(unknown).toFixed(2)} ms (fastest ${Math.min(...unknown).toFixed(2)})`);
  console.log(`fastest apart ${fastestGap.toFixed(2)} ms (budget <= ${BUDGET_MS}); ratio of the fastest known/unknown ${ratio.toFixed(2)}`);
  console.log(fastestGap <= BUDGET_MS ? 'within budget' : 'OVER BUDGET');
} finally {
  await t.close();
}
