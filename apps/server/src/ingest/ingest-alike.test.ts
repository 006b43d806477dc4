import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceType, INGEST_BASE, INGEST_BODY_HASH_HEADER, INGEST_MAX_BATCH_BYTES, INGEST_MAX_MEDIA_BYTES, IngestHeader, ingestHeaders } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';
import { NOW } from '../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../test/clock.js';

/**
 * Issue 26 L2: ingest told registered IMEIs from unknown ones (a media upload with a bad query or a future
 * time: 400 for a registered IMEI, 401 for an unknown one). Every ingest endpoint, every way a request can
 * be wrong without its device's secret: a registered IMEI and an unknown one get the same answer.
 */

const T0 = Date.UTC(2026, 5, 1);
const FUTURE = Date.UTC(2286, 0, 1);

interface Endpoint {
  path: string;
  type: string;
  body: string;
  limit: number;
}

const ENDPOINTS: Endpoint[] = [
  { path: '/batch', type: 'application/json', body: JSON.stringify({ fixes: { t: [T0], lon: [121], lat: [31] } }), limit: INGEST_MAX_BATCH_BYTES },
  { path: `/media?kind=image&t=${T0}`, type: 'image/jpeg', body: '\xff\xd8\xff\xd9', limit: INGEST_MAX_MEDIA_BYTES },
  { path: '/ack', type: 'application/json', body: JSON.stringify({ id: 1, outcome: 'SUCCESSFUL', executedAt: T0 }), limit: INGEST_MAX_BATCH_BYTES },
  { path: '/fence-ack', type: 'application/json', body: JSON.stringify({ fenceId: 1, version: 1 }), limit: INGEST_MAX_BATCH_BYTES },
];

interface Wrong {
  name: string;
  /** Only for these endpoints (all when absent). */
  only?: (e: Endpoint) => boolean;
  path?: (e: Endpoint) => string;
  headers?: (h: Record<string, string>, e: Endpoint) => Record<string, string | undefined>;
  now?: number;
}

const media = (e: Endpoint) => e.path.startsWith('/media');
const WRONGS: Wrong[] = [
  { name: 'the wrong secret' },
  { name: 'no signature', headers: () => ({ [IngestHeader.signature]: undefined }) },
  { name: 'a stale timestamp', now: NOW - 16 * 60_000 },
  { name: 'a short nonce', headers: (h) => ({ [IngestHeader.nonce]: 'short', [IngestHeader.signature]: h[IngestHeader.signature] }) },
  { name: 'a malformed body hash', headers: () => ({ [INGEST_BODY_HASH_HEADER]: 'not-a-hash' }) },
  { name: 'a declared length over the limit', headers: (_h, e) => ({ 'content-length': String(e.limit + 1) }) },
  { name: 'an unknown media kind', only: media, path: () => `/media?kind=smell&t=${T0}` },
  { name: 'a media time more than a day ahead', only: media, path: () => `/media?kind=image&t=${FUTURE}` },
  { name: 'a media query without its time', only: media, path: () => '/media?kind=image' },
];

describe.each(DIALECTS)('ingest answers a registered and an unknown IMEI alike on %s', (dialect) => {
  let t: TestApp;
  const registered = '860000000000301';
  // Signatures' windows and media times are read on the server's clock: fixed at NOW.
  useFixedClock(NOW);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const org = await t.services.users.createUser({ orgName: 'Alike Lab', userName: 'alikelab', password: 'Ciconia-boyc1' }).then(() => t.services.devices.orgIdByName('Alike Lab'));
    await t.services.devices.register({ orgId: org, imei: registered, type: DeviceType.Tracker });
  });
  afterAll(async () => t.close());

  const send = async (imei: string, e: Endpoint, wrong: Wrong, bodyHash: boolean) => {
    const p = INGEST_BASE + (wrong.path?.(e) ?? e.path);
    const signed = ingestHeaders({ imei, secret: 'not-the-secret', path: p, body: e.body, bodyHash, now: wrong.now ?? clockNow() });
    const headers: Record<string, string> = { ...signed, 'content-type': e.type };
    for (const [k, v] of Object.entries(wrong.headers?.(signed, e) ?? {})) {
      if (v === undefined) delete headers[k];
      else headers[k] = v;
    }
    const res = await t.app.inject({ method: 'POST', url: p, headers, payload: headers['content-length'] ? '' : e.body });
    return { status: res.statusCode, body: res.json() as unknown };
  };

  for (const e of ENDPOINTS) {
    for (const wrong of WRONGS.filter((w) => !w.only || w.only(e))) {
      for (const bodyHash of [true, false]) {
        it(`${e.path.split('?')[0]}: ${wrong.name}${bodyHash ? '' : ' (no body hash header)'}`, async () => {
          const known = await send(registered, e, wrong, bodyHash);
          const unknown = await send('869999999999999', e, wrong, bodyHash);
          expect(known.status).toBeGreaterThanOrEqual(400);
          expect(known).toEqual(unknown);
        });
      }
    }
  }
});
