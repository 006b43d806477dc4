import { closeSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach } from 'vitest';
import { repoRoot } from './paths';

/**
 * Every spec's trail of browser steps, printed when a test fails. A test that times out names only its
 * `it` line, not the step it was waiting on (a spec hung once in CI at 240 s with no step named); this
 * keeps Playwright's own API log (DEBUG=pw:api, one file per test process) and prints what the failed
 * test did, its last step still open at the bottom.
 *
 * Runs as a setup file, before a spec imports playwright-core: the log's switch is read when it loads.
 */
const dir = join(repoRoot, 'test-results', 'pw-api');
mkdirSync(dir, { recursive: true });
if (!process.env.DEBUG_FILE) {
  process.env.DEBUG = [process.env.DEBUG, 'pw:api'].filter(Boolean).join(',');
  process.env.DEBUG_FILE = join(dir, `worker-${process.pid}.log`);
}
const file = process.env.DEBUG_FILE;

/** The most lines of a failed test's trail printed (its end: the step it failed on is the last). */
const MAX_LINES = 60;

function readFrom(offset: number): string {
  let fd: number | undefined;
  try {
    const size = statSync(file).size;
    if (size <= offset) return '';
    fd = openSync(file, 'r');
    const buffer = Buffer.alloc(size - offset);
    readSync(fd, buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

beforeEach((context) => {
  let start = 0;
  try {
    start = statSync(file).size;
  } catch {
    // not written yet: the test's trail starts at the file's beginning
  }
  context.onTestFailed(() => {
    const lines = readFrom(start).split('\n').filter(Boolean);
    const shown = lines.slice(-MAX_LINES);
    const skipped = lines.length - shown.length;
    console.error(
      [`Browser steps of "${context.task.name}"${skipped ? ` (last ${shown.length} of ${lines.length})` : ''}:`, ...shown].join('\n'),
    );
  });
});
