// bench/ingest: 1M fixes through the device ingest API in batches of 1,000 into SQLite, fixes/s, beside
// the raw better-sqlite3 prepared-insert ceiling into the same schema measured in the same run, and
// the ratio (goal >= 0.5). The server runs in its own process; request bodies and signatures are made
// before the clock starts, so the figure is the server's.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { INGEST_BASE, ingestHeaders, isValidPosition } from '@wildtrack/contract';
import { connect, migrateToLatest } from '../../apps/server/src/db/connect.js';

const TOTAL = Number(process.env.BENCH_FIXES ?? 1_000_000);
const BATCH = 1000;
const CONCURRENCY = 4;
const here = path.dirname(new URL(import.meta.url).pathname);
const T0 = Date.now() - 400 * 24 * 3600_000;

/** A realistic fix stream: a walk with altitude, speed, course, temperature, voltage, satellites, HDOP, grade. */
function columns(batchNo: number) {
  const t: number[] = [], lon: number[] = [], lat: number[] = [], alt: number[] = [], speed: number[] = [], course: number[] = [];
  const temp: number[] = [], voltage: number[] = [], sats: number[] = [], hdop: number[] = [], grade: number[] = [];
  for (let i = 0; i < BATCH; i++) {
    const k = batchNo * BATCH + i;
    t.push(T0 + k * 30_000);
    lon.push(116.3 + Math.sin(k / 5000) * 2 + (k % 7) * 1e-5);
    lat.push(39.9 + Math.cos(k / 7000) * 1.5 + (k % 5) * 1e-5);
    alt.push(50 + (k % 300));
    speed.push((k % 40) / 2);
    course.push(k % 360);
    temp.push(12 + ((k % 100) - 50) / 10);
    voltage.push(3.7 + (k % 50) / 100);
    sats.push(4 + (k % 9));
    hdop.push(0.8 + (k % 30) / 10);
    grade.push(1 + (k % 7));
  }
  return { t, lon, lat, alt, speed, course, temp, voltage, sats, hdop, grade };
}

const ROUNDS = 10;
const perRound = TOTAL / BATCH / ROUNDS;

/** The ceiling: the same rows by a prepared statement into the same schema, in transactions of BATCH. */
async function openRaw() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-bench-raw-'));
  const db = connect({ sqliteFile: path.join(dir, 'raw.db') });
  await migrateToLatest(db);
  const sqlite = db.sqlite!;
  const stmt = sqlite.prepare(
    `insert or ignore into fixes (device_id, pick_time, lon, lat, alt, speed, course, temperature, activity, voltage, channel, satellites, hdop, vdop, grade, valid, tx_time, received_at, invalid_at, extra)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const now = Date.now();
  return {
    /** Inserts the batches [from, to) and returns the seconds it took. */
    run(from: number, to: number): number {
      const batches = Array.from({ length: to - from }, (_, b) => columns(from + b));
      const start = performance.now();
      for (const c of batches) {
        sqlite.transaction(() => {
          for (let i = 0; i < BATCH; i++) {
            stmt.run(1, c.t[i], c.lon[i], c.lat[i], c.alt[i], c.speed[i], c.course[i], c.temp[i], null, c.voltage[i], null, c.sats[i], c.hdop[i], null, c.grade[i],
              isValidPosition(c.lon[i]!, c.lat[i]!, c.alt[i]) ? 1 : 0, null, now, null, null);
          }
        })();
      }
      return (performance.now() - start) / 1000;
    },
    async close() {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function openApi() {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const info = JSON.parse(await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve))) as {
    port: number; imei: string; secret: string;
  };
  const url = `http://127.0.0.1:${info.port}${INGEST_BASE}/batch`;
  let accepted = 0;
  let bytes = 0;
  let cpuSeconds = 0;
  // The server's own CPU time (user + system) from /proc: on a shared two-core machine the load
  // generator and neighbours take turns with the server, so wall time alone undersells it.
  const cpu = (): number => {
    try {
      const fields = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return NaN;
    }
  };
  return {
    get cpuSeconds() {
      return cpuSeconds;
    },
    get accepted() {
      return accepted;
    },
    get bytes() {
      return bytes;
    },
    /** Sends the batches [from, to), CONCURRENCY at a time, and returns the seconds it took. */
    async run(from: number, to: number): Promise<number> {
      // Bodies and signatures are made before the clock starts: the figure is the server's.
      const requests = Array.from({ length: to - from }, (_, b) => {
        const body = JSON.stringify({ fixes: columns(from + b) });
        bytes += body.length;
        return { body, headers: { 'content-type': 'application/json', ...ingestHeaders({ imei: info.imei, secret: info.secret, path: `${INGEST_BASE}/batch`, body }) } };
      });
      let next = 0;
      const cpu0 = cpu();
      const start = performance.now();
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < requests.length) {
            const r = requests[next++]!;
            const res = await fetch(url, { method: 'POST', headers: r.headers, body: r.body });
            const json = (await res.json()) as { ok: boolean; accepted?: { fixes: number }; reason?: string };
            if (!json.ok) throw new Error(`batch refused: ${json.reason}`);
            accepted += json.accepted!.fixes;
          }
        }),
      );
      const seconds = (performance.now() - start) / 1000;
      cpuSeconds += cpu() - cpu0;
      return seconds;
    },
    async close() {
      await new Promise((r) => {
        child.once('exit', r);
        child.kill('SIGTERM');
      });
    },
  };
}

// Rounds alternate between the ceiling and the API, so both tables grow alike and a busy neighbour on
// this shared machine weighs on both.
const raw = await openRaw();
const api = await openApi();
let rawSeconds = 0;
let apiSeconds = 0;
for (let r = 0; r < ROUNDS; r++) {
  rawSeconds += raw.run(r * perRound, (r + 1) * perRound);
  apiSeconds += await api.run(r * perRound, (r + 1) * perRound);
}
await raw.close();
await api.close();
const rawRate = TOTAL / rawSeconds;
const apiRate = TOTAL / apiSeconds;
const fmt = (n: number) => Math.round(n).toLocaleString('en-US').padStart(10);
console.log(`\nbench/ingest: ${TOTAL.toLocaleString('en-US')} fixes in batches of ${BATCH}, SQLite, ${ROUNDS} alternating rounds, same run`);
console.log(`  raw better-sqlite3 prepared insert  ${fmt(rawRate)} fixes/s   (ceiling)`);
console.log(`  signed ingest API over HTTP         ${fmt(apiRate)} fixes/s   (${CONCURRENCY} requests in flight, ${(api.bytes / TOTAL).toFixed(0)} bytes of JSON per fix, accepted ${api.accepted.toLocaleString('en-US')})`);
console.log(`  ratio                               ${(apiRate / rawRate).toFixed(2)}   (goal >= 0.50)`);
if (Number.isFinite(api.cpuSeconds)) {
  console.log(`  server CPU time                     ${fmt(TOTAL / api.cpuSeconds)} fixes per CPU-second   (ratio to the ceiling ${(TOTAL / api.cpuSeconds / rawRate).toFixed(2)})`);
}
if (api.accepted !== TOTAL) {
  console.error('not every fix was accepted: the figure is not valid');
  process.exit(1);
}
