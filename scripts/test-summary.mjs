// Closes `make test`: where the time went (each phase of scripts/phase.mjs, the unit tests' time per database
// dialect, the ten slowest test files) and then one closing line over the Vitest JSON reports given:
// "N passed, N failed".
import fs from 'node:fs';
import path from 'node:path';

const phasesFile = 'test-results/phases.jsonl';
let phaseFailed = false;
if (fs.existsSync(phasesFile)) {
  const phases = fs.readFileSync(phasesFile, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
  // A part ran side by side with others inside the phase recorded after it: shown under it, counted once.
  const total = phases.filter((p) => !p.part).reduce((s, p) => s + p.seconds, 0);
  console.log('\nWhere the time went (wall clock):');
  let parts = [];
  for (const p of phases) {
    if (p.part) {
      parts.push(p);
      continue;
    }
    console.log(`  ${p.name.padEnd(16)} ${minutes(p.seconds).padStart(8)}${p.code === 0 ? '' : '  failed'}`);
    for (const q of parts) console.log(`    ${q.name.padEnd(14)} ${minutes(q.seconds).padStart(8)}${q.code === 0 ? '' : '  failed'}  (side by side)`);
    parts = [];
  }
  console.log(`  ${'total'.padEnd(16)} ${minutes(total).padStart(8)}`);
  phaseFailed = phases.some((p) => p.code !== 0);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const files = [];
const byDialect = { sqlite: 0, postgres: 0, other: 0 };
for (const file of process.argv.slice(2)) {
  if (!fs.existsSync(file)) {
    console.error(`missing test report: ${file}`);
    failed += 1;
    continue;
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
  for (const t of r.testResults ?? []) {
    if (t.startTime && t.endTime) files.push({ name: path.relative(process.cwd(), t.name), seconds: (t.endTime - t.startTime) / 1000 });
    for (const a of t.assertionResults ?? []) {
      const titles = (a.ancestorTitles ?? []).join(' ');
      const dialect = /\bon postgres\b/.test(titles) ? 'postgres' : /\bon sqlite\b/.test(titles) ? 'sqlite' : 'other';
      byDialect[dialect] += (a.duration ?? 0) / 1000;
    }
  }
}
if (byDialect.sqlite + byDialect.postgres > 0) {
  console.log(`\nTest time by database (tests' own time, summed): SQLite ${minutes(byDialect.sqlite)}, PostgreSQL ${minutes(byDialect.postgres)}, neither ${minutes(byDialect.other)}`);
}
if (files.length > 0) {
  console.log('\nThe ten slowest test files (wall clock of each file):');
  for (const f of files.sort((a, b) => b.seconds - a.seconds).slice(0, 10)) console.log(`  ${minutes(f.seconds).padStart(8)}  ${f.name}`);
  console.log('');
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
// A phase that failed without a failed test (lint, typecheck, a build) fails the run too.
if (phaseFailed && failed === 0) console.log('a phase failed (above)');
process.exit(failed > 0 || passed === 0 || phaseFailed ? 1 : 0);

function minutes(seconds) {
  const m = Math.floor(seconds / 60);
  const s = seconds - m * 60;
  return m > 0 ? `${m} min ${s.toFixed(0).padStart(2, '0')} s` : `${s.toFixed(1)} s`;
}
