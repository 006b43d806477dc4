// bench/import: the Movebank import of fishers_move2.csv (47,347 rows) into a fresh SQLite database:
// rows/s and peak RSS, beside csv-parse reading the same file and doing nothing else (the ceiling).
// Then the same rows 5 and 20 times over (each copy a different set of tags, so nothing is a
// duplicate), to show that memory stops growing with the file: the peak of the 20x file is the 5x one's. Each run is a process of its own, so that its
// peak RSS (process.resourceUsage().maxRSS) is its own.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { movebankServices } from '../../apps/server/src/app.js';
import { importMovebank } from '../../apps/server/src/modules/movebank/index.js';

// The project's shared data beside the repository (../shared/data), as on any fresh clone.
const DATA = process.env.WILDTRACK_SHARED_DATA ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../shared/data');
const FISHERS = path.join(DATA, 'fishers_move2.csv');
const SIZES = (process.env.BENCH_REPEAT ?? '5,20').split(',').map(Number);
const here = path.dirname(new URL(import.meta.url).pathname);

interface Run {
  rows: number;
  seconds: number;
  maxRssMb: number;
  baseRssMb: number;
  stored?: number;
}

const rssMb = () => process.resourceUsage().maxRSS / 1024;

async function child(mode: string, file: string): Promise<Run> {
  const baseRssMb = rssMb();
  if (mode === 'parse') {
    const start = performance.now();
    let rows = -1;
    for await (const _ of fs.createReadStream(file).pipe(parse({ bom: true, relax_column_count: true }))) rows += 1;
    return { rows, seconds: (performance.now() - start) / 1000, maxRssMb: rssMb(), baseRssMb };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-import-'));
  const database = connect({ sqliteFile: path.join(dir, 'bench.db') });
  try {
    await migrateToLatest(database);
    const services = movebankServices(database, dir);
    const orgId = await services.folders.createOrg('Bench', false, Date.now());
    const folderId = await services.folders.findOrCreateFolder(orgId, 'Fishers', Date.now());
    const start = performance.now();
    const r = await importMovebank(services, { file, orgId, folderId });
    const seconds = (performance.now() - start) / 1000;
    if (r.fixes.stored !== r.rows) throw new Error(`stored ${r.fixes.stored} of ${r.rows} rows: the figure is not valid`);
    return { rows: r.rows, seconds, maxRssMb: rssMb(), baseRssMb, stored: r.fixes.stored };
  } finally {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The fishers file `times` times, each copy's tags renamed so that its rows are new devices' rows. */
function repeated(dir: string, times: number): string {
  const out = path.join(dir, `fishers_x${times}.csv`);
  const [header, ...lines] = fs.readFileSync(FISHERS, 'utf8').trimEnd().split(/\r?\n/);
  const fd = fs.openSync(out, 'w');
  fs.writeSync(fd, `${header}\n`);
  for (let k = 0; k < times; k++) {
    // the tag is the third quoted field from the end: "1072","F1","study" -> "1072x3","F1","study"
    const body = lines.map((l) => l.replace(/"([^"]*)","([^"]*)","([^"]*)"$/, (_m, tag: string, ind: string, study: string) => `"${tag}x${k}","${ind}","${study}"`)).join('\n');
    fs.writeSync(fd, `${body}\n`);
  }
  fs.closeSync(fd);
  return out;
}

function runChild(mode: string, file: string): Run {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(here, 'index.ts'), '--child', mode, file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error(`bench child ${mode} ${file} failed (${r.status})`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Run;
}

if (process.argv[2] === '--child') {
  const result = await child(process.argv[3]!, process.argv[4]!);
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-movebank-'));
  try {
    const size = (f: string) => `${(fs.statSync(f).size / 1e6).toFixed(1)} MB`;
    const ceiling = runChild('parse', FISHERS);
    const one = runChild('import', FISHERS);
    const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(9);
    const line = (label: string, r: Run) =>
      console.log(`  ${label.padEnd(40)} ${fmt(r.rows / r.seconds)} rows/s ${r.rows.toLocaleString('en-US').padStart(10)} rows in ${r.seconds.toFixed(2).padStart(5)} s   peak RSS ${r.maxRssMb.toFixed(0)} MB (${r.baseRssMb.toFixed(0)} MB at start)`);
    console.log(`\nbench/import: Movebank CSV into SQLite, streaming, writes of <= 5,000 records`);
    line(`csv-parse alone, fishers (${size(FISHERS)})`, ceiling);
    line(`import, fishers (${size(FISHERS)})`, one);
    const runs = SIZES.map((times) => {
      const file = repeated(dir, times);
      const r = runChild('import', file);
      line(`import, fishers x${times} (${size(file)})`, r);
      fs.rmSync(file);
      return r;
    });
    console.log(`  ratio import / csv-parse alone           ${(one.rows / one.seconds / (ceiling.rows / ceiling.seconds)).toFixed(2)}`);
    if (runs.length >= 2) {
      const [a, b] = [runs[runs.length - 2]!, runs[runs.length - 1]!];
      console.log(`  peak RSS x${SIZES[SIZES.length - 1]} / x${SIZES[SIZES.length - 2]}                     ${(b.maxRssMb / a.maxRssMb).toFixed(2)}   (${(b.rows / a.rows).toFixed(0)}x the rows; flat memory: close to 1)`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
