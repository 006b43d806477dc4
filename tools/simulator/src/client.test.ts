import { IngestHeader, ingestHeaders } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { IngestClient, IngestRefused } from './client.js';
import type { MediaItem } from '@wildtrack/sample-fleet';

const answer = { ok: true, accepted: { fixes: 1, sensors: 0, bursts: 0, media: 0 }, duplicates: 0, instructions: [], serverTime: 1 };
const device = { imei: '864512040001173', secret: 'top-secret' };

function fakeServer(script: (n: number) => Response | Error) {
  const calls: { url: string; headers: Record<string, string>; body: string | Uint8Array }[] = [];
  const f = async (url: string | URL | Request, init?: RequestInit) => {
    const body = init?.body instanceof Blob ? new Uint8Array(await init.body.arrayBuffer()) : String(init?.body);
    calls.push({ url: String(url), headers: init?.headers as Record<string, string>, body });
    const r = script(calls.length);
    if (r instanceof Error) throw r;
    return r;
  };
  return { calls, fetch: f as typeof fetch };
}

/** Signs again with the request's own timestamp and nonce: the signature must come out the same. */
function verify(secret: string, path: string, h: Record<string, string>, body: string | Uint8Array): boolean {
  const again = ingestHeaders({ imei: h[IngestHeader.imei]!, secret, path, body, now: Number(h[IngestHeader.timestamp]), nonce: h[IngestHeader.nonce]! });
  return again[IngestHeader.signature] === h[IngestHeader.signature];
}

describe('IngestClient', () => {
  it('retries network errors and 5xx with a fresh nonce, each attempt signed', async () => {
    const s = fakeServer((n) => (n === 1 ? new TypeError('fetch failed') : n === 2 ? new Response('{}', { status: 503 }) : Response.json(answer)));
    const c = new IngestClient('http://127.0.0.1:9/', device, { fetch: s.fetch, backoffMs: 1 });
    const a = await c.sendBatch({ fixes: { t: [1], lon: [1], lat: [2] } });
    expect(a.accepted.fixes).toBe(1);
    expect(s.calls).toHaveLength(3);
    expect(new Set(s.calls.map((x) => x.headers[IngestHeader.nonce])).size).toBe(3);
    for (const x of s.calls) {
      expect(x.url).toBe('http://127.0.0.1:9/ingest/v1/batch');
      expect(x.headers[IngestHeader.imei]).toBe(device.imei);
      expect(verify(device.secret, '/ingest/v1/batch', x.headers, x.body)).toBe(true);
    }
  });

  it('does not retry a refusal (4xx) and reports its reason', async () => {
    const s = fakeServer(() => Response.json({ ok: false, error: 'bad_signature', reason: 'signature does not match' }, { status: 401 }));
    const c = new IngestClient('http://127.0.0.1:9', device, { fetch: s.fetch, backoffMs: 1 });
    await expect(c.sendBatch({})).rejects.toThrow(IngestRefused);
    expect(s.calls).toHaveLength(1);
  });

  it('uploads media raw with its content type, signing the path with its query', async () => {
    const s = fakeServer(() => Response.json(answer));
    const c = new IngestClient('http://127.0.0.1:9', device, { fetch: s.fetch });
    const item: MediaItem = { kind: 'image', t: 1700000000000, lon: 118.9, lat: 37.7, alt: 3.5, width: 160, height: 120, contentType: 'image/jpeg', body: new Uint8Array([0xff, 0xd8, 0xff, 0xd9]) };
    await c.sendMedia(item);
    const call = s.calls[0]!;
    const path = '/ingest/v1/media?kind=image&t=1700000000000&lon=118.9&lat=37.7&alt=3.5&width=160&height=120';
    expect(call.url).toBe(`http://127.0.0.1:9${path}`);
    expect(call.headers['content-type']).toBe('image/jpeg');
    expect(call.body).toEqual(item.body);
    expect(verify(device.secret, path, call.headers, item.body)).toBe(true);
  });

  it('gives up after the last attempt', async () => {
    const s = fakeServer(() => new TypeError('fetch failed'));
    const c = new IngestClient('http://127.0.0.1:9', device, { fetch: s.fetch, backoffMs: 1, attempts: 3 });
    await expect(c.ack({ id: 1, outcome: 'SUCCESSFUL', executedAt: 1 })).rejects.toThrow(/gave up after 3 attempts/);
  });
});
