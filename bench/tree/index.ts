// bench/tree: GetTree for an organisation of 10,000 devices in 1,000 folders, server time (goal <= 50 ms).
// The call goes through the whole server path (signature, session, tree, envelope, JSON) with
// Fastify's inject, so the figure is what the server spends, without the network.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { API_BASE, calls, DeviceType, LanguageId, prepareCall, SENSOR_FLAG_NAMES, sensorMask } from '@wildtrack/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { benchSignIn } from '../sign-in.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 10_000);
const FOLDERS = Number(process.env.BENCH_FOLDERS ?? 1_000);
const RUNS = 40;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-tree-'));
const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
await migrateToLatest(database);
const { app, services } = await buildApp(config, database);
await services.users.createUser({ orgName: 'Big Study', userName: 'bigstudy', password: 'Big-Study-2026', email: 'big@example.org' });
const token = await benchSignIn(services.auth, { account: 'bigstudy', password: 'Big-Study-2026', timeZone: '+08:00' });
const orgId = await services.devices.orgIdByName('Big Study');

// 1,000 folders three levels deep (10 x 10 x 10), 10,000 devices spread over them, written directly.
const sqlite = database.sqlite!;
const now = Date.now();
const insertFolder = sqlite.prepare('insert into folders (org_id, parent_id, name, created_at) values (?, ?, ?, ?)');
const insertDevice = sqlite.prepare(
  `insert into devices (org_id, folder_id, imei, type, model, species_type, battery_type, sensors, instr_support, caption, status, secret, last_voltage, last_work_time, created_at)
   values (?, ?, ?, ?, 'WT-25', ?, 1, ?, 31, ?, 3, 'x', ?, ?, ?)`,
);
const folderIds: number[] = [];
sqlite.transaction(() => {
  const level = (parent: number | null, depth: number, prefix: string) => {
    for (let i = 0; i < 10 && folderIds.length < FOLDERS; i++) {
      const id = Number(insertFolder.run(orgId, parent, `${prefix}${i + 1}`, now).lastInsertRowid);
      folderIds.push(id);
      if (depth < 2) level(id, depth + 1, `${prefix}${i + 1}.`);
    }
  };
  for (let r = 0; folderIds.length < FOLDERS; r++) level(null, 0, `Site ${r + 1}-`);
  for (let i = 0; i < DEVICES; i++) {
    const sensors = sensorMask(SENSOR_FLAG_NAMES.filter((_, k) => (i >> k) % 3 === 0));
    insertDevice.run(orgId, folderIds[i % folderIds.length], `86${String(i).padStart(13, '0')}`, i % 50 === 0 ? DeviceType.VHFReceiver : DeviceType.Tracker,
      1 + (i % 3), sensors || 1, `Animal ${i}`, 3.6 + (i % 60) / 100, now - (i % 1000) * 60_000, now);
  }
})();

/** A signed call as the console sends it (the body encrypted); `json()` is the envelope with its Data opened. */
const inject = async (path: string, body: unknown) => {
  const prepared = prepareCall({ credential: token, path, body, lcid: LanguageId.en });
  const res = await app.inject({ method: 'POST', url: API_BASE + path, headers: prepared.headers, payload: prepared.payload });
  const opened = await prepared.open(res.body);
  return Object.assign(res, { json: () => opened });
};

const call = () => inject(calls.GetTree.path, { timeZone: '+08:00' });

for (let i = 0; i < 5; i++) await call(); // warm-up
const times: number[] = [];
let bytes = 0;
let gz = 0;
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  const res = await call();
  times.push(performance.now() - t0);
  if (i === 0) {
    const data = res.json() as { Code: number; Data: { Total: number } };
    if (data.Code !== 1000 || data.Data.Total !== DEVICES) throw new Error(`unexpected answer: ${res.body.slice(0, 200)}`);
    bytes = res.rawPayload.length;
    gz = gzipSync(res.rawPayload).length;
  }
}
times.sort((a, b) => a - b);
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!;

// After a change (here: a device moved, as the tree's menu does) the first GetTree: the kept rows are
// changed in place when this process made the change, re-read when another did.
const cold: number[] = [];
for (let i = 0; i < 10; i++) {
  const moved = await inject(calls.MoveDevice.path, { imei: `86${String(i).padStart(13, '0')}`, folderId: String(folderIds[(i * 7) % folderIds.length]) });
  if ((moved.json() as { Code: number }).Code !== 1000) throw new Error(`move failed: ${moved.body}`);
  const t0 = performance.now();
  await call();
  cold.push(performance.now() - t0);
}
cold.sort((a, b) => a - b);

// GetTreeState, what the tree's online / late / silent marks need: read again every minute by each open
// console, so it must stay cheap. A tenth of the devices have reported their configuration; the first
// call parses those documents, the others find the report gaps kept.
const stateCall = () => inject(calls.GetTreeState.path, {});
const insertDoc = sqlite.prepare('insert into device_work_status (device_id, settings, updated_at) select id, ?, ? from devices where org_id = ? and id % 10 = 0');
insertDoc.run(JSON.stringify({ GNSSCollectionMode: 0, NormalType: 'INTERVAL', IntervalMinutes: 30, Realtime: true }), now, orgId);
let t0 = performance.now();
const firstState = await stateCall();
const stateFirst = performance.now() - t0;
const stateData = firstState.json() as { Code: number; Data: { IMEI: string[] } };
if (stateData.Code !== 1000 || stateData.Data.IMEI.length !== DEVICES) throw new Error(`unexpected answer: ${firstState.body.slice(0, 200)}`);
const stateTimes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  t0 = performance.now();
  await stateCall();
  stateTimes.push(performance.now() - t0);
}
stateTimes.sort((a, b) => a - b);
console.log(`\nbench/tree: GetTree for ${DEVICES.toLocaleString('en-US')} devices in ${folderIds.length.toLocaleString('en-US')} folders, SQLite, ${RUNS} calls`);
console.log(`  server time  median ${pct(50).toFixed(1)} ms   p95 ${pct(95).toFixed(1)} ms   best ${times[0]!.toFixed(1)} ms   (goal <= 50 ms)`);
console.log(`  after a move median ${cold[5]!.toFixed(1)} ms   worst ${cold[9]!.toFixed(1)} ms   (the first call after each move)`);
console.log(`  answer       ${(bytes / 1024).toFixed(0)} KiB JSON, ${(gz / 1024).toFixed(0)} KiB gzipped`);
console.log(
  `  tree state   median ${stateTimes[RUNS >> 1]!.toFixed(1)} ms   p95 ${stateTimes[Math.floor(RUNS * 0.95)]!.toFixed(1)} ms   first ${stateFirst.toFixed(1)} ms   ` +
    `${(firstState.rawPayload.length / 1024).toFixed(0)} KiB JSON, ${(gzipSync(firstState.rawPayload).length / 1024).toFixed(0)} KiB gzipped (GetTreeState, the marks)`,
);
await app.close();
await database.close();
if (process.env.KEEP) console.log(dataDir); else fs.rmSync(dataDir, { recursive: true, force: true });
