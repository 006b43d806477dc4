// bench/load (issue 11, item 3): 50 concurrent users in a realistic mix on a database with 1,000 devices and
// 10M fixes; goal >= 2,000 req/s with p99 <= 100 ms, on SQLite and on PostgreSQL, printed beside a signed
// authenticated no-op (Auth/Heartbeat) measured by the same generator in the same run. Then a soak: the mix
// for BENCH_SOAK_MINUTES (10) with the server's RSS sampled every 10 s and the growth over the last half
// printed (goal: flat, <= 5 %), zero errors.
//
// The server is the production build (apps/server/dist/main.js, built here) in its own process; this
// process is the load generator (autocannon), signing every request as the web client does.
//
//   npm run bench -- load                      SQLite, and PostgreSQL too when DATABASE_URL is set
//   npm run bench -- load --dialect sqlite     one dialect
//   npm run bench -- load --seed-only          build the databases (minutes), measure nothing
//   BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the server process; BENCH_SERVER_LOG=<file> keeps its output
//   BENCH_SERVERS=2 (REDIS_URL=…): several server processes on the one database, the connections spread over them
//   BENCH_LOAD_SECONDS=20 BENCH_SOAK_MINUTES=10 BENCH_LOAD_DEVICES=1000 BENCH_LOAD_FIXES=10000 (per device)
// The database is built once per dialect (minutes) under $BENCH_LOAD_DIR (default <tmp>/wildtrack-bench-load)
// and, on PostgreSQL, in the schema bench_load (BENCH_LOAD_SCHEMA); later runs reuse it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { API_BASE, calls } from '@wildtrack/contract';
import { callHeaders, encryptedCall, publicKey, signIn, signInRequest, type Session, type SignInRequest } from './client.js';
import { imeiOf, orgOfDevice, PASSWORD, seed, userName, type LoadParams, type Target } from './seed.js';

const { values } = parseArgs({ options: { dialect: { type: 'string' }, 'seed-only': { type: 'boolean' } } });
const CONNECTIONS = 50;
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 20);
const SOAK_MIN = Number(process.env.BENCH_SOAK_MINUTES ?? 10);
// BENCH_SERVERS=2: that many server processes on the one database (SQLite file in WAL mode, or PostgreSQL schema),
// started one after the other; the generator spreads its connections over them. With REDIS_URL set they share
// live messages, request codes and counters through Redis; without it, request codes and counters are in the database.
const SERVERS = Number(process.env.BENCH_SERVERS ?? 1);
const params: LoadParams = {
  orgs: 5,
  usersPerOrg: 10,
  devices: Number(process.env.BENCH_LOAD_DEVICES ?? 1000),
  fixesPerDevice: Number(process.env.BENCH_LOAD_FIXES ?? 10_000),
  stepMin: 30,
};
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const baseDir = process.env.BENCH_LOAD_DIR ?? path.join(os.tmpdir(), 'wildtrack-bench-load');
const dialects = values.dialect ? [values.dialect] : process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];
for (const d of dialects) if (d !== 'sqlite' && d !== 'postgres') throw new Error(`--dialect sqlite|postgres, not ${d}`);
if (dialects.includes('postgres') && !process.env.DATABASE_URL) throw new Error('--dialect postgres needs DATABASE_URL');

const ZONE_MS = 8 * 3600_000;
const text = (ms: number) => new Date(ms + ZONE_MS).toISOString().slice(0, 19).replace('T', ' ');

