// bench/fence-ingest: ingest with geofences. 1,000 devices each in 5 fences of 200 vertices (remote rules,
// enter and leave) against the same 1,000 devices without fences, in the same run: two servers (buildApp,
// each on its own SQLite database), the rounds alternating between them so both see the same machine. Each
// round sends every device one batch of 20 fixes (a device's postback) through IngestService.writeBatch,
// the path of the ingest route after the signature check; the walks cross their fences, so Fence events are
// made. Prints both rates (fixes/s), the ratio (budget >= 0.8) and the events made.
// The fenced database starts ~12,000 pages (4 KiB) larger (the rings): SQLite's COMMIT costs more CPU
// in the larger file whatever it holds (a 40 MB table nobody reads on the no-fence side slows it as much).
// BENCH_PAD=1 pads the no-fence database to the fenced one's pages, so the ratio is the fences' own cost;
// a production database, GBs of fixes, makes the rings' pages a small part.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DeviceType, type FenceSettings, type IngestBatch } from '@wildtrack/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { DeviceRepository } from '../../apps/server/src/modules/device/repository.js';
import { FenceRepository } from '../../apps/server/src/modules/fence/repository.js';
import { fenceValues } from '../../apps/server/src/modules/fence/service.js';

const DEVICES = Number(process.env.BENCH_DEVICES ?? 1000);
const FENCES_PER_DEVICE = 5;
const VERTICES = 200;
const FIXES_PER_BATCH = 20;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const MIN = 60_000;

/** Device i's home: a grid of 0.5° cells. */
const home = (i: number): [number, number] => [100 + (i % 40) * 0.5, 20 + Math.floor(i / 40) * 0.5];
/**
 * Fix k of device i: a walk east and back over 0.12° through its five fences, each device starting at its
 * own point of the walk. WALK fixes a lap (default 2,400: ten crossings a way, and the walk's sideways
 * wobble (0.002°) flaps over the slanted edges as GPS noise does, so 2,361 Fence events in 10 rounds: one
 * per 85 fixes, 0.24 a batch. At a fix a minute that is ~17 crossings a day; for a stork at a fix every 10
 * minutes ~1.7 a day, a reserve's edge crossed going out to feed and back. BENCH_WALK=240 is the stress
 * case: 18,248 events, 1.8 a batch).
 */
const WALK = Number(process.env.BENCH_WALK ?? 2400);
function position(i: number, k0: number): [number, number] {
  const [x, y] = home(i);
  const k = k0 + ((i * 7919) % WALK);
  const phase = (k % WALK) / (WALK / 2);
  const along = phase <= 1 ? phase : 2 - phase;
  return [x + along * 0.12, y + 0.002 * Math.sin(k / 7)];
}
/** Fence j of device i: a 200-vertex ring of radius ~1 km around a point of the walk. */
function ring(i: number, j: number): [number, number][] {
  const [x, y] = home(i);
  const cx = x + 0.01 + j * 0.025 + (process.env.BENCH_FAR ? 0.3 : 0);
  const out: [number, number][] = [];
  for (let v = 0; v < VERTICES; v++) {
    const a = (2 * Math.PI * v) / VERTICES;
    const r = 0.009 * (1 + 0.1 * Math.sin(5 * a));
    out.push([cx + r * Math.cos(a), y + r * Math.sin(a)]);
  }
  return out;
}

const pageCount = (sqlite: { pragma(p: string, o: { simple: true }): unknown }) => Number(sqlite.pragma('page_count', { simple: true }));
/** BENCH_PAD: the fenced database's pages, which the no-fence one is padded to (opened second). */
let padTo = 0;

