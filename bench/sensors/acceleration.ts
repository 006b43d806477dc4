// bench/sensors acceleration: a month of a stork's 20 Hz 3-axis bursts (10 s every 5 minutes: 8,640
// bursts, 1.73M samples, made by the sample fleet's burst model and written through the ingest) asked as the /track acceleration panel asks them
// (Sensor/GetAccelerationBinaryV2) over real HTTP on loopback with br as Chromium asks, until the series
// is decoded and summarised as the console's acceleration worker does it (lib/acceleration/decode.ts: the
// bursts and each sample's ODBA, the overview's buckets) and the actogram is computed (ready to draw):
// goal <= 300 ms warm. The first ask reads every burst (and the server keeps the month's hours encoded);
// a warm ask is answered from them after one grouped read of the key. Prints
// bytes per sample on the wire (and what the JSON pages would cost per sample), and the storage per ACC
// axis-sample (goal <= 2 bytes). BENCH_ACC_DAYS and BENCH_ROUNDS scale it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { calls, DeviceType, formatTime, SpeciesType } from '@wildtrack/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { actogramOf } from '../../apps/web/src/features/track/acceleration/model.js';
import { decodeWithEnvelope } from '../../apps/web/src/lib/acceleration/decode.js';
import { OVERVIEW_BUCKETS } from '../../apps/web/src/lib/acceleration/envelope.js';
import { makeBurst } from '../../packages/sample-fleet/src/acceleration.js';
import type { Behaviour } from '../../packages/sample-fleet/src/profiles.js';
import { Rng } from '../../packages/sample-fleet/src/rng.js';
import { httpCaller } from '../calls.js';
import { benchSignIn } from '../sign-in.js';