// ---- the mix ---------------------------------------------------------------------------------------
/** What a researcher's console asks, weighted as a session spends its calls (per 1,000 requests). */
interface Kind {
  name: string;
  weight: number;
  path: string;
  method?: 'GET';
  /** The JSON body, or for a GET the query string. */
  body: (u: UserState) => string;
}
interface UserState {
  session: Session;
  imeis: string[];
}
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
const now = Date.now();
const MIX: Kind[] = [
  { name: 'tree', weight: 120, path: calls.GetTree.path, body: () => JSON.stringify({ timeZone: '+08:00' }) },
  // The API's one GET: the body's fields go in the query string, signed as part of the path.
  { name: 'details', weight: 150, path: calls.GetDetailByIMEI.path, method: 'GET', body: (u) => `?imei=${pick(u.imeis)}&timeZone=%2B08%3A00` },
  { name: 'work status', weight: 80, path: calls.GetWorkStatus.path, body: (u) => JSON.stringify({ imei: pick(u.imeis) }) },
  {
    name: 'fix page',
    weight: 200,
    path: calls.GetFixListByPage.path,
    body: (u) => JSON.stringify({ imei: pick(u.imeis), startTime: text(now - 30 * 86_400_000), endTime: text(now), currentPage: 1 + Math.floor(Math.random() * 5), pageSize: 20 }),
  },
  {
    name: 'fix count',
    weight: 100,
    path: calls.GetFixCount.path,
    body: (u) => JSON.stringify({ imei: pick(u.imeis), startTime: text(now - 30 * 86_400_000), endTime: text(now) }),
  },
  { name: 'last positions', weight: 150, path: calls.GetLastFixList.path, body: (u) => JSON.stringify({ imeis: u.imeis.slice(0, 50) }) },
  {
    name: 'track 7 d',
    weight: 150,
    path: calls.GetFixList.path,
    body: (u) => JSON.stringify({ imei: pick(u.imeis), startTime: text(now - 7 * 86_400_000), endTime: text(now) }),
  },
  {
    name: 'tracks 3 devices 30 d',
    weight: 49,
    path: calls.GetFixListByImeis.path,
    body: (u) => JSON.stringify({ imeis: [pick(u.imeis), pick(u.imeis), pick(u.imeis)], startTime: text(now - 30 * 86_400_000), endTime: text(now) }),
  },
];
const SIGN_IN_WEIGHT = 1; // one sign-in per 1,000 calls: a user signs in once and works for a while
const TOTAL_WEIGHT = MIX.reduce((n, k) => n + k.weight, 0) + SIGN_IN_WEIGHT;

interface Tally {
  ok: number;
  bad: number;
  example?: string;
  /** Each answer's time (ms, as the generator measured it), for the per-kind p50/p99. */
  ms: number[];
}

// ---- the server --------------------------------------------------------------------------------------
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