async function open(withFences: boolean) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `wildtrack-bench-fence-${withFences ? 'on' : 'off'}-`));
  const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
  const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
  await migrateToLatest(database);
  const { app, services } = await buildApp(config, database, { jobs: false });
  const orgId = await new DeviceRepository(database.db).createOrg('Bench', false, Date.now());
  const ids: number[] = [];
  for (let i = 0; i < DEVICES; i++) {
    const d = await services.devices.register({ orgId, imei: `8690${String(i).padStart(11, '0')}`, type: DeviceType.Tracker, sensors: ['GNSS'] });
    ids.push(Number(d.id));
  }
  if (withFences) {
    const settings: FenceSettings = {
      enabled: 1, inOrOut: 'BOTH', ruleType: 1, allowSendInstr: 0, imeis: ['x'],
      collection: { Mode: 'INTERVAL', IntervalMinutes: 5 }, postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512, Realtime: false }, timeZone: '+00:00',
    };
    const repo = new FenceRepository(database.db, database.sqlite);
    for (let i = 0; i < DEVICES; i += 100) {
      const items = [];
      for (let d = i; d < Math.min(DEVICES, i + 100); d++) {
        for (let j = 0; j < FENCES_PER_DEVICE; j++) items.push({ values: fenceValues(`F${d}-${j}`, { Type: 'Polygon', Coordinates: ring(d, j) }, settings, '+00:00'), deviceIds: process.env.BENCH_NO_RULES ? [] : [ids[d]!] });
      }
      await repo.save(orgId, null, items, Date.now());
    }
  }
  if (!withFences && padTo > 0) {
    // BENCH_PAD=1: the no-fence database made as large as the fenced one (a table nobody reads), so the two
    // sides differ only by the fences' evaluation and writes, not by the file's size.
    database.sqlite!.exec('create table bench_pad (id integer primary key, b blob)');
    const put = database.sqlite!.prepare('insert into bench_pad (b) values (?)');
    const blob = Buffer.alloc(8000, 7);
    database.sqlite!.transaction(() => {
      while (pageCount(database.sqlite!) < padTo) for (let i = 0; i < 100; i++) put.run(blob);
    })();
  }
  // The setup's writes (5,000 fences are ~40 MB of rings) checkpointed now, not by the first timed batches.
  database.sqlite!.pragma('wal_checkpoint(TRUNCATE)');
  if (withFences && process.env.BENCH_PAD) padTo = pageCount(database.sqlite!);
  return {
    ids,
    services,
    async events() {
      return Number((await database.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', 1).executeTakeFirstOrThrow()).n);
    },
    async close() {
      await app.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const on = await open(true);
const off = await open(false);
const start = Date.now() - (ROUNDS + 2) * FIXES_PER_BATCH * MIN - MIN;

// The fence index is built once at the first batch (and again after a change to fences): timed apart.
const warm0 = performance.now();
await on.services.ingest.writeBatch(on.ids[0]!, { fixes: { t: [start - MIN], lon: [0], lat: [0] } }, null);
await off.services.ingest.writeBatch(off.ids[0]!, { fixes: { t: [start - MIN], lon: [0], lat: [0] } }, null);
const warmSeconds = (performance.now() - warm0) / 1000;

/** CPU seconds (user + system) of this process: on a shared, busy machine wall time also counts waiting for a core. */
const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
let cpuOn = 0;
let cpuOff = 0;

/** Round r: every device's batch r, made before the clock starts; answers the seconds spent (and adds the CPU seconds). */
async function round(side: Awaited<ReturnType<typeof open>>, r: number): Promise<number> {
  const batches: IngestBatch[] = side.ids.map((_, i) => {
    const t: number[] = [], lon: number[] = [], lat: number[] = [];
    for (let f = 0; f < FIXES_PER_BATCH; f++) {
      const k = r * FIXES_PER_BATCH + f;
      const [x, y] = position(i, k);
      t.push(start + k * MIN);
      lon.push(x);
      lat.push(y);
    }
    return { fixes: { t, lon, lat } };
  });
  const t0 = performance.now();
  const c0 = cpuNow();
  for (let i = 0; i < side.ids.length; i++) await side.services.ingest.writeBatch(side.ids[i]!, batches[i]!, null);
  if (side === on) cpuOn += cpuNow() - c0;
  else cpuOff += cpuNow() - c0;
  return (performance.now() - t0) / 1000;
}

// Round 0 (every device's first batch, which sets its first side in each of its fences: written once in a
// fence's life) is timed apart too; the rates are the steady state of rounds 1..ROUNDS.
const first = { off: await round(off, 0), on: await round(on, 0) };
cpuOn = 0;
cpuOff = 0;
let secOn = 0;
let secOff = 0;
for (let r = 1; r <= ROUNDS; r++) {
  // alternate which goes first, so neither always follows the other
  if (r % 2 === 0) {
    secOff += await round(off, r);
    secOn += await round(on, r);
  } else {
    secOn += await round(on, r);
    secOff += await round(off, r);
  }
}
const fixes = DEVICES * FIXES_PER_BATCH * ROUNDS;
const rateOn = fixes / secOn;
const rateOff = fixes / secOff;
const events = await on.events();
console.log(`fence-ingest: ${DEVICES} devices, ${FENCES_PER_DEVICE} fences of ${VERTICES} vertices each (${DEVICES * FENCES_PER_DEVICE} fences), ${ROUNDS} rounds of one ${FIXES_PER_BATCH}-fix batch per device, a lap of the walk ${WALK} fixes`);
console.log(`  without fences: ${fixes} fixes in ${secOff.toFixed(2)} s = ${Math.round(rateOff)} fixes/s (CPU ${cpuOff.toFixed(2)} s = ${Math.round(fixes / cpuOff)} fixes per CPU second)`);
console.log(`  with fences:    ${fixes} fixes in ${secOn.toFixed(2)} s = ${Math.round(rateOn)} fixes/s (CPU ${cpuOn.toFixed(2)} s = ${Math.round(fixes / cpuOn)} fixes per CPU second; ${events} Fence events made)`);
console.log(`  ratio by CPU time: ${(cpuOff / cpuOn).toFixed(3)}${padTo > 0 ? ` (BENCH_PAD: the no-fence database padded to the fenced one's ${padTo} pages)` : ''}`);
console.log(`  not counted: the first batch, which builds the index of ${DEVICES * FENCES_PER_DEVICE} fences, ${warmSeconds.toFixed(2)} s; round 0 (first sides) ${first.on.toFixed(2)} s with fences, ${first.off.toFixed(2)} s without`);
console.log(`  ratio by wall time: ${(rateOn / rateOff).toFixed(3)} (budget >= 0.80) ${rateOn / rateOff >= 0.8 ? 'OK' : 'OVER BUDGET'}`);
// Two cores shared with other work: the load says how much the figures above can be trusted.
console.log(`  load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
await on.close();
await off.close();
if (rateOn / rateOff < 0.8) process.exitCode = 1;
