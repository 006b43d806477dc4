// bench/sensors series: 1M temperature records of one device (a record every 30 s for a year), asked as
// the /track chart asks (Sensor/GetSeries, 1,024 px wide) over real HTTP on loopback with br as Chromium
// asks, until the envelope is decoded into typed arrays: goal <= 300 ms warm. Prints the server's part
// (request to last byte), the decode, bytes on the wire, and a zoomed ask (one month of the year).
// With DATABASE_URL set, the same on PostgreSQL too (a schema of its own, dropped after). BENCH_SERIES_POINTS
// and BENCH_ROUNDS scale it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { calls, decodeBase64SensorSeries, DeviceType, formatTime, SpeciesType } from '@wildtrack/contract';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';
import { random } from '../random.js';
import { httpCaller } from '../calls.js';
import { benchSignIn } from '../sign-in.js';

const POINTS = Number(process.env.BENCH_SERIES_POINTS ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const WIDTH = 1024;
const STEP_MS = 30_000;
const ZONE = '+08:00';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function benchSeries(): Promise<void> {
  await benchOn('sqlite');
  if (process.env.DATABASE_URL) await benchOn('postgres');
}

async function benchOn(dialect: 'sqlite' | 'postgres'): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-series-'));
  const config = loadConfig({ WILDTRACK_DATA: dataDir, LOG_LEVEL: 'warn', WEB_DIST: path.join(dataDir, 'none') });
  const url = process.env.DATABASE_URL ?? '';
  const schema = `bench_series_${process.pid}`;
  const admin = async (text: string) => {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(text);
    await c.end();
  };
  if (dialect === 'postgres') await admin(`create schema ${schema}`);
  const database = dialect === 'postgres' ? connect({ databaseUrl: url, pgSchema: schema }) : connect({ sqliteFile: path.join(dataDir, 'wildtrack.db') });
  await migrateToLatest(database);
  const { app, services } = await buildApp(config, database);
  await services.users.createUser({ orgName: 'Flyway Study', userName: 'flyway', password: 'Fly-Way-2026', email: 'flyway@example.org' });
  const token = await benchSignIn(services.auth, { account: 'flyway', password: 'Fly-Way-2026', timeZone: ZONE });
  const orgId = await services.devices.orgIdByName('Flyway Study');
  const device = await services.devices.register({ orgId, imei: 'STORK-TEMP', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS', 'Temperature'], caption: 'stork' });

  // A year of a tag's temperature: a seasonal swing, a daily one, and noise (0.1 °C steps as tags send).
  const start = Date.UTC(2025, 0, 1);
  const rnd = random(7);
  const valueAt = (t: number) => {
    const day = (t / 86_400_000) % 365;
    const v = 12 - 10 * Math.cos((2 * Math.PI * day) / 365) + 6 * Math.sin((2 * Math.PI * (t % 86_400_000)) / 86_400_000) + (rnd() - 0.5) * 2;
    return Math.round(v * 10) / 10;
  };
  const t0 = performance.now();
  if (database.sqlite) {
    const insert = database.sqlite.prepare('insert into sensor_records (device_id, kind, time, v1, received_at) values (?, 1, ?, ?, ?)');
    database.sqlite.transaction(() => {
      for (let i = 0; i < POINTS; i++) insert.run(device.id, start + i * STEP_MS, valueAt(start + i * STEP_MS), start + i * STEP_MS);
    })();
  } else {
    const c = new pg.Client({ connectionString: url, options: `-c search_path=${schema}` });
    await c.connect();
    const BATCH = 10_000;
    for (let at = 0; at < POINTS; at += BATCH) {
      const n = Math.min(BATCH, POINTS - at);
      const times = Array.from({ length: n }, (_, k) => start + (at + k) * STEP_MS);
      await c.query('insert into sensor_records (device_id, kind, time, v1, received_at) select $1, 1, t, v, t from unnest($2::bigint[], $3::real[]) as u(t, v)', [device.id, times, times.map(valueAt)]);
    }
    await c.query('analyze sensor_records');
    await c.end();
  }
  console.log(`${dialect}: wrote ${POINTS.toLocaleString('en-US')} temperature records in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const call = httpCaller(port, token);
  const post = (body: string) => call(calls.GetSensorSeries, body);

  const end = start + POINTS * STEP_MS - 1;
  const ask = async (from: number, to: number) => {
    const body = JSON.stringify({ imei: 'STORK-TEMP', kind: 'temperature', startTime: formatTime(from, ZONE), endTime: formatTime(to, ZONE), timeZone: ZONE, width: WIDTH });
    const started = performance.now();
    const cpu0 = process.cpuUsage();
    const got = await post(body);
    const d0 = performance.now();
    const envelope = (await got.open(got.text)) as { Code: number; Data: string; bytes?: Uint8Array };
    if (envelope.Code !== 1000) throw new Error(`GetSeries: ${got.text.slice(0, 200)}`);
    // The encrypted answer's bytes (docs/api.md "Encrypted bodies and answers"), as the console decodes them.
    const series = decodeBase64SensorSeries(envelope.bytes ?? envelope.Data);
    const decode = performance.now() - d0;
    const used = process.cpuUsage(cpu0);
    return { total: performance.now() - started, server: got.ms, decode, wire: got.wire, base64: envelope.bytes ? Math.ceil(envelope.bytes.length / 3) * 4 : envelope.Data.length, series, cpu: (used.user + used.system) / 1000 };
  };

  const runs = async (from: number, to: number) => {
    const cold = await ask(from, to);
    const warm = [];
    for (let r = 0; r < ROUNDS; r++) warm.push(await ask(from, to));
    return { cold, warm };
  };
  const m = (xs: { [k: string]: number | object }[], k: string) => median(xs.map((x) => x[k] as number));
  const print = (label: string, { cold, warm }: Awaited<ReturnType<typeof runs>>) => {
    const s = warm[0]!.series;
    console.log(`  ${label}: ${s.total.toLocaleString('en-US')} records -> ${s.bucketMs > 0 ? `envelope of ${s.count} buckets (${(s.bucketMs / 60_000).toFixed(1)} min each)` : `${s.count} points`}`);
    console.log(
      `    warm total ${m(warm, 'total').toFixed(0)} ms [request to last byte ${m(warm, 'server').toFixed(0)} ms, parse + decode ${m(warm, 'decode').toFixed(1)} ms; cpu ${m(warm, 'cpu').toFixed(0)} ms]` +
        `  first ask ${cold.total.toFixed(0)} ms   ${(m(warm, 'wire') / 1024).toFixed(1)} kB on the wire (br; ${(m(warm, 'base64') / 1024).toFixed(1)} kB base64 before compression)`,
    );
  };
  console.log(`\nbench/sensors series: Sensor/GetSeries, ${dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'}, ${WIDTH} px, real HTTP on loopback with br, median of ${ROUNDS} warm rounds (goal <= 300 ms warm for 1M)`);
  print('the whole year', await runs(start, end));
  print('zoomed to 30 days', await runs(start + 180 * 86_400_000, start + 210 * 86_400_000));
  print('zoomed to 6 hours', await runs(start + 180 * 86_400_000, start + 180 * 86_400_000 + 6 * 3_600_000));
  await app.close();
  await database.close();
  if (dialect === 'postgres') await admin(`drop schema ${schema} cascade`);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
