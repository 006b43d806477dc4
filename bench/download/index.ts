// bench/download: a download task through the real server (issue 16 item 6), `npm run bench -- download`.
// Seeds BENCH_DOWNLOAD_ROWS fixes (default 1M, a fix every 30 s) of one device in SQLite, starts the built
// server (apps/server/$SERVER_OUTDIR/main.js, default dist; not built here) in its own process on that
// database, then per file type (CSV, XLSX): creates a task over HTTP, polls its list until SUCCESSFUL,
// downloads the zip. Prints task created -> file ready, rows/s, the zip's bytes and download time, the
// server's peak RSS (VmHWM), and beside them the export writer alone on the same rows in this process.
// Measured 2026-11-25, 1M fixes, load average 11 on 2 cores (other builds beside it): CSV created -> ready
// 10.7 s = 93k rows/s (writer alone 9.5 s), zip 19.9 MB; XLSX 17.0 s = 59k rows/s (writer alone 15.3 s),
// zip 62.6 MB; server peak RSS 286 MB after CSV, 314 MB after XLSX (154 MB at start).
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Writable } from 'node:stream';
import { calls, Code, DeviceType, type DownloadTask, formatTime, SpeciesType } from '@wildtrack/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { writeExport } from '../../apps/server/src/modules/export/index.js';
import { httpCaller } from '../calls.js';
import { random } from '../random.js';
import { benchSignIn } from '../sign-in.js';

const ROWS = Number(process.env.BENCH_DOWNLOAD_ROWS ?? 1_000_000);
const STEP_MS = 30_000;
const START = Date.UTC(2025, 0, 1);
const IMEI = 'STORK-DOWNLOAD';
const ZONE = '+00:00';
const root = new URL('../..', import.meta.url).pathname;
const serverOut = process.env.SERVER_OUTDIR ?? 'dist';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-download-'));
const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
await migrateToLatest(database);
const { app, services } = await buildApp(config, database, { jobs: false });
await services.users.createUser({ orgName: 'Flyway Study', userName: 'flyway', password: 'Fly-Way-2026', email: 'flyway@example.org' });
const orgId = await services.devices.orgIdByName('Flyway Study');
const device = await services.devices.register({ orgId, imei: IMEI, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], caption: 'stork' });
const token = await benchSignIn(services.auth, { account: 'flyway', password: 'Fly-Way-2026', timeZone: ZONE });

const rnd = random(7);
const t0 = performance.now();
const insert = database.sqlite!.prepare(
  `insert into fixes (device_id, pick_time, lon, lat, alt, speed, course, temperature, voltage, satellites, hdop, grade, valid, tx_time, received_at)
   values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
let lon = 8.5;
let lat = 47.4;
database.sqlite!.transaction(() => {
  for (let i = 0; i < ROWS; i++) {
    lon += (rnd() - 0.5) * 0.01;
    lat += (rnd() - 0.5) * 0.01;
    const t = START + i * STEP_MS;
    insert.run(device.id, t, Math.round(lon * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6, Math.round(400 + rnd() * 300), Math.round(rnd() * 600) / 10, Math.round(rnd() * 359), 20.5, 3.9, 8, 1.2, 3, 1, t + 60_000, t + 120_000);
  }
})();
const seedSeconds = (performance.now() - t0) / 1000;
const END = START + (ROWS - 1) * STEP_MS;

// the writer alone, in this process, to a sink that drops the bytes
const writerAlone: Record<string, number> = {};
for (const fileType of ['csv', 'xls'] as const) {
  const w0 = performance.now();
  const drop = new Writable({ write: (_c, _e, cb) => cb() });
  await writeExport(database.db, { imei: IMEI, kind: 'fix', startTime: START, endTime: END, timeZone: ZONE, language: 'en', fileType }, drop);
  writerAlone[fileType] = (performance.now() - w0) / 1000;
}
await app.close();
await database.close?.();

// the built server, its own process, on the seeded database
const port = await new Promise<number>((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = (s.address() as net.AddressInfo).port;
    s.close(() => resolve(p));
  });
});
const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', WILDTRACK_DATA: dataDir, WILDTRACK_SAMPLES: 'false', LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none'), DATABASE_URL: '', NODE_ENV: 'production' };
const child: ChildProcess = spawn(process.execPath, [path.join(root, 'apps/server', serverOut, 'main.js')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
await new Promise<void>((resolve, reject) => {
  readline.createInterface({ input: child.stdout! }).on('line', (line) => line.includes('Wildtrack is running') && resolve());
  child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
});
const memOf = (field: 'VmHWM' | 'VmRSS') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const call = httpCaller(port, token);
const answer = async <T>(def: Parameters<typeof call>[0], body: object): Promise<T> => {
  const r = await call(def, JSON.stringify(body));
  const env = (await r.open(r.text)) as { Code: number; Msg: string; Data: T };
  if (env.Code !== Code.Success) throw new Error(`${def.path}: ${r.text.slice(0, 300)}`);
  return env.Data;
};

console.log(
  `bench/download: ${ROWS.toLocaleString('en')} fixes of one device (seeded in ${seedSeconds.toFixed(1)} s, SQLite), server apps/server/${serverOut} in its own process (RSS at start ${memOf('VmRSS').toFixed(0)} MB); load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
);
try {
  for (const fileType of ['csv', 'xls'] as const) {
    const c0 = performance.now();
    const task = await answer<DownloadTask>(calls.CreateDownloadTask, { imeis: [IMEI], kinds: ['fix'], fileType, startTime: formatTime(START, ZONE), endTime: formatTime(END, ZONE), timeZone: ZONE });
    let seen: DownloadTask = task;
    let midPercent = -1;
    while (seen.Status === 'WAITING' || seen.Status === 'DOWNLOADING') {
      await new Promise((r) => setTimeout(r, 200));
      const page = await answer<{ List: DownloadTask[] }>(calls.GetDownloadTaskListByPage, { currentPage: 1, pageSize: 10, timeZone: ZONE });
      seen = page.List.find((x) => x.IdStr === task.IdStr)!;
      if (seen.Status === 'DOWNLOADING' && midPercent < 0 && seen.Percent > 0) midPercent = seen.Percent;
    }
    const ready = (performance.now() - c0) / 1000;
    if (seen.Status !== 'SUCCESSFUL') throw new Error(`${fileType}: ${seen.Status} ${seen.Error}`);
    const got = await call(calls.DownloadDownloadTask, JSON.stringify({ id: task.IdStr, timeZone: ZONE }));
    const label = fileType === 'xls' ? 'XLSX' : 'CSV';
    console.log(
      `  ${label.padEnd(4)}: created -> ready ${ready.toFixed(1)} s, ${Math.round(seen.Rows / ready).toLocaleString('en')} rows/s (${seen.Rows.toLocaleString('en')} of ${seen.RowsTotal.toLocaleString('en')} rows; first progress seen ${midPercent} %), zip ${(seen.FileSize / 1e6).toFixed(1)} MB downloaded in ${(got.ms / 1000).toFixed(2)} s (${(got.wire / 1e6).toFixed(1)} MB on the wire); server peak RSS so far ${memOf('VmHWM').toFixed(0)} MB; the writer alone (this process, bytes dropped) ${writerAlone[fileType]!.toFixed(1)} s = ${Math.round(ROWS / writerAlone[fileType]!).toLocaleString('en')} rows/s`,
    );
  }
} finally {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}
