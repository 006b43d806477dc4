// Runs one phase of `make test` and records how long it took: `node scripts/phase.mjs [--part] NAME -- CMD ARGS...`.
// The times go to test-results/phases.jsonl, one line a phase, and test-summary.mjs prints them (with the
// slowest test files) at the end, so a CI log says where its minutes went. The phase's exit code is kept.
// --part: a step run side by side with others inside a phase (lint and typecheck): printed under it, not
// counted again in the total.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';

const argv = process.argv.slice(2);
const part = argv[0] === '--part';
const [name, dashes, command, ...args] = part ? argv.slice(1) : argv;
if (!name || dashes !== '--' || !command) {
  console.error('usage: node scripts/phase.mjs [--part] NAME -- COMMAND [ARGS...]');
  process.exit(2);
}
const started = Date.now();
const child = spawn(command, args, { stdio: 'inherit' });
child.on('exit', (code, signal) => {
  const seconds = (Date.now() - started) / 1000;
  mkdirSync('test-results', { recursive: true });
  appendFileSync('test-results/phases.jsonl', `${JSON.stringify({ name, seconds, code: code ?? 1, ...(part ? { part } : {}) })}\n`);
  console.log(`phase ${name}: ${seconds.toFixed(1)} s${code === 0 ? '' : ` (failed: ${signal ?? `exit ${code}`})`}`);
  process.exit(code ?? 1);
});
