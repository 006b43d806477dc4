// bench/export: the export writers of issue 16 on 1M fixes of one device (a fix every 30 s for a year),
// `npm run bench -- export`. Each format runs in a child process of its own so that its peak RSS is its own:
// CSV (goal >= 400k rows/s, <= 150 MB peak RSS), XLSX by our writer (modules/export/writers.ts, zip.ts) and by
// ExcelJS's streaming WorkbookWriter on the same rows (goal >= 100k rows/s, <= 200 MB), and Movebank CSV;
// the file is written to a temporary file. Then the whole path for CSV and XLSX: the server's app in a
// process of its own, a download task created by the call and run to its zip (task created -> file ready).
// Printed side by side, with CPU seconds (the machine is shared: rows per CPU second are the steadier
// figure) and the load average. Peak RSS is the process's maxRSS: node, the bundled code, better-sqlite3
// and the database's page cache included ('at start' is the RSS before the first row). On SQLite (the
// default database); BENCH_EXPORT_ROWS scales it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeviceType, SpeciesType } from '@wildtrack/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { random } from '../random.js';
import { build } from 'esbuild';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const STEP_MS = 30_000;
const START = Date.UTC(2025, 0, 1);
const IMEI = 'STORK-EXPORT';
const FORMATS = ['read', 'read-raw', 'csv', 'xlsx', 'exceljs', 'movebank', 'task-csv', 'task-xlsx'] as const;
const GOALS: Record<string, { rate: number; rss: number } | undefined> = {
  csv: { rate: 400_000, rss: 150 },
  xlsx: { rate: 100_000, rss: 200 },
  exceljs: { rate: 100_000, rss: 200 },
};