async function startServer(t: Target): Promise<{ child: ChildProcess; base: string }> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    WILDTRACK_DATA: t.dataDir,
    WILDTRACK_SAMPLES: 'false',
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(t.dataDir, 'no-web'),
    DATABASE_URL: t.databaseUrl ?? '',
    DATABASE_SCHEMA: t.schema ?? '',
    NODE_ENV: 'production',
    // The 50 users all come from this one address; the per-address sign-in limit is for strangers.
    SIGN_IN_RATE_LIMIT: '0',
  };
  // BENCH_NODE_ARGS, e.g. '--cpu-prof --cpu-prof-dir=/tmp/prof', profiles the server.
  const nodeArgs = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'apps/server', serverOut, 'main.js')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  // BENCH_SERVER_LOG=<file>: the server's output kept (e.g. with BENCH_NODE_ARGS=--trace-gc, the heap after each collection)
  if (process.env.BENCH_SERVER_LOG) child.stdout!.pipe(fs.createWriteStream(process.env.BENCH_SERVER_LOG, { flags: 'a' }));
  await new Promise<void>((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    rl.on('line', (line) => {
      if (line.includes('Wildtrack is running')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

// ---- one measurement -------------------------------------------------------------------------------
interface Measured {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  failures: number;
  /** Of the failures: answers that took longer than autocannon's timeout (10 s), and other connection errors. */
  timeouts: number;
  errors: number;
  tallies: Map<string, Tally>;
}

async function run(base: string | string[], users: UserState[], serverKey: string, mode: 'noop' | 'mix', seconds: number): Promise<Measured> {
  let nextUser = 0;
  const tallies = new Map<string, Tally>();
  const count = (name: string, ok: boolean, body: string) => {
    const t = tallies.get(name) ?? { ok: 0, bad: 0, ms: [] };
    if (ok) t.ok += 1;
    else {
      t.bad += 1;
      t.example ??= body.slice(0, 300);
    }
    tallies.set(name, t);
  };
  interface Ctx {
    user?: UserState;
    kind?: string;
    signIn?: SignInRequest;
  }
  // onResponse (which knows the call's kind) runs just before the tracker's 'response' (which knows its
  // time), synchronously for the same answer: the kind is handed over between the two.
  let answered: Tally | undefined;
  let instance: autocannon.Instance | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon(
      {
        // autocannon takes several servers (its types say one) and spreads the connections over them
        url: base as string,
        connections: CONNECTIONS,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            setupRequest: (req, context) => {
              const ctx = context as Ctx;
              ctx.user ??= users[nextUser++ % users.length]!;
              const u = ctx.user;
              if (mode === 'noop') {
                ctx.kind = 'no-op';
                return { ...req, method: 'POST', path: API_BASE + calls.Heartbeat.path, body: '{}', headers: callHeaders(u.session, calls.Heartbeat.path, '{}') };
              }
              let r = Math.random() * TOTAL_WEIGHT;
              if (r < SIGN_IN_WEIGHT) {
                ctx.kind = 'sign-in';
                ctx.signIn = signInRequest(serverKey, u.session.account, PASSWORD);
                return { ...req, method: 'POST', path: API_BASE + calls.PasswordLogin.path, body: ctx.signIn.body, headers: ctx.signIn.headers };
              }
              r -= SIGN_IN_WEIGHT;
              let kind = MIX[0]!;
              for (const k of MIX) {
                if (r < k.weight) {
                  kind = k;
                  break;
                }
                r -= k.weight;
              }
              ctx.kind = kind.name;
              const body = kind.body(u);
              const out = encryptedCall(u.session, kind.path, body, kind.method === 'GET' ? 'GET' : 'POST');
              return { ...req, method: kind.method === 'GET' ? 'GET' : 'POST', path: API_BASE + out.path, body: out.body, headers: out.headers };
            },
            onResponse: (status, body, context) => {
              const ctx = context as Ctx;
              const ok = status === 200 && body.includes('"Code":1000');
              count(ctx.kind ?? '?', ok, body);
              answered = tallies.get(ctx.kind ?? '?');
              if (ok && ctx.kind === 'sign-in' && ctx.user && ctx.signIn) {
                // The user goes on with the new session, as the browser does after signing in again.
                const s = ctx.signIn.session(body);
                if (s) ctx.user.session = s;
              }
            },
          },
        ],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
  instance!.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    answered?.ms.push(ms);
    answered = undefined;
  });
  const result = await done;
  // autocannon counts a timeout as an error too
  const failures = [...tallies.values()].reduce((n, t) => n + t.bad, 0) + result.errors;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.total, failures, timeouts: result.timeouts, errors: result.errors - result.timeouts, tallies };
}

function printMeasured(label: string, m: Measured): void {
  console.log(`  ${label.padEnd(28)} ${m.rps.toFixed(0).padStart(7)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(m.p99).padStart(4)} ms   failures ${m.failures}${m.failures ? ` (timeouts ${m.timeouts}, other connection errors ${m.errors})` : ''}`);
}

function quantile(sorted: number[], q: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Per call kind: how many, p50 and p99 of its answers' times, and the share of the server's time it took. */
function printTallies(m: Measured): void {
  const total = [...m.tallies.values()].reduce((n, t) => n + t.ms.reduce((a, b) => a + b, 0), 0) || 1;
  for (const [name, t] of [...m.tallies].sort((a, b) => b[1].ok - a[1].ok)) {
    const ms = [...t.ms].sort((a, b) => a - b);
    const sum = ms.reduce((a, b) => a + b, 0);
    const figures = `p50 ${quantile(ms, 0.5).toFixed(1).padStart(6)} ms  p99 ${quantile(ms, 0.99).toFixed(1).padStart(7)} ms  ${((sum / total) * 100).toFixed(1).padStart(5)} % of time`;
    console.log(`      ${name.padEnd(24)} ${String(t.ok + t.bad).padStart(8)} calls  ${figures}${t.bad ? `, ${t.bad} failed, e.g. ${t.example}` : ''}`);
  }
}

// ---- CPU per call kind --------------------------------------------------------------------------
/** The server process's CPU time so far (user + system, all its threads), in ms, from /proc. */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command's closing parenthesis; in clock ticks (100/s)
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** The server processes' CPU time so far, together. */
function serversCpu(pids: number[]): number {
  return pids.reduce((n, pid) => n + cpuMs(pid), 0);
}

/** The server processes' system (kernel) CPU time so far, together, in ms: sockets' sends and receives are most of it. */
function serversSysCpu(pids: number[]): number {
  return pids.reduce((n, pid) => n + Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[12]) * 10, 0);
}

/** CPU time so far of each PostgreSQL process on this machine (the server's queries run in them), in ms by pid. */
function postgresCpu(): Map<string, number> {
  return processesCpu('postgres');
}

/** CPU time so far of each process of this command name on this machine, in ms by pid. */
function processesCpu(command: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes(`(${command})`)) continue;
      const fields = stat.split(') ')[1]!.split(' ');
      out.set(pid, (Number(fields[11]) + Number(fields[12])) * 10);
    } catch {
      // the process ended meanwhile
    }
  }
  return out;
}

