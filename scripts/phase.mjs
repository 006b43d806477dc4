// Runs one phase of `make test` and records how long it took: `node scripts/phase.mjs NAME -- CMD ARGS...`.
// The times go to test-results/phases.jsonl, one line a phase, and test-summary.mjs prints them (with the
// slowest test files) at the end, so a CI log says where its minutes went. The phase's exit code is kept.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';

const [name, dashes, command, ...args] = process.argv.slice(2);
if (!name || dashes !== '--' || !command) {
  console.error('usage: node scripts/phase.mjs NAME -- COMMAND [ARGS...]');
  process.exit(2);
}
const started = Date.now();
const child = spawn(command, args, { stdio: 'inherit' });
child.on('exit', (code, signal) => {
  const seconds = (Date.now() - started) / 1000;
  mkdirSync('test-results', { recursive: true });
  appendFileSync('test-results/phases.jsonl', `${JSON.stringify({ name, seconds, code: code ?? 1 })}\n`);
  console.log(`phase ${name}: ${seconds.toFixed(1)} s${code === 0 ? '' : ` (failed: ${signal ?? `exit ${code}`})`}`);
  process.exit(code ?? 1);
});