await main();

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-export-'));
  // BENCH_EXPORT_DB=/tmp/x.db: the seeded database kept there and reused by the next run (same ROWS), to measure a change quickly.
  const keptDb = process.env.BENCH_EXPORT_DB;
  const dbFile = keptDb ?? path.join(dataDir, 'wildtrack.db');
  const reuse = keptDb !== undefined && fs.existsSync(keptDb);
  const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
  const database = connect({ sqliteFile: dbFile });
  await migrateToLatest(database);
  const { app, services } = await buildApp(config, database, { jobs: false });
  let seedSeconds = 0;
  let device: { id: number };
  if (reuse) device = { id: Number((database.sqlite!.prepare('select id from devices where imei = ?').get(IMEI) as { id: number }).id) };
  else ({ device, seedSeconds } = await seed());
  await app.close();

  async function seed(): Promise<{ device: { id: number }; seedSeconds: number }> {
    const orgId = (await services.users.createUser({ orgName: 'Flyway Study', userName: 'flyway', password: 'Fly-Way-2026', email: 'flyway@example.org' }), await services.devices.orgIdByName('Flyway Study'));
    const device = await services.devices.register({ orgId, imei: IMEI, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], caption: 'stork' });

    // A year of a stork's fixes: a slow random walk, speeds and altitudes as a tag reports them; 1 in 50 invalid.
    const rnd = random(11);
    const t0 = performance.now();
    const insert = database.sqlite!.prepare(
      `insert into fixes (device_id, pick_time, lon, lat, alt, speed, course, temperature, activity, voltage, channel, satellites, hdop, vdop, grade, valid, tx_time, received_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    let lon = 8.5;
    let lat = 47.4;
    database.sqlite!.transaction(() => {
      for (let i = 0; i < ROWS; i++) {
        lon += (rnd() - 0.5) * 0.01;
        lat += (rnd() - 0.5) * 0.01;
        const t = START + i * STEP_MS;
        insert.run(
          device.id,
          t,
          Math.round(lon * 1e6) / 1e6,
          Math.round(lat * 1e6) / 1e6,
          Math.round(400 + rnd() * 300),
          Math.round(rnd() * 600) / 10,
          Math.round(rnd() * 359),
          Math.round((10 + rnd() * 20) * 10) / 10,
          Math.round(rnd() * 100),
          Math.round((3.7 + rnd() * 0.5) * 100) / 100,
          1,
          4 + Math.floor(rnd() * 9),
          Math.round((0.7 + rnd() * 3) * 10) / 10,
          Math.round((0.9 + rnd() * 3) * 10) / 10,
          1 + Math.floor(rnd() * 7),
          i % 50 === 49 ? 0 : 1,
          t + 60_000,
          t + 120_000,
        );
      }
    })();
    return { device, seedSeconds: (performance.now() - t0) / 1000 };
  }

  // The children run bundled JavaScript under plain node (as the production server does), not under tsx,
  // whose transpiler would be most of their memory.
  // The whole path (task-*) runs the server's app: a bundle of its own, so the writers' processes stay lean.
  await build({
    entryPoints: { child: new URL('./child-main.ts', import.meta.url).pathname, task: new URL('./task-main.ts', import.meta.url).pathname },
    outdir: dataDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'warning',
    plugins: [
      {
        name: 'bundle-workspace-packages',
        setup(b) {
          b.onResolve({ filter: /^@wildtrack\/contract$/ }, () => ({ path: new URL('../../packages/contract/src/index.ts', import.meta.url).pathname }));
          b.onResolve({ filter: /^@wildtrack\/sample-fleet$/ }, () => ({ path: new URL('../../packages/sample-fleet/src/index.ts', import.meta.url).pathname }));
        },
      },
    ],
  });
  // Bundled next to the repository's node_modules so that its external packages resolve.
  const runnable = new URL(`../out/export-child-${process.pid}.mjs`, import.meta.url).pathname;
  const taskRunnable = new URL(`../out/export-task-${process.pid}.mjs`, import.meta.url).pathname;
  fs.mkdirSync(path.dirname(runnable), { recursive: true });
  fs.copyFileSync(path.join(dataDir, 'child.mjs'), runnable);
  fs.copyFileSync(path.join(dataDir, 'task.mjs'), taskRunnable);
  console.log(`bench/export: ${ROWS.toLocaleString('en')} fixes of one device (${reuse ? `reused ${dbFile}` : `seeded in ${seedSeconds.toFixed(1)} s`}, SQLite), each format in its own process, written to a file; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  const results: Record<string, { seconds: number; cpuSeconds: number; rows: number; bytes: number; rssMb: number; baseMb: number }> = {};
  // BENCH_EXPORT_FORMATS=read,csv: only those.
  const chosen = process.env.BENCH_EXPORT_FORMATS?.split(',') ?? FORMATS;
  for (const format of FORMATS.filter((f) => chosen.includes(f))) {
    // BENCH_EXPORT_PROFILE=1: each child writes a V8 CPU profile to bench/out/ (open it in Chrome's DevTools).
    const profile = process.env.BENCH_EXPORT_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.dirname(runnable)}`, `--cpu-prof-name=export-${format}.cpuprofile`] : [];
    // BENCH_EXPORT_NODE_FLAGS: node flags for the children (e.g. a heap limit, to tell garbage not yet collected from memory held).
    const flags = process.env.BENCH_EXPORT_NODE_FLAGS?.split(' ').filter(Boolean) ?? [];
    const args = format.startsWith('task-')
      ? [taskRunnable, format === 'task-csv' ? 'csv' : 'xls', dbFile, dataDir, String(ROWS * STEP_MS)]
      : [runnable, format, dbFile, String(device.id), String(ROWS * STEP_MS)];
    const r = spawnSync(process.execPath, [...flags, ...profile, ...args], { encoding: 'utf8' });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    if (r.status !== 0 || !line.startsWith('{')) {
      console.log(`${format}: failed\n${r.stderr}`);
      continue;
    }
    results[format] = JSON.parse(line);
  }
  const pad = (s: string, n: number) => s.padStart(n);
  console.log(`${'format'.padEnd(26)}${pad('rows', 10)}${pad('seconds', 9)}${pad('CPU s', 8)}${pad('rows/s', 10)}${pad('rows/CPU s', 12)}${pad('MB file', 9)}${pad('peak RSS', 10)}${pad('at start', 10)}  goal`);
  const NAMES: Record<string, string> = {
    read: 'reads alone (CSV columns)',
    'read-raw': 'reads, raw SQLite arrays',
    csv: 'CSV',
    xlsx: 'XLSX (ours)',
    exceljs: 'XLSX (ExcelJS streaming)',
    movebank: 'Movebank CSV',
    'task-csv': 'CSV task: created->zip',
    'task-xlsx': 'XLSX task: created->zip',
  };
  for (const [format, r] of Object.entries(results)) {
    const rate = r.rows / r.seconds;
    const goal = GOALS[format];
    const verdict = goal ? `>= ${goal.rate / 1000}k rows/s, <= ${goal.rss} MB: ${rate >= goal.rate && r.rssMb <= goal.rss ? 'met' : 'NOT met'}` : '-';
    console.log(
      `${NAMES[format]!.padEnd(26)}${pad(r.rows.toLocaleString('en'), 10)}${pad(r.seconds.toFixed(2), 9)}${pad(r.cpuSeconds.toFixed(2), 8)}${pad(Math.round(rate).toLocaleString('en'), 10)}${pad(Math.round(r.rows / r.cpuSeconds).toLocaleString('en'), 12)}${pad((r.bytes / 1e6).toFixed(1), 9)}${pad(`${r.rssMb.toFixed(0)} MB`, 10)}${pad(`${r.baseMb.toFixed(0)} MB`, 10)}  ${verdict}`,
    );
  }
  console.log(`load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  if (results.xlsx && results.exceljs) console.log(`ours vs ExcelJS on the same rows: ${(results.exceljs.seconds / results.xlsx.seconds).toFixed(2)}x the speed, ${(results.xlsx.bytes / results.exceljs.bytes).toFixed(2)}x the bytes`);
  fs.rmSync(runnable, { force: true });
  fs.rmSync(taskRunnable, { force: true });
  fs.rmSync(dataDir, { recursive: true, force: true });
}
