// bench/fence-import: other users' calls while a large shapefile is imported (issue 26 H4). One server
// (buildApp on SQLite, listening on a port), a file at the import's limits: 120 polygons of 5,000 vertices
// (9.6 MB, a jagged star each: the geometry check's slow case), imported over HTTP while a second user
// sends GetFenceList over HTTP in a loop, and the event loop's delay is sampled every 5 ms. Prints the
// import's time, the calls answered during it (p50 / max) and the loop's largest delay: budget < 50 ms
// for every other call while the import runs (the reading runs in a worker thread, modules/fence/shp-import.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { API_BASE, calls, DeviceStatus, DeviceType, FENCE_IMPORT_PATH, LanguageId, signedHeaders, SpeciesType } from '@wildtrack/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { polygonShp } from '../../apps/server/src/modules/fence/shp-writer.test-util.js';
import { percentile } from '../calls.js';
import { benchSignIn } from '../sign-in.js';

const POLYGONS = Number(process.env.BENCH_POLYGONS ?? 120);
const VERTICES = 5000;
const BUDGET_MS = 50;

const star = (lng: number, lat: number): [number, number][] => {
  const ring = Array.from({ length: VERTICES }, (_, i): [number, number] => {
    const a = (-2 * Math.PI * i) / VERTICES;
    const r = 0.01 * (1 + 0.3 * Math.sin(i * 7));
    return [lng + r * Math.cos(a), lat + r * Math.sin(a)];
  });
  return [...ring, ring[0]!];
};
const file = polygonShp(Array.from({ length: POLYGONS }, (_, i) => star(100 + (i % 12) * 0.05, 10 + Math.floor(i / 12) * 0.05)));

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-fence-import-'));
const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
await migrateToLatest(database);
const { app, services } = await buildApp(config, database, { jobs: false });
await services.users.createUser({ orgName: 'Reserve Survey', userName: 'reserve', password: 'Reserve-2026', email: 'reserve@example.org' });
await services.users.createUser({ orgName: 'Other Lab', userName: 'otherlab', password: 'Other-Lab-26', email: 'other@example.org' });
const importer = await benchSignIn(services.auth, { account: 'reserve', password: 'Reserve-2026', timeZone: '+08:00' });
const other = await benchSignIn(services.auth, { account: 'otherlab', password: 'Other-Lab-26', timeZone: '+08:00' });
const orgId = await services.devices.orgIdByName('Reserve Survey');
await services.devices.register({ orgId, imei: 'FENCE-BENCH-1', caption: 'bench', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'], instrSupport: [] });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

const settings = JSON.stringify({ inOrOut: 'BOTH', ruleType: 1, imeis: ['FENCE-BENCH-1'], collection: { Mode: 'INTERVAL', IntervalMinutes: 5 }, postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512 } });
const boundary = '----wildtrack-bench';
const multipart = Buffer.concat([
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="settings"\r\n\r\n${settings}\r\n`),
  Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="reserve.shp"\r\nContent-Type: application/octet-stream\r\n\r\n`),
  file,
  Buffer.from(`\r\n--${boundary}--\r\n`),
]);
const importOnce = async () => {
  const res = await fetch(address + API_BASE + FENCE_IMPORT_PATH, {
    method: 'POST',
    headers: { ...signedHeaders({ token: importer, path: FENCE_IMPORT_PATH, body: undefined, lcid: LanguageId.en }), 'content-type': `multipart/form-data; boundary=${boundary}` },
    body: multipart,
  });
  const answer = (await res.json()) as { Code: number; Msg: string; Data: { List: unknown[] } | null };
  if (answer.Code !== 1000) throw new Error(`import: ${answer.Code} ${answer.Msg}`);
  return answer.Data!.List.length;
};
const listOnce = async () => {
  const path = calls.GetFenceList.path;
  const body = JSON.stringify({});
  const started = performance.now();
  const res = await fetch(address + API_BASE + path, { method: 'POST', headers: { ...signedHeaders({ token: other, path, body, lcid: LanguageId.en }), 'content-type': 'application/json' }, body });
  const answer = (await res.json()) as { Code: number };
  if (answer.Code !== 1000) throw new Error(`GetFenceList: ${answer.Code}`);
  return performance.now() - started;
};

// warm-up: the call path, and one small import (starts the worker thread and keeps it for the next)
for (let i = 0; i < 20; i++) await listOnce();
await fetch(address + API_BASE + FENCE_IMPORT_PATH, {
  method: 'POST',
  headers: { ...signedHeaders({ token: importer, path: FENCE_IMPORT_PATH, body: undefined, lcid: LanguageId.en }), 'content-type': `multipart/form-data; boundary=${boundary}` },
  body: Buffer.concat([multipart.subarray(0, multipart.indexOf(file)), polygonShp([star(120, 30)]), Buffer.from(`\r\n--${boundary}--\r\n`)]),
});

const delay = monitorEventLoopDelay({ resolution: 5 });
const times: number[] = [];
let running = true;
const started = performance.now();
delay.enable();
const importing = importOnce().finally(() => (running = false));
const others = (async () => {
  while (running) times.push(await listOnce());
})();
const fences = await importing;
const seconds = (performance.now() - started) / 1000;
await others;
delay.disable();
times.sort((a, b) => a - b);
const maxDelay = delay.max / 1e6;
const maxCall = times.at(-1) ?? NaN;
console.log(`import of ${POLYGONS} polygons x ${VERTICES} vertices (${(file.length / 1024 / 1024).toFixed(1)} MB): ${fences} fences in ${seconds.toFixed(1)} s`);
console.log(`another user's GetFenceList during it: ${times.length} answered, p50 ${percentile(times, 50).toFixed(1)} ms, max ${maxCall.toFixed(1)} ms`);
console.log(`event loop delay during it: p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${maxDelay.toFixed(1)} ms (budget < ${BUDGET_MS} ms)`);
console.log(maxCall < BUDGET_MS && maxDelay < BUDGET_MS ? 'within budget' : 'OVER BUDGET');
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
