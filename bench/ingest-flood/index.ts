// bench/ingest-flood: the server's memory under a crowd of large uploads (issue 11, M1). 12 parallel
// 32 MiB media uploads from an IMEI that is not registered, then 12 from a registered device with a wrong
// signature, then 12 more of those without x-body-sha256 (the first protocol, checked after the body); the server (bench/ingest/server.ts, its own process) is sampled for RSS every 10 ms and the
// growth over its idle RSS printed for each round. Bodies are made as they are sent (one 64 KiB chunk
// reused), so the client's memory is not in the figure.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import readline from 'node:readline';
import { INGEST_BASE, ingestHeaders } from '@wildtrack/contract';

const PARALLEL = 12;
const SIZE = 32 * 1024 * 1024;
const here = path.dirname(new URL(import.meta.url).pathname);

const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, '..', 'ingest', 'server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
const info = JSON.parse(await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve))) as {
  port: number;
  imei: string;
  secret: string;
};

const rssMiB = (): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

/** One upload; resolves with the status (or the socket error when the server closed it mid-body). */
function upload(imei: string, secret: string, bodyHash: boolean): Promise<{ status: number | string; sent: number }> {
  const p = `${INGEST_BASE}/media?kind=image&t=${Date.now() - 60_000}`;
  const headers = ingestHeaders({ imei, secret, path: p, body: '', bodyHash });
  const chunk = Buffer.alloc(64 * 1024, 0xab);
  return new Promise((resolve) => {
    let sent = 0;
    let status: number | string = 'none';
    const req = http.request({ host: '127.0.0.1', port: info.port, path: p, method: 'POST', headers: { ...headers, 'content-type': 'image/jpeg', 'content-length': SIZE } });
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      res.resume();
      res.on('end', () => resolve({ status, sent }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ status: status === 'none' ? (err.code ?? 'error') : status, sent }));
    const write = () => {
      while (sent < SIZE) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', write);
      }
      req.end();
    };
    write();
  });
}

async function round(name: string, imei: string, secret: string, bodyHash = true): Promise<void> {
  global.gc?.();
  await new Promise((r) => setTimeout(r, 500));
  const idle = rssMiB();
  let peak = idle;
  const timer = setInterval(() => (peak = Math.max(peak, rssMiB())), 10);
  const t0 = performance.now();
  const results = await Promise.all(Array.from({ length: PARALLEL }, () => upload(imei, secret, bodyHash)));
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, rssMiB());
  const statuses = results.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {});
  const sentMiB = results.reduce((n, r) => n + r.sent, 0) / 1024 / 1024;
  console.log(
    `${name}: ${PARALLEL} x ${SIZE / 1024 / 1024} MiB in ${ms.toFixed(0)} ms; answers ${JSON.stringify(statuses)}; ` +
      `server RSS idle ${idle.toFixed(0)} MiB, peak ${peak.toFixed(0)} MiB, growth ${(peak - idle).toFixed(0)} MiB; client wrote ${sentMiB.toFixed(0)} MiB before the server answered or closed`,
  );
}

try {
  await round('unknown IMEI          ', '869999999999999', 'not-a-secret');
  await round('registered, bad secret', info.imei, 'not-the-secret');
  // the first protocol (no x-body-sha256): checked only once the body is in, so these take the unchecked share
  await round('bad secret, no body hash', info.imei, 'not-the-secret', false);
} finally {
  child.kill('SIGTERM');
}
