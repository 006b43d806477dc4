import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Code } from '@wildtrack/contract';
import { createTestApp, type TestApp } from '../test/helper.js';

describe('serving the built console', () => {
  let t: TestApp;
  const web = fs.mkdtempSync(path.join(os.tmpdir(), 'wildtrack-web-'));

  beforeAll(async () => {
    fs.mkdirSync(path.join(web, 'assets'));
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>v1</title>');
    fs.writeFileSync(path.join(web, 'assets', 'app-1234.js'), 'console.log(1)');
    fs.writeFileSync(path.join(web, 'favicon.svg'), '<svg/>');
    t = await createTestApp('sqlite', { WEB_DIST: web });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(web, { recursive: true, force: true });
  });

  it('serves the page for client routes, assets with long caching, and nothing outside the folder', async () => {
    for (const url of ['/', '/device', '/login?redirect=%2Fdevice']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<title>v1</title>');
    }
    const malformed = await t.app.inject({ method: 'GET', url: '/%E0%A4%A' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ Code: Code.Invalid, Msg: 'The address is not a valid URL', Data: null });
    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(asset.body).toBe('console.log(1)');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await t.app.inject({ method: 'GET', url: '/favicon.svg' })).body).toBe('<svg/>');
    const escape = await t.app.inject({ method: 'GET', url: '/..%2f..%2fetc%2fpasswd' });
    expect(escape.body).not.toContain('root:');
    for (const url of ['/assets/app-9999.js', '/cesium/Workers/missing.js', '/cesium/Assets/Textures/NaturalEarthII/9/0/0.jpg']) {
      const missing = await t.app.inject({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.body, url).not.toContain('<title>');
    }
    const api = await t.app.inject({ method: 'GET', url: '/prod-api/api/User/Exit' });
    expect(api.statusCode).toBe(404);
    expect(api.json().Code).toBe(Code.UnknownPath);
  });

  it('picks up a rebuilt client without a restart', async () => {
    const before = fs.statSync(path.join(web, 'index.html')).mtimeMs;
    fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>v2</title>');
    // a file time surely not the one the server read (a write within the same tick of a coarse file clock keeps it)
    const later = new Date(before + 5000);
    fs.utimesSync(path.join(web, 'index.html'), later, later);
    expect((await t.app.inject({ method: 'GET', url: '/device' })).body).toContain('<title>v2</title>');
  });
});
