// bench/pg-floor: the least CPU bench/load's mix can cost on PostgreSQL: each call kind's data reads alone, through
// the server's own repositories (Kysely, node-pg, the pool and its prepared statements), with none of the rest of
// a call: no HTTP, no signature, no session or access check, no answer built. The tree counts as free (its device
// list is kept per organisation). What this process and PostgreSQL spend per call is a floor under the server's
// figure in bench/load: with the signed no-op's cost added, it says how many requests a second the machine's cores
// could give at best, whatever the server does around its reads.
//
//   DATABASE_URL=postgres://… npm run bench -- load --dialect postgres --seed-only   (once: the 10M-fix schema)
//   DATABASE_URL=postgres://… npm run bench -- pg-floor
//   BENCH_FLOOR_CALLS=3000 (per kind)  BENCH_FLOOR_CONCURRENCY=25 (calls in flight, as 50 connections over two servers)
import fs from 'node:fs';
import os from 'node:os';
import { connect } from '../../apps/server/src/db/connect.js';
import { DeviceGateRepository } from '../../apps/server/src/modules/device/gate-repository.js';
import { FixRepository } from '../../apps/server/src/modules/fix/repository.js';
import { imeiOf, orgOfDevice } from '../load/seed.js';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('bench/pg-floor needs DATABASE_URL (and the schema bench/load seeds: npm run bench -- load --dialect postgres --seed-only)');
const CALLS = Number(process.env.BENCH_FLOOR_CALLS ?? 3000);
const CONCURRENCY = Number(process.env.BENCH_FLOOR_CONCURRENCY ?? 25);
const DEVICES = 1000;
const ORGS = 5;
const DAY = 86_400_000;

const database = connect({ databaseUrl: url, pgSchema: process.env.BENCH_LOAD_SCHEMA ?? 'bench_load' });
const fixes = new FixRepository(database.db);
const devices = new DeviceGateRepository(database.db);

// Device ids by IMEI, as the access check would find them (the seed registers them in order).
const ids = new Map((await database.db.selectFrom('devices').select(['id', 'imei']).execute()).map((r) => [r.imei, Number(r.id)]));
if (ids.size < DEVICES) throw new Error(`the bench_load schema has ${ids.size} devices, not ${DEVICES}: seed it with bench/load first`);
const deviceId = (d: number) => ids.get(imeiOf(d))!;
const anyDevice = () => deviceId(Math.floor(Math.random() * DEVICES));
const now = Date.now();

/** A device's range of the mix, as FixService.query makes it for an owner (no filters). */
const range = (days: number) => ({ deviceId: anyDevice(), from: now - days * DAY, to: now });
/** storedTracks' request for [from, to] (whole UTC days and the partial days at either end), as FixService makes it. */
const trackRequest = (q: { deviceId: number; from: number; to: number }) => {
  const dayFrom = Math.ceil(q.from / DAY);
  const dayTo = Math.floor((q.to + 1) / DAY) - 1;
  return { deviceId: q.deviceId, dayFrom, dayTo, head: [q.from, dayFrom * DAY - 1] as [number, number], tail: [(dayTo + 1) * DAY, q.to] as [number, number] };
};

// The mix's weights (bench/load MIX), the tree's 120 left out as free; sign-in (1 in 1,000) too.
const kinds: { name: string; weight: number; run: () => Promise<unknown> }[] = [
  { name: 'details', weight: 150, run: () => devices.detailOne(anyDevice()) },
  { name: 'work status', weight: 80, run: () => devices.workStatusDocs([anyDevice()]) },
  { name: 'fix page', weight: 200, run: () => fixes.pageAndCount(range(30), 'pick_time', true, 20, 20 * Math.floor(Math.random() * 5)) },
  { name: 'fix count', weight: 100, run: () => fixes.count(range(30)) },
  {
    name: 'last positions',
    weight: 150,
    run: () => {
      const org = Math.floor(Math.random() * ORGS);
      const mine = Array.from({ length: DEVICES }, (_, d) => d).filter((d) => orgOfDevice(d, ORGS) === org).slice(0, 50);
      return fixes.lastMany(mine.map((d) => ({ deviceId: deviceId(d), notAfter: Number.MAX_SAFE_INTEGER, notBefore: Number.MIN_SAFE_INTEGER })));
    },
  },
  { name: 'track 7 d', weight: 150, run: () => fixes.storedTracks([trackRequest(range(7))]) },
  { name: 'tracks 3 devices 30 d', weight: 49, run: () => fixes.storedTracks([range(30), range(30), range(30)].map(trackRequest)) },
];
const MIX_WEIGHT = 999 + 1; // bench/load's mix: 999 calls of the kinds above and the tree, and one sign-in, per 1,000

/** CPU so far of this process and of every PostgreSQL process on the machine (ms). */
function cpu(): { self: number; postgres: number } {
  const ticks = (stat: string) => {
    const f = stat.split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * 10;
  };
  let postgres = 0;
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (stat.includes('(postgres)')) postgres += ticks(stat);
    } catch {
      // ended meanwhile
    }
  }
  return { self: ticks(fs.readFileSync('/proc/self/stat', 'utf8')), postgres };
}

console.log(`bench/pg-floor: ${CALLS} calls of each kind, ${CONCURRENCY} at a time, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
let weighted = 0;
for (const k of kinds) {
  for (let i = 0; i < 100; i++) await k.run(); // warm: JIT, prepared statements, the pages read
  const before = cpu();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < CALLS) await k.run();
    }),
  );
  const after = cpu();
  const node = (after.self - before.self) / CALLS;
  const pg = (after.postgres - before.postgres) / CALLS;
  weighted += ((node + pg) * k.weight) / MIX_WEIGHT;
  console.log(`  ${k.name.padEnd(24)} ${(node + pg).toFixed(3).padStart(6)} ms a call (reads through the repositories ${node.toFixed(3)}, PostgreSQL ${pg.toFixed(3)})`);
}
console.log(`  the mix's reads, per request (the tree and sign-in free): ${weighted.toFixed(3)} ms`);
console.log(`  with bench/load's signed no-op (server + PostgreSQL + Redis CPU per request) added, 2,000 req/s need about (${weighted.toFixed(2)} + no-op) x 2,000 ms of CPU a second, beside the load generator's`);
await database.close();
