import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The clock rule of eslint.config.js (shared/CONVENTIONS.md 16, 22): a server test builds its data at a fixed
// instant, so it reads no wall clock and fakes no Date. Each way of breaking it is planted in a virtual file
// (ESLint lints the text as if it sat at the path; nothing is written) and shown failing, and what the rule
// allows is shown passing.

const root = join(import.meta.dirname, '..');

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The clock rule's complaints about `code` placed at `path` (relative to the repository). */
async function complaints(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import { vi } from 'vitest';\n${code}\n`, { filePath: join(root, path) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax' || m.fatal).map((m) => `${m.ruleId ?? 'fatal'}: ${m.message}`);
}

const TEST = 'apps/server/src/modules/fix/planted.test.ts';
const HELPER = 'apps/server/src/test/planted.ts';
const wallClock = expect.stringMatching(/^no-restricted-syntax: A server test reads no wall clock/);
const fakeDate = expect.stringMatching(/^no-restricted-syntax: A server test does not fake Date/);

describe('server tests: no wall clock, no faked Date', () => {
  it.each([
    ['Date.now()', 'export const t = Date.now() - 60_000;', wallClock],
    ['new Date()', 'export const d = new Date();', wallClock],
    ['vi.setSystemTime', 'vi.setSystemTime(0);', fakeDate],
    ['vi.useFakeTimers() (fakes Date too)', 'vi.useFakeTimers();', fakeDate],
    ["vi.useFakeTimers({ toFake: ['Date'] })", "vi.useFakeTimers({ toFake: ['Date'], now: 0 });", fakeDate],
  ])('fails on %s in a server test file', async (_name, code, complaint) => {
    expect(await complaints(TEST, code)).toEqual([complaint]);
  });

  it('fails the same in a test helper under src/test/', async () => {
    expect(await complaints(HELPER, 'export const t = Date.now();')).toEqual([wallClock]);
  });

  it('passes a fixed instant, a duration on the monotonic clock, a date made of an instant, and faked timers', async () => {
    const code = [
      "import { now } from '../../lib/clock.js';",
      'export const a = Date.UTC(2026, 10, 1) + now();',
      'export const b = performance.now();',
      'export const c = new Date(a).toISOString();',
      "vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });",
    ].join('\n');
    expect(await complaints(TEST, code)).toEqual([]);
  });

  it('passes a wall-clock read that says why on the line before', async () => {
    const code = '// eslint-disable-next-line no-restricted-syntax -- two server processes of their own run on the real clock\nexport const t = Date.now();';
    expect(await complaints(TEST, code)).toEqual([]);
  });

  it('leaves the server\'s own sources to lib/clock.ts (their Date.now() names a run, it is no time of a test)', async () => {
    expect(await complaints('apps/server/src/live/planted.ts', 'export const run = Date.now().toString(36);')).toEqual([]);
  });
});