/** CPU the PostgreSQL processes used since `before` (those that ended meanwhile are not counted). */
function postgresCpuSince(before: Map<string, number>): number {
  return cpuSince(postgresCpu(), before);
}

function cpuSince(now: Map<string, number>, before: Map<string, number>): number {
  let total = 0;
  for (const [pid, ms] of now) total += ms - (before.get(pid) ?? 0);
  return total;
}

/**
 * Each kind of call alone: BENCH_PER_CALL (600) calls of it in 3 rounds, 4 at a time, and the server's CPU time they
 * cost, per call. Wall-clock rates on a shared machine move with everything else running; the server's
 * own CPU per call does not, and it says which calls limit the mix (at 2,000 req/s on one core a call
 * may cost 0.5 ms on average).
 */
async function cpuPerKind(base: string, pids: number[], users: UserState[], serverKey: string, postgres: boolean): Promise<{ name: string; ms: number; pgMs: number; failed: number; kB: number }[]> {
  const n = Number(process.env.BENCH_PER_CALL ?? 600);
  type Send = (u: UserState) => Promise<boolean>;
  // As autocannon sends them in the mix: without accept-encoding (fetch would ask for gzip), so uncompressed.
  const send = async (path: string, init: RequestInit): Promise<boolean> => {
    const res = await fetch(base + API_BASE + path, { ...init, headers: { ...(init.headers as Record<string, string>), 'accept-encoding': 'identity' } });
    const text = await res.text();
    bytes += text.length;
    return res.status === 200 && text.includes('"Code":1000');
  };
  let bytes = 0;
  const kinds: { name: string; send: Send; count?: number }[] = [
    { name: 'no-op', send: (u) => send(calls.Heartbeat.path, { method: 'POST', body: '{}', headers: callHeaders(u.session, calls.Heartbeat.path, '{}') }) },
    ...MIX.map((k) => ({
      name: k.name,
      send: (u: UserState) => {
        const body = k.body(u);
        const out = encryptedCall(u.session, k.path, body, k.method === 'GET' ? 'GET' : 'POST');
        return k.method === 'GET' ? send(out.path, { method: 'GET', headers: out.headers }) : send(out.path, { method: 'POST', body: out.body!, headers: out.headers });
      },
    })),
    {
      name: 'sign-in',
      count: Math.min(n, 30),
      send: async (u) => {
        const r = signInRequest(serverKey, u.session.account, PASSWORD);
        const res = await fetch(base + API_BASE + calls.PasswordLogin.path, { method: 'POST', body: r.body, headers: r.headers });
        return r.session(await res.text()) !== null;
      },
    },
  ];
  // BENCH_PER_CALL_KINDS='no-op,tree': only these (to profile one kind with BENCH_NODE_ARGS)
  const only = process.env.BENCH_PER_CALL_KINDS?.split(',');
  const chosen = kinds.filter((x) => !only || only.includes(x.name));
  const out = chosen.map((k) => ({ name: k.name, ms: Number.POSITIVE_INFINITY, pgMs: 0, failed: 0, kB: 0 }));
  for (const k of chosen) for (let i = 0; i < 20; i++) await k.send(users[i % users.length]!); // warm: JIT, the pages it reads
  // Three rounds over the kinds, each kind's least CPU per call kept: other work on the machine only
  // ever adds to a round's figure (caches shared, cores busy).
  for (let round = 0; round < 3; round++) {
    for (const [j, k] of chosen.entries()) {
      const count = Math.ceil((k.count ?? n) / 3);
      let next = 0;
      let failed = 0;
      bytes = 0;
      const before = serversCpu(pids);
      const pgBefore = postgres ? postgresCpu() : new Map<string, number>();
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          while (next < count) {
            const i = next++;
            if (!(await k.send(users[i % users.length]!))) failed += 1;
          }
        }),
      );
      const pg = postgres ? postgresCpuSince(pgBefore) : 0;
      const ms = (serversCpu(pids) - before + pg) / count;
      // the round kept is the least in all; PostgreSQL's part of that round printed beside it
      if (ms < out[j]!.ms) Object.assign(out[j]!, { ms, pgMs: pg / count });
      out[j]!.failed += failed;
      out[j]!.kB = bytes / count / 1000;
    }
  }
  return out;
}

