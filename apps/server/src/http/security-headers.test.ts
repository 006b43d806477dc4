import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TILE_LAYERS } from '@wildtrack/contract';
import { createTestApp, type TestApp } from '../test/helper.js';
import { tileOrigins } from './security-headers.js';

/** The directives of a Content-Security-Policy header, by name. */
function directives(csp: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const part of String(csp ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out[name] = values;
  }
  return out;
}

describe('security headers', () => {
  let t: TestApp;
  const web = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-web-'));

  beforeAll(async () => {
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>v1</title>');
    t = await createTestApp('sqlite', { WEB_DIST: web, TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(web, { recursive: true, force: true });
  });

  it('sends a CSP with no inline script and no framing, nosniff and a referrer policy on the page and the API', async () => {
    for (const url of ['/', '/device', '/prod-api/api/User/Exit']) {
      const res = await t.app.inject({ method: 'GET', url });
      const csp = directives(res.headers['content-security-policy']);
      // no inline script and no JavaScript eval; WebAssembly compilation only (CesiumJS's decoders)
      expect(csp['script-src'], url).toEqual(["'self'", "'wasm-unsafe-eval'"]);
      expect(csp['default-src'], url).toEqual(["'self'"]);
      expect(csp['frame-ancestors'], url).toEqual(["'none'"]);
      expect(csp['object-src'], url).toEqual(["'none'"]);
      expect(csp['worker-src'], url).toEqual(["'self'", 'blob:']);
      // the configured tile hosts and Tianditu, for <img> and fetch()
      for (const origin of ['https://tile.openstreetmap.org', 'https://server.arcgisonline.com', 'https://*.tianditu.gov.cn']) {
        expect(csp['img-src'], url).toContain(origin);
        expect(csp['connect-src'], url).toContain(origin);
      }
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('sends HSTS only on answers that went over TLS', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('takes the tile origins from the configured URL templates', () => {
    expect(tileOrigins(DEFAULT_TILE_LAYERS)).toEqual([
      'https://a.tile.opentopomap.org',
      'https://b.tile.opentopomap.org',
      'https://c.tile.opentopomap.org',
      'https://server.arcgisonline.com',
      'https://tile.openstreetmap.org',
    ]);
    const own = { ...DEFAULT_TILE_LAYERS, Street: { ...DEFAULT_TILE_LAYERS.Street, Tiles: ['http://tiles.station.lan:8080/{z}/{x}/{y}.png'] } };
    expect(tileOrigins(own)).toContain('http://tiles.station.lan:8080');
  });

  it('answers a NUL in the path with a 4xx envelope, not a 500', async () => {
    for (const url of ['/%00', '/device%00', '/prod-api/%00', '/assets/%00.js']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.json(), url).toMatchObject({ Code: expect.any(Number), Msg: expect.any(String) });
    }
  });
});
