// bench/envelope: requests per second of an authenticated, signed no-op call (/api/Auth/Heartbeat) under
// 50 connections, beside a bare Fastify route measured in the same run, and the ratio (goal >= 0.5).
// Server and load generator are separate processes; the generator signs and encrypts every request in both
// runs, so the client does the same work and only the server side differs (the app opens the body and
// encrypts its answer's Data: the field cipher, docs/api.md).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import autocannon from 'autocannon';
import { API_BASE, calls, CIPHER_PREFIX, CipherForm, ENCRYPTED_FIELD, LanguageId, newRequestCode, parseCredential, signedHeaders, signingKey } from '@wildtrack/contract';
import { callKeys, encryptParts } from '../../apps/server/src/http/field-cipher.js';

const CONNECTIONS = 50;
/** The plaintext of an encrypted `{}` body: the JSON form byte, then the JSON. */
const EMPTY_OBJECT = Buffer.from([CipherForm.Json, ...Buffer.from('{}')]);
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const here = path.dirname(new URL(import.meta.url).pathname);

async function startServer(mode: 'bare' | 'app'): Promise<{ child: ChildProcess; port: number; token?: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, 'server.ts'), mode], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    const rl = readline.createInterface({ input: child.stdout! });
    rl.once('line', resolve);
    child.once('exit', (code) => reject(new Error(`${mode} server exited with ${code}`)));
  });
  return { child, ...(JSON.parse(line) as { port: number; token?: string }) };
}

async function load(port: number, url: string, token: string | undefined): Promise<{ rps: number; p99: number; non2xx: number; errors: number; bad: number }> {
  // token is the session credential <SessionId>.<Token>: the key comes from its token part.
  const key = signingKey(token ? parseCredential(token).token : undefined);
  let bad = 0;
  const result = await autocannon({
    url: `http://127.0.0.1:${port}${url}`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [
      {
        method: 'POST',
        // The body encrypted as the console sends it (docs/api.md "Encrypted bodies and answers"), so the
        // app opens it and encrypts its answer; the bare route gets the same bytes and ignores them.
        // The same bytes as the contract's prepareCall, with Node's native cipher (http/field-cipher.ts): noble's
        // costs the generator more than the server's whole answer and would cap both runs alike.
        setupRequest: (req) => {
          const requestCode = newRequestCode();
          const keys = callKeys(key, requestCode);
          const body = JSON.stringify({ [ENCRYPTED_FIELD]: CIPHER_PREFIX + encryptParts(keys.request, keys.aad, [EMPTY_OBJECT]).toString('base64') });
          return { ...req, body, headers: { 'content-type': 'application/json', ...signedHeaders({ token, key, path: calls.Heartbeat.path, body, lcid: LanguageId.en, requestCode }) } };
        },
        onResponse: (_status, resBody) => {
          if (!resBody.includes('"Code":1000')) bad += 1;
        },
      },
    ],
  });
  return { rps: result.requests.average, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, bad };
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const bare = await startServer('bare');
const app = await startServer('app');
const bareRuns: Awaited<ReturnType<typeof load>>[] = [];
const appRuns: Awaited<ReturnType<typeof load>>[] = [];
// Rounds alternate between the two servers, so a noisy neighbour on this shared machine weighs on both.
await load(bare.port, '/bare', 'unused-token'); // warm-up of the generator and both JITs
await load(app.port, API_BASE + calls.Heartbeat.path, app.token);
for (let i = 0; i < ROUNDS; i++) {
  bareRuns.push(await load(bare.port, '/bare', 'unused-token'));
  appRuns.push(await load(app.port, API_BASE + calls.Heartbeat.path, app.token));
}
await stop(bare.child);
await stop(app.child);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const bareRps = median(bareRuns.map((r) => r.rps));
const appRps = median(appRuns.map((r) => r.rps));
const failures = appRuns.reduce((n, r) => n + r.bad + r.non2xx + r.errors, 0);
const fmt = (n: number) => n.toFixed(0).padStart(8);
console.log(`\nbench/envelope: ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${DURATION_S} s, medians`);
console.log(`  bare Fastify route          ${fmt(bareRps)} req/s   p99 ${median(bareRuns.map((r) => r.p99))} ms   rounds: ${bareRuns.map((r) => r.rps.toFixed(0)).join(', ')}`);
console.log(`  signed authenticated no-op  ${fmt(appRps)} req/s   p99 ${median(appRuns.map((r) => r.p99))} ms   rounds: ${appRuns.map((r) => r.rps.toFixed(0)).join(', ')}`);
console.log(`  ratio                       ${(appRps / bareRps).toFixed(2)}   (goal >= 0.50; refused or failed calls: ${failures})`);
if (failures > 0) {
  console.error('some authenticated requests did not succeed: the figure is not valid');
  process.exit(1);
}