const DAYS = Number(process.env.BENCH_ACC_DAYS ?? 30);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const HZ = 20;
const BURST_S = 10;
const EVERY_MS = 5 * 60_000;
const ZONE = '+08:00';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchAcceleration(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-acc-'));
  const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
  const database = connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
  await migrateToLatest(database);
  const { app, services } = await buildApp(config, database);
  await services.users.createUser({ orgName: 'Flyway Study', userName: 'flyway', password: 'Fly-Way-2026', email: 'flyway@example.org' });
  const token = await benchSignIn(services.auth, { account: 'flyway', password: 'Fly-Way-2026', timeZone: ZONE });
  const orgId = await services.devices.orgIdByName('Flyway Study');
  const device = await services.devices.register({ orgId, imei: 'STORK-ACC', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS', 'Acceleration'], caption: 'stork' });
  const sqlite = database.sqlite!;

  // The sample fleet's stork bursts (packages/sample-fleet: postures and rhythms of each behaviour, the
  // logger's 12-bit counts and noise), 10 s at 20 Hz every 5 minutes: soaring, flapping, foraging and
  // walking by day, resting at night.
  const start = Date.UTC(2026, 9, 1);
  const rng = new Rng(11);
  const spec = { hz: HZ, seconds: BURST_S, intervalMinutes: EVERY_MS / 60_000, scale: [0.00271, 0.00268, 0.00274] as [number, number, number], offset: [2041, 2055, 2046] as [number, number, number] };
  const byDay: Behaviour[] = ['soar', 'soar', 'flap', 'forage', 'forage', 'walk', 'rest'];
  let bursts = 0;
  let samples = 0;
  const t0 = performance.now();
  const pageBefore = (sqlite.prepare('pragma page_count').get() as { page_count: number }).page_count;
  for (let day = 0; day < DAYS; day++) {
    const batch = [];
    for (let t = start + day * 86_400_000; t < start + (day + 1) * 86_400_000; t += EVERY_MS) {
      const hour = ((t / 3_600_000) % 24 + 8) % 24;
      const behaviour: Behaviour = hour > 6 && hour < 19 ? byDay[rng.int(0, byDay.length - 1)]! : 'rest';
      batch.push(makeBurst(t, behaviour, spec, HZ, rng));
      bursts++;
      samples += HZ * BURST_S;
    }
    await services.ingest.writeBatch(device.id, { bursts: batch }, null, start + (day + 1) * 86_400_000);
  }
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  const pageSize = (sqlite.prepare('pragma page_size').get() as { page_size: number }).page_size;
  let tableBytes: number | null = null;
  try {
    tableBytes = (sqlite.prepare("select sum(pgsize) as b from dbstat where name = 'acc_bursts'").get() as { b: number }).b;
  } catch {
    // dbstat not compiled in: the file's growth below
  }
  const pageAfter = (sqlite.prepare('pragma page_count').get() as { page_count: number }).page_count;
  const stored = tableBytes ?? (pageAfter - pageBefore) * pageSize;
  console.log(`wrote ${bursts.toLocaleString('en-US')} bursts, ${samples.toLocaleString('en-US')} samples (${DAYS} days, ${HZ} Hz XYZ, ${BURST_S} s every ${EVERY_MS / 60_000} min) through the ingest in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const post = httpCaller(port, token);

  const range = { imei: 'STORK-ACC', startTime: formatTime(start, ZONE), endTime: formatTime(start + DAYS * 86_400_000 - 1000, ZONE), timeZone: ZONE };
  const ask = async () => {
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    const got = await post(calls.GetAccelerationBinaryV2, JSON.stringify(range));
    const d0 = performance.now();
    const envelope = (await got.open(got.text)) as { Code: number; Data: { Count: number; SampleCount: number; Data: string }; bytes?: Uint8Array };
    if (envelope.Code !== 1000) throw new Error(`GetAccelerationBinaryV2: ${got.text.slice(0, 200)}`);
    const d1 = performance.now();
    const c1 = process.cpuUsage();
    const { series, envelope: overview } = decodeWithEnvelope({ base64: envelope.bytes ?? envelope.Data.Data, from: start, to: start + DAYS * 86_400_000, buckets: OVERVIEW_BUCKETS });
    const d2 = performance.now();
    const c2 = process.cpuUsage(c1);
    const acto = actogramOf(series.start, series.meanOdba, series.burstCount, range.startTime, range.endTime, ZONE);
    const ready = performance.now();
    const used = process.cpuUsage(cpu0);
    return {
      cpu: (used.user + used.system) / 1000,
      total: ready - started,
      server: got.ms,
      decode: ready - d0,
      parse: d1 - d0,
      worker: d2 - d1,
      workerCpu: (c2.user + c2.system) / 1000,
      actogram: ready - d2,
      wire: got.wire,
      base64: envelope.Data.Data.length,
      samples: series.sampleCount,
      cells: acto.cells.length,
      points: overview.x.length,
    };
  };
  const cold = await ask();
  const warm: Awaited<ReturnType<typeof ask>>[] = [];
  for (let r = 0; r < ROUNDS; r++) warm.push(await ask());
  const m = (k: keyof (typeof warm)[number]) => median(warm.map((x) => x[k] as number));

  // The JSON pages for comparison: one page of 20 bursts with their samples.
  const page = await post(calls.GetAccelerationListV2, JSON.stringify({ ...range, pageSize: 20 }));
  const pageText = page.text.length;

  console.log(`\nbench/sensors acceleration: Sensor/GetAccelerationBinaryV2, SQLite, real HTTP on loopback (br offered; this answer is sent as it is), median of ${ROUNDS} warm rounds; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);
  console.log(`  a month of 20 Hz XYZ bursts: ${m('samples').toLocaleString('en-US')} samples in ${bursts.toLocaleString('en-US')} bursts -> the bursts and every sample's ODBA decoded, actogram of ${warm[0]!.cells} cells and the ODBA overview of ${warm[0]!.points} points (as the panel draws them)`);
  console.log(
    `    warm request -> ready to draw ${m('total').toFixed(0)} ms (goal <= 300 ms) [request to last byte ${m('server').toFixed(0)} ms, parse + decode + actogram + overview ${m('decode').toFixed(0)} ms` +
      ` (JSON.parse ${m('parse').toFixed(0)}, the worker's decode + overview ${m('worker').toFixed(0)} (cpu ${m('workerCpu').toFixed(0)}), actogram ${m('actogram').toFixed(0)}); cpu of server and client ${m('cpu').toFixed(0)} ms` +
      ` (rounds ${warm.map((x) => x.cpu.toFixed(0)).join(', ')})]  first ask ${cold.total.toFixed(0)} ms (cpu ${cold.cpu.toFixed(0)} ms)`,
  );
  console.log(
    `    on the wire ${(m('wire') / 1024 / 1024).toFixed(2)} MB = ${(m('wire') / m('samples')).toFixed(2)} bytes per sample (${(m('base64') / m('samples')).toFixed(2)} as base64 in the envelope)` +
      `; the JSON pages would be ${(pageText / (20 * HZ * BURST_S)).toFixed(0)} bytes per sample before compression (${(page.wire / (20 * HZ * BURST_S)).toFixed(1)} with br)`,
  );
  console.log(
    `  storage: acc_bursts ${(stored / 1024 / 1024).toFixed(1)} MB${tableBytes === null ? ' (file growth)' : ' (dbstat)'} = ${(stored / (samples * 3)).toFixed(2)} bytes per axis-sample (goal <= 2; the first encoding, int16 counts + uint16 ODBA, was 2.67 before row overhead)`,
  );
  await app.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
