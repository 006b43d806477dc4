// bench/field: field records (issue 13 item 5) at the scale of a busy reserve: one phone with a year of a
// team's records, 50,000 behaviour observations (8 recorders, the default motions and 4 of the reserve's
// own) and 2,000 POIs with a photo each. Prints the ingest rate (batches of 500 records as phones send
// them) and the server time of the console's calls over the whole year (signature, session, query,
// envelope, JSON through Fastify's inject): the behaviour page filtered by motion (goal <= 50 ms p95), its
// count, the POI page of 100 (the map's request) and the filters.
// `npm run bench -- field` (SQLite in a temp folder; DATABASE_URL is not read).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calls, DeviceType, formatTime, IngestBatchSchema } from '@wildtrack/contract';
import { fieldPhoto, Rng } from '@wildtrack/sample-fleet';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { benchCalls } from '../calls.js';
import { benchSignIn } from '../sign-in.js';

const OBSERVATIONS = Number(process.env.BENCH_OBSERVATIONS ?? 50_000);
const POIS = Number(process.env.BENCH_POIS ?? 2_000);
const RUNS = 40;
const DAY = 86_400_000;
const ZONE = '+08:00';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-field-'));
const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
await migrateToLatest(database);
const { app, services } = await buildApp(config, database);
await services.users.createUser({ orgName: 'Delta Reserve', userName: 'deltareserve', password: 'Delta-Res-26', email: 'delta@example.org' });
const token = await benchSignIn(services.auth, { account: 'deltareserve', password: 'Delta-Res-26', timeZone: ZONE });
const orgId = await services.devices.orgIdByName('Delta Reserve');
const imei = '864512049990001';
const { id: deviceId } = await services.devices.register({ orgId, imei, type: DeviceType.Phone, sensors: ['GNSS', 'Image'], caption: 'Patrol phone' });

// ---- a year of records, as phones send them: 500 a batch ----
const rng = new Rng(42, 8);
const end = Date.UTC(2026, 10, 1);
const start = end - 365 * DAY;
const motions = ['foraging', 'resting', 'moving', 'vigilance', 'grooming', 'social', 'courtship', 'nesting', 'Flying over', 'Dust bathing', 'Wading', 'Calling'];
const photo = Buffer.from(fieldPhoto(rng, 30, 'stork')).toString('base64');
const recorder = (i: number) => ({ recorder: 2000 + (i % 8), recorderName: `Ranger ${i % 8}` });
const records: { kind: 'poi' | 'behavior'; t: number }[] = [];
for (let i = 0; i < OBSERVATIONS; i++) records.push({ kind: 'behavior', t: start + Math.floor(((i + rng.float()) / OBSERVATIONS) * 365 * DAY) });
for (let i = 0; i < POIS; i++) records.push({ kind: 'poi', t: start + Math.floor(((i + rng.float()) / POIS) * 365 * DAY) });
records.sort((a, b) => a.t - b.t);
const batches = [];
for (let i = 0; i < records.length; i += 500) {
  const part = records.slice(i, i + 500);
  batches.push(
    IngestBatchSchema.parse({
      pois: part.filter((r) => r.kind === 'poi').map((r, k) => ({ t: r.t, ...recorder(k), name: `Point ${r.t}`, target: 'Oriental stork', lon: 118.9 + rng.float() / 10, lat: 37.7 + rng.float() / 10, photos: [photo] })),
      behaviors: part
        .filter((r) => r.kind === 'behavior')
        .map((r, k) => ({ start: r.t, end: r.t + 600_000, ...recorder(k), lon: 118.9 + rng.float() / 10, lat: 37.7 + rng.float() / 10, motion: motions[Math.floor(rng.float() * motions.length)]! })),
    }),
  );
}
const t0 = performance.now();
let stored = 0;
for (const b of batches) {
  const c = await services.ingest.writeBatch(deviceId, b, null, end + DAY);
  stored += (c.pois ?? 0) + (c.behaviors ?? 0);
}
const ingestMs = performance.now() - t0;
if (stored !== records.length) throw new Error(`stored ${stored} of ${records.length}`);

// ---- the console's calls over the whole year ----
const range = { imei, startTime: formatTime(start, ZONE), endTime: formatTime(end, ZONE), timeZone: ZONE };
const { send, measure } = benchCalls(app, token, RUNS);
const filters = (await send(calls.GetBehaviorFilters, { imei })).data as { Motions: { Id: number; Name: string }[] };
const foraging = filters.Motions.find((m) => m.Name === 'Foraging')!.Id;

console.log(`bench/field: ${OBSERVATIONS.toLocaleString('en')} observations and ${POIS.toLocaleString('en')} POIs of one phone over 365 days (SQLite)`);
console.log(`ingest: ${batches.length} batches of 500 in ${ingestMs.toFixed(0)} ms = ${Math.round(records.length / (ingestMs / 1000)).toLocaleString('en')} records/s`);
await measure('Behavior/GetList, a year, 20 newest', calls.GetBehaviorList, { ...range, pageSize: 20 });
await measure('Behavior/GetList, a year, foraging, 20 newest', calls.GetBehaviorList, { ...range, pageSize: 20, motionId: foraging });
await measure('Behavior/GetList, a year, foraging + recorder, page 10', calls.GetBehaviorList, { ...range, pageSize: 20, motionId: foraging, recorder: '2003', currentPage: 10 });
await measure('Behavior/GetCount, a year, foraging', calls.GetBehaviorCount, { ...range, motionId: foraging });
await measure('POI/GetList, a year, 100 newest (the map)', calls.GetPoiList, { ...range, pageSize: 100 });
await measure('Behavior/GetFilters (motions, recorders)', calls.GetBehaviorFilters, { imei });
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
