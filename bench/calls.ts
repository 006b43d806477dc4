import http from 'node:http';
import zlib from 'node:zlib';
import { API_BASE, type CallDef, LanguageId, prepareCall } from '@wildtrack/contract';
import type { FastifyInstance } from 'fastify';

/** Percentiles of a sorted list of times. */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * A benchmark's signed calls through Fastify's inject (signature, session, validation, query, envelope,
 * JSON), and `measure`: warm-up runs, then `runs` timed ones, printed as p50, p95 and the answer's size.
 */
export function benchCalls(app: FastifyInstance, token: string, runs = 40) {
  const send = async (def: CallDef, body: Record<string, unknown>): Promise<{ data: unknown; bytes: number }> => {
    // Encrypted as the console sends it, and the answer opened (docs/api.md "Encrypted bodies and answers").
    const prepared = prepareCall({ credential: token, path: def.path, body, lcid: LanguageId.en });
    const res = await app.inject({ method: 'POST', url: API_BASE + def.path, headers: prepared.headers, payload: prepared.payload });
    const answer = (await prepared.open(res.body)) as { Code: number; Data: unknown };
    if (answer.Code !== 1000) throw new Error(`${def.path}: ${res.body.slice(0, 200)}`);
    return { data: answer.Data, bytes: res.rawPayload.length };
  };
  const measure = async (name: string, def: CallDef, body: Record<string, unknown>): Promise<{ p50: number; p95: number }> => {
    for (let i = 0; i < 5; i++) await send(def, body);
    const times: number[] = [];
    let bytes = 0;
    for (let i = 0; i < runs; i++) {
      const s = performance.now();
      bytes = (await send(def, body)).bytes;
      times.push(performance.now() - s);
    }
    times.sort((a, b) => a - b);
    const p50 = percentile(times, 50);
    const p95 = percentile(times, 95);
    console.log(`${name.padEnd(52)} p50 ${p50.toFixed(1).padStart(6)} ms  p95 ${p95.toFixed(1).padStart(6)} ms  ${(bytes / 1024).toFixed(1).padStart(6)} kB`);
    return { p50, p95 };
  };
  return { send, measure };
}

/**
 * A signed call over real HTTP to a listening server, as a browser sends it (accepting br and gzip, the
 * body encrypted): the bytes on the wire, the decoded answer's text (its Data still encrypted; `open`
 * opens it) and the time to its last byte.
 */
export function httpCaller(port: number, token: string) {
  return (def: CallDef, text: string): Promise<{ wire: number; text: string; ms: number; open: (text: string) => Promise<{ Code: number; Data: unknown; bytes?: Uint8Array }> }> => {
    const prepared = prepareCall({ credential: token, path: def.path, body: JSON.parse(text) as unknown, lcid: LanguageId.en });
    const headers = prepared.headers;
    const body = prepared.payload;
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const req = http.request(
        { host: '127.0.0.1', port, path: API_BASE + def.path, method: 'POST', headers: { 'content-type': 'application/json', 'accept-encoding': 'gzip, deflate, br', ...headers } },
        (res) => {
          let wire = 0;
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => (wire += c.length));
          const encoding = res.headers['content-encoding'];
          const sink = encoding === 'br' ? res.pipe(zlib.createBrotliDecompress()) : encoding === 'gzip' ? res.pipe(zlib.createGunzip()) : res;
          sink.on('data', (c: Buffer) => chunks.push(c));
          sink.on('end', () => resolve({ wire, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started, open: prepared.open }));
          sink.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  };
}
