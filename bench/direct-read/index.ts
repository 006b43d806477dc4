// bench/direct-read: Movebank's direct-read API (modules/export/direct-read.ts) streaming the GPS events of a
// study of 1M fixes (one device, a fix every 30 s for a year), `npm run bench -- direct-read`. A GET through
// HTTP on a listening server with a personal access token, the answer read as it streams; in the same run
// the baseline: the same device's Movebank CSV (movebank.ts's table and the CSV sink, the export's path) written
// to nothing in process. Rows per second and CPU seconds of each; peak RSS of the process (the seeding
// included: `after seeding` is the RSS before the first request). Goal (issue 29): >= 300k rows/s, <= 150 MB.
// BENCH_DIRECT_ROWS scales it.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { DeviceType, DIRECT_READ_PATH, SpeciesType } from '@wildtrack/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { ExportRepository } from '../../apps/server/src/modules/export/repository.js';
import { movebankFixTable } from '../../apps/server/src/modules/export/movebank.js';
import { csvSink } from '../../apps/server/src/modules/export/writers.js';
import { random } from '../random.js';

const ROWS = Number(process.env.BENCH_DIRECT_ROWS ?? 1_000_000);
const STEP_MS = 30_000;
const START = Date.UTC(2025, 0, 1);
const SECRET = `wt_${'b'.repeat(43)}`;
const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-direct-'));
const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none'), TOKEN_RATE_LIMIT: '0' });
const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
await migrateToLatest(database);
const { app, services } = await buildApp(config, database, { jobs: false });
await services.users.createUser({ orgName: 'Flyway Study', userName: 'flyway', password: 'Fly-Way-2026', email: 'flyway@example.org' });
const orgId = await services.devices.orgIdByName('Flyway Study');
const device = await services.devices.register({ orgId, imei: 'STORK-API', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], caption: 'stork' });
const userId = Number((database.sqlite!.prepare('select id from users where user_name = ?').get('flyway') as { id: number }).id);
// the token as PersonalToken/Create stores it: its SHA-256
database.sqlite!.prepare('insert into personal_tokens (user_id, name, token_hash, hint, created_at) values (?, ?, ?, ?, ?)').run(userId, 'bench', createHash('sha256').update(SECRET).digest('hex'), SECRET.slice(-4), START);

const rnd = random(29);
const insert = database.sqlite!.prepare(
  `insert into fixes (device_id, pick_time, lon, lat, alt, speed, course, temperature, activity, voltage, channel, satellites, hdop, vdop, grade, valid, tx_time, received_at)
   values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
);
let lon = 8.5;
let lat = 47.4;
const seedStart = performance.now();
database.sqlite!.transaction(() => {
  for (let i = 0; i < ROWS; i++) {
    lon += (rnd() - 0.5) * 0.01;
    lat += (rnd() - 0.5) * 0.01;
    const t = START + i * STEP_MS;
    insert.run(device.id, t, Math.round(lon * 1e6) / 1e6, Math.round(lat * 1e6) / 1e6, Math.round(400 + rnd() * 300), Math.round(rnd() * 600) / 10, Math.round(rnd() * 359), 20, 0, 3.9, 1, 9, 1.2, 1.5, 1, rnd() < 0.02 ? 0 : 1, t, t);
  }
})();
const seeded = (performance.now() - seedStart) / 1000;
const rssSeeded = process.memoryUsage().rss;

type Run = { name: string; rows: number; seconds: number; cpu: number };
async function timed(name: string, work: () => Promise<number>): Promise<Run> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const rows = await work();
  const c = process.cpuUsage(cpu0);
  return { name, rows, seconds: (performance.now() - t0) / 1000, cpu: (c.user + c.system) / 1e6 };
}

// the baseline: the export's Movebank table through its CSV sink, into nothing
const baseline = await timed('Movebank CSV export (in process, baseline)', async () => {
  let lines = 0;
  const sinkOut = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
      done();
    },
  });
  const repo = new ExportRepository(database.db);
  const table = await movebankFixTable(repo, { id: device.id, imei: 'STORK-API', caption: 'stork', attributes: '{}' }, { deviceId: device.id, from: Number.MIN_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER });
  const sink = csvSink(sinkOut, table.headers, false);
  for await (const batch of table.batches()) await sink.rows(batch, table.emit);
  await sink.end();
  return lines - 1;
});

await app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
const auth = `Basic ${Buffer.from(`flyway:${SECRET}`).toString('base64')}`;
const get = (query: string) =>
  timed(`direct-read ${query}`, async () => {
    const res = await fetch(`${base}${DIRECT_READ_PATH}?${query}`, { headers: { authorization: auth, 'accept-encoding': 'identity' } });
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${await res.text()}`);
    let lines = 0;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
    return lines - 1;
  });
const runs = [baseline, await get('entity_type=event&study_id=-1&sensor_type_id=653'), await get('entity_type=event&study_id=-1&sensor_type_id=653&attributes=all')];
await app.close();
database.sqlite!.close();
fs.rmSync(dataDir, { recursive: true, force: true });

console.log(`direct-read: ${ROWS.toLocaleString('en')} fixes of one device (seeded in ${seeded.toFixed(1)} s); load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
for (const r of runs) {
  console.log(`  ${r.name.padEnd(72)} ${r.rows.toLocaleString('en').padStart(10)} rows  ${Math.round(r.rows / r.seconds).toLocaleString('en').padStart(9)} rows/s  ${r.seconds.toFixed(2)} s  ${Math.round(r.rows / r.cpu).toLocaleString('en').padStart(9)} rows/CPU-s`);
}
const [, plain, all] = runs;
console.log(`  direct-read (default attributes) / baseline: ${(plain!.rows / plain!.seconds / (baseline.rows / baseline.seconds)).toFixed(2)}; attributes=all / baseline: ${(all!.rows / all!.seconds / (baseline.rows / baseline.seconds)).toFixed(2)}`);
console.log(`  RSS after seeding ${mb(rssSeeded)} MB; peak RSS of the process ${mb(process.resourceUsage().maxRSS * 1024)} MB (goal >= 300,000 rows/s, <= 150 MB)`);