/** Least-squares slope of y over x. */
function slope(xs: number[], ys: number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my);
    den += (xs[i]! - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

// ---- main ------------------------------------------------------------------------------------------
// SERVER_OUTDIR (e.g. dist-mine): a private build beside apps/server/dist, as build.mjs and the e2e harness take it.
const serverOut = process.env.SERVER_OUTDIR ?? 'dist';
console.log(process.env.BENCH_NO_BUILD ? `the server: apps/server/${serverOut}` : `building the server (apps/server/${serverOut})…`);
// BENCH_NO_BUILD=1: the build in SERVER_OUTDIR as it is (e.g. one of an earlier commit, to compare with)
if (!process.env.BENCH_NO_BUILD) {
  const build = spawnSync('npm', ['run', 'build', '-w', '@wildtrack/server'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

let failed = false;
for (const dialect of dialects) {
  const target: Target = {
    dataDir: path.join(baseDir, dialect),
    databaseUrl: dialect === 'postgres' ? process.env.DATABASE_URL : undefined,
    schema: dialect === 'postgres' ? (process.env.BENCH_LOAD_SCHEMA ?? 'bench_load') : undefined,
  };
  console.log(`\n[${dialect}] database: ${params.devices.toLocaleString('en-US')} devices × ${params.fixesPerDevice.toLocaleString('en-US')} fixes, ${params.orgs * params.usersPerOrg} users`);
  const seeded = await seed(target, params, (line) => console.log(line));
  console.log(seeded ? `  built in ${(seeded / 1000).toFixed(0)} s` : '  kept from an earlier run');
  if (values['seed-only']) continue;

  // One after the other: each migrates the database at start.
  const servers: { child: ChildProcess; base: string }[] = [];
  for (let i = 0; i < SERVERS; i++) servers.push(await startServer(target));
  const server = servers[0]!;
  const bases = servers.map((s) => s.base);
  const pids = servers.map((s) => s.child.pid!);
  const stopAll = () => Promise.all(servers.map((s) => stop(s.child)));
  if (SERVERS > 1) console.log(`  ${SERVERS} server processes on the one database${process.env.REDIS_URL ? `, Redis ${process.env.REDIS_URL}` : ', no Redis'}`);
  const serverKey = await publicKey(server.base);
  const users: UserState[] = [];
  for (let o = 0; o < params.orgs; o++) {
    const imeis: string[] = [];
    for (let d = 0; d < params.devices; d++) if (orgOfDevice(d, params.orgs) === o) imeis.push(imeiOf(d));
    for (let u = 0; u < params.usersPerOrg; u++) users.push({ session: await signIn(server.base, serverKey, userName(o, u), PASSWORD), imeis });
  }
  // Interleave organisations so that the 50 connections spread over all of them.
  users.sort((a, b) => a.session.account.localeCompare(b.session.account, 'en', { numeric: true }));

  // warm-up: JIT, caches, the database's pages (BENCH_PER_CALL_ONLY: each kind warms itself, so that a profile holds only the kinds asked for)
  if (!process.env.BENCH_PER_CALL_ONLY) await run(bases, users, serverKey, 'mix', 5);
  // On PostgreSQL the database's processes are counted too (all of them on this machine: other work on it, tests of
  // other checkouts, adds to the figure).
  const perKind = await cpuPerKind(server.base, pids, users, serverKey, dialect === 'postgres');
  const mixWeight = MIX.reduce((a, k) => a + k.weight, 0) + SIGN_IN_WEIGHT;
  const weightOf = (name: string) => (name === 'sign-in' ? SIGN_IN_WEIGHT : (MIX.find((k) => k.name === name)?.weight ?? 0));
  const mixMs = perKind.reduce((a, k) => a + (k.ms * weightOf(k.name)) / mixWeight, 0);
  console.log(`\n  server${dialect === 'postgres' ? ' + PostgreSQL' : ''} CPU per call [${dialect}] (ms, the least of 3 rounds of ${Math.ceil(Number(process.env.BENCH_PER_CALL ?? 600) / 3)} calls, 4 at a time; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}):`);
  for (const k of perKind) {
    const share = weightOf(k.name) ? `  ${((k.ms * weightOf(k.name)) / mixWeight / mixMs * 100).toFixed(1).padStart(5)} % of the mix's CPU` : '';
    const pgPart = dialect === 'postgres' ? ` (PostgreSQL ${k.pgMs.toFixed(2)})` : '';
    console.log(`      ${k.name.padEnd(24)} ${k.ms.toFixed(2).padStart(7)} ms${pgPart} ${k.kB.toFixed(1).padStart(6)} kB${share}${k.failed ? `, ${k.failed} failed` : ''}`);
  }
  console.log(`      ${'the mix (weighted)'.padEnd(24)} ${mixMs.toFixed(2).padStart(7)} ms: at most ${(1000 / mixMs).toFixed(0)} req/s per core of the server`);
  if (process.env.BENCH_PER_CALL_ONLY) {
    await stopAll();
    continue;
  }
  // The servers' CPU over each run (and PostgreSQL's): per request at 50 connections, where the request
  // codes' group commit and the event loop's batching make a call cheaper than one at a time.
  const measured = async (mode: 'noop' | 'mix') => {
    const cpu0 = serversCpu(pids);
    const sys0 = serversSysCpu(pids);
    const pg0 = dialect === 'postgres' ? postgresCpu() : new Map<string, number>();
    // Redis (when the servers use it) serves request codes, counters and the live bus: its CPU is the servers' too
    // (every redis-server on this machine: other work on it adds to the figure).
    const redis0 = process.env.REDIS_URL ? processesCpu('redis-server') : new Map<string, number>();
    const wall0 = performance.now();
    const m = await run(bases, users, serverKey, mode, SECONDS);
    const redis = process.env.REDIS_URL ? cpuSince(processesCpu('redis-server'), redis0) : 0;
    const pg = dialect === 'postgres' ? postgresCpuSince(pg0) : 0;
    const cpu = serversCpu(pids) - cpu0 + pg + redis;
    const requests = Math.max(1, m.requests);
    return { m, cpuPerRequest: cpu / requests, serverSysPerRequest: (serversSysCpu(pids) - sys0) / requests, redisPerRequest: redis / requests, pgPerRequest: pg / requests, cores: cpu / (performance.now() - wall0) };
  };
  const noopRun = await measured('noop');
  const mixRun = await measured('mix');
  const [noop, mix] = [noopRun.m, mixRun.m];
  console.log(`\nbench/load [${dialect}]: ${CONNECTIONS} connections, ${SECONDS} s each, ${SERVERS} server process${SERVERS > 1 ? 'es' : ''} ${bases.join(' ')}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  printMeasured('signed no-op (Heartbeat)', noop);
  printMeasured('researchers\' mix', mix);
  for (const [label, r] of [['no-op', noopRun], ['mix', mixRun]] as const) {
    const parts = [`server in the kernel ${r.serverSysPerRequest.toFixed(3)}`, ...(dialect === 'postgres' ? [`PostgreSQL ${r.pgPerRequest.toFixed(3)}`] : []), ...(process.env.REDIS_URL ? [`Redis ${r.redisPerRequest.toFixed(3)}`] : [])];
    const redis = parts.length ? ` (${parts.join(', ')} ms of it)` : '';
    console.log(`    server${dialect === 'postgres' ? ' + PostgreSQL' : ''}${process.env.REDIS_URL ? ' + Redis' : ''} CPU during the ${label}: ${r.cpuPerRequest.toFixed(2)} ms per request${redis}, ${r.cores.toFixed(2)} cores busy`);
  }
  printTallies(mix);
  const meets = mix.rps >= 2000 && mix.p99 <= 100;
  console.log(`  goal >= 2,000 req/s with p99 <= 100 ms: ${meets ? 'met' : 'NOT met'}; mix / no-op = ${(mix.rps / noop.rps).toFixed(2)}`);
  if (noop.failures + mix.failures > 0) failed = true;

  if (SOAK_MIN > 0) {
    // With several servers, their RSS together.
    const rss = () => pids.reduce((n, pid) => n + rssMiB(pid), 0);
    const samples: { t: number; rss: number }[] = [];
    const started = Date.now();
    samples.push({ t: 0, rss: rss() });
    const timer = setInterval(() => samples.push({ t: (Date.now() - started) / 1000, rss: rss() }), 10_000);
    const soak = await run(bases, users, serverKey, 'mix', SOAK_MIN * 60);
    clearInterval(timer);
    samples.push({ t: (Date.now() - started) / 1000, rss: rss() });
    const half = samples.filter((s) => s.t >= (SOAK_MIN * 60) / 2);
    const k = slope(half.map((s) => s.t), half.map((s) => s.rss)); // MiB per second
    const first = half[0]!.rss;
    const growth = (half[half.length - 1]!.rss - first) / first;
    console.log(`\n  soak [${dialect}]: ${SOAK_MIN} min of the mix`);
    printMeasured('mix over the soak', soak);
    console.log(`    RSS every 10 s (MiB): ${samples.map((s) => s.rss.toFixed(0)).join(' ')}`);
    console.log(`    last ${(SOAK_MIN / 2).toFixed(1)} min: slope ${(k * 60).toFixed(2)} MiB/min, growth ${(growth * 100).toFixed(1)} % (goal <= 5 %), errors ${soak.failures}`);
    // A sample swings by what is in flight when it is taken (each sign-in's argon2id holds 64 MiB while it
    // hashes, the heap between two collections): the least RSS of each minute is what stays.
    const floors: number[] = [];
    for (const s of samples) {
      const minute = Math.min(SOAK_MIN - 1, Math.floor(s.t / 60));
      floors[minute] = Math.min(floors[minute] ?? Number.POSITIVE_INFINITY, s.rss);
    }
    const lastHalf = floors.slice(Math.floor(SOAK_MIN / 2));
    const floorGrowth = lastHalf.length > 1 ? (lastHalf[lastHalf.length - 1]! - lastHalf[0]!) / lastHalf[0]! : 0;
    console.log(`    least RSS of each minute (MiB): ${floors.map((f) => f.toFixed(0)).join(' ')}; over the last ${(SOAK_MIN / 2).toFixed(1)} min ${(floorGrowth * 100).toFixed(1)} %`);
    if (soak.failures > 0) {
      printTallies(soak);
      failed = true;
    }
  }
  await stopAll();
}
if (failed) {
  console.error('\nsome calls failed: the figures are not valid');
  process.exit(1);
}
