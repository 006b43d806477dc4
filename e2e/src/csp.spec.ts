import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { chooseBaseLayer, newContext, serverAndBrowser, signIn } from './harness';

/**
 * The console under its Content-Security-Policy (issue 11, M5): signing in, the device page, the 2D map
 * with an online tile layer and the 3D globe (CesiumJS workers, MapLibre's blob: worker, tiles as blob:
 * images) run without a single policy violation. Tile hosts answer from the test.
 */

const setup = serverAndBrowser();

/** A 1-pixel PNG tile. */
function tile(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer): number => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer): Buffer => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'ascii');
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc(Buffer.concat([head.subarray(4), data])), 0);
    return Buffer.concat([head, data, tail]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0);
  ihdr.writeUInt32BE(1, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from([0, 200, 190, 160]))), chunk('IEND', Buffer.alloc(0))]);
}


describe('content security policy', () => {
  it('lets the console, the 2D map and the 3D globe run with no violation', async () => {
    const context = await newContext(setup.browser, 'en-US');
    const violations: string[] = [];
    // Before any page script: every violation the document (or a worker it made) reports.
    await context.exposeFunction('__cspViolation', (text: string) => violations.push(text));
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => {
        void (window as unknown as { __cspViolation: (t: string) => void }).__cspViolation(`${e.effectiveDirective} ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`);
      });
    });
    const base = setup.server.baseUrl;
    const png = tile();
    await context.route(
      (url) => !url.href.startsWith(base),
      (route) => {
        const host = new URL(route.request().url()).host;
        if (host === 'tile.openstreetmap.org') return route.fulfill({ status: 200, contentType: 'image/png', headers: { 'access-control-allow-origin': '*' }, body: png });
        return route.abort('internetdisconnected');
      },
    );
    const page = await context.newPage();
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    try {
      const login = await page.goto(`${base}/login`);
      expect(login?.headers()['content-security-policy']).toContain("script-src 'self'");
      await signIn(page, base, setup.server.admin);
      await page.waitForURL(`${base}/device`);

      await page.goto(`${base}/map2d`);
      await page.getByTestId('map').and(page.locator('[data-state="ready"]')).waitFor({ timeout: 30_000 });
      // the default layer (satellite) has no network here: the offline basemap and its notice first
      await page.getByTestId('base-layer-notice').and(page.locator('[data-notice="unreachable"]')).waitFor({ timeout: 30_000 });
      await chooseBaseLayer(page, 'Street', 'street');
      await page.getByTestId('base-layer-notice').waitFor({ state: 'detached', timeout: 30_000 });

      await page.goto(`${base}/map3d`);
      const globe = page.getByTestId('globe');
      await globe.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 90_000 });
      // the layer chosen on the 2D map is kept: the globe draws the street tiles too
      await expect.poll(async () => globe.getAttribute('data-imagery'), { timeout: 60_000 }).toBe('street');
      await expect.poll(async () => globe.getAttribute('data-tiles'), { timeout: 120_000 }).toBe('loaded');
      expect(violations).toEqual([]);
    } finally {
      await context.close();
    }
  }, 300_000);
});
