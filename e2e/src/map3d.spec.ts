import { deflateSync } from 'node:zlib';
import { backfill, IngestClient } from '@wildtrack/simulator';
import type { BrowserContext, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chooseBaseLayer, newContext, onScreen, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * The 3D globe (issue 5) in both languages, with no network beyond the local server: CesiumJS draws the
 * bundled Natural Earth II imagery and never asks Cesium's ion service for anything; a stork's spring
 * migration (three flight days up to ~2.3 km, the Bohai coast to the Sanjiang Plain) is drawn at its altitudes,
 * the replay moves its marker, and the globe stops rendering while the page is hidden.
 */

const STORK = '864512049990011';
const CAPTION = 'Stork 3D';
/** Fixed days of the simulated stork (seed below) that hold a migration: the data is the same every run. */
const SEED = 3_141_592;
const FROM = Date.parse('2025-04-24T00:00:00+08:00');
const TO = Date.parse('2025-04-30T00:00:00+08:00');

const setup = serverAndBrowser();

beforeAll(async () => {
  const out = await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', STORK, '--caption', CAPTION, '--sensors', 'GNSS,Temperature', '--species', 'bird');
  const { secret } = JSON.parse(out) as { secret: string };
  const client = new IngestClient(setup.server.baseUrl, { imei: STORK, secret });
  for (const { batch } of backfill('stork', { seed: SEED, start: FROM, end: TO })) {
    if (batch.fixes) await client.sendBatch({ fixes: batch.fixes });
  }
});

const cases = [
  { locale: 'zh-CN' as const, t: { choose: '请在上方选择设备', notice: 'no-key', altitude: '高度', menu: '设备列表', street: '街道图', scaleHint: '按真实比例显示高度' } },
  { locale: 'en-US' as const, t: { choose: 'Choose devices above', notice: 'unreachable', altitude: 'Altitude', menu: 'Device list', street: 'Street', scaleHint: 'Heights at true scale' } },
];

/** A 256-pixel map tile (PNG): pale sand with a darker border, so a screenshot shows where tiles lie. */
function testTile(): Buffer {
  const size = 256;
  const raw = Buffer.alloc((size * 3 + 1) * size);
  for (let y = 0; y < size; y++) {
    raw[y * (size * 3 + 1)] = 0;
    for (let x = 0; x < size; x++) {
      const edge = x < 2 || y < 2 || x >= size - 2 || y >= size - 2;
      raw.set(edge ? [150, 120, 80] : [238, 230, 205], y * (size * 3 + 1) + 1 + x * 3);
    }
  }
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
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}


/** The hosts the context's pages sent requests to, as they are sent. */
function requestedHosts(context: BrowserContext): { requested: string[] } {
  const seen = { requested: [] as string[] };
  context.on('request', (req) => seen.requested.push(new URL(req.url()).host));
  return seen;
}

async function chooseDevice(page: Page): Promise<void> {
  const picker = page.getByTestId('device-picker');
  await picker.click();
  await picker.locator('input').fill(STORK.slice(-4));
  // The picker is the device tree (issue 12 item 5): the searched device's row.
  await page.getByTestId('device-picker-tree').getByTestId(`tree-device-${STORK}`).click();
  await page.keyboard.press('Escape');
}

interface GlobeState {
  state: string;
  imagery: string;
  tiles: string;
  render: string;
  tracks: number;
  tracksDrawn: number;
  points: number;
  markers: number;
  maxHeight: number;
  buildMs: number;
}

async function globeState(page: Page): Promise<GlobeState> {
  return page.getByTestId('globe').evaluate((el) => {
    const d = (el as HTMLElement).dataset;
    return {
      state: d.state ?? '',
      imagery: d.imagery ?? '',
      tiles: d.tiles ?? '',
      render: d.render ?? '',
      tracks: Number(d.tracks ?? 0),
      tracksDrawn: Number(d.tracksDrawn ?? 0),
      points: Number(d.points ?? 0),
      markers: Number(d.markers ?? 0),
      maxHeight: Number(d.maxHeight ?? 0),
      buildMs: Number(d.trackBuildMs ?? -1),
    };
  });
}

async function legendRow(page: Page): Promise<{ index: number; count: number; altitude: number | null }> {
  return page.locator('[data-testid="map3d-legend"] .wt-map-legend-row').first().evaluate((el) => {
    const d = (el as HTMLElement).dataset;
    return { index: Number(d.index), count: Number(d.count), altitude: d.altitude ? Number(d.altitude) : null };
  });
}

const TILE = testTile();

/** Noon of the flight days (25-27 April, spring migration's last leg) and the next as fractions of the replay's span (24-29 April). */
const FLIGHT_NOONS = [0.25, 0.417, 0.583, 0.75];

/** Clicks the replay slider's rail at a fraction of its length. */
async function seek(page: Page, fraction: number): Promise<void> {
  const box = await page.getByTestId('replay').locator('.ant-slider').boundingBox();
  if (!box) throw new Error('no replay slider');
  const before = await page.getByTestId('replay').getAttribute('data-time');
  await page.mouse.click(box.x + box.width * fraction, box.y + box.height / 2);
  await expect.poll(() => page.getByTestId('replay').getAttribute('data-time')).not.toBe(before);
}

/** Rendered and every tile it asked for in: the moment a screenshot shows what the user sees. */
async function settled(page: Page): Promise<void> {
  await expect.poll(async () => (await globeState(page)).tiles, { timeout: 90_000 }).toBe('loaded');
}

describe.each(cases)('3D globe ($locale)', ({ locale, t }) => {
  it('shows the stork flying on the offline globe, replays it, and never calls Cesium ion', async () => {
    // Only the local server answers: every other host fails, as on a field laptop without a network.
    const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
    const net = requestedHosts(context);
    const page = await context.newPage();
    try {
      // The range is the one the position screens share (as if chosen on /track or /map2d), as a link
      // carries it. Signed in from that link itself: /device's tree picks its first device by default and
      // the maps open with the device /device shows (issue 12 item 3), so a visit there first would race
      // this empty start.
      await signIn(page, setup.server.baseUrl, setup.server.admin, '/map3d?from=2025-04-24T00%3A00%3A00%2B08%3A00&to=2025-04-29T23%3A59%3A59%2B08%3A00');
      await onScreen(page, '/map3d');
      const globe = page.getByTestId('globe');
      await globe.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 60_000 });

      // ---- nothing chosen: the Earth from the bundled imagery, and a hint ----
      await page.getByTestId('map3d-empty').and(page.locator('[data-reason="no-devices"]')).getByText(t.choose).waitFor();
      // §2.5's default layer can't be drawn here (zh: no key; en: no network): the offline imagery, and why.
      await page.getByTestId('base-layer-notice').and(page.locator(`[data-notice="${t.notice}"]`)).waitFor({ timeout: 20_000 });
      expect((await globeState(page)).imagery).toBe('offline');
      await settled(page);
      await screenshot(page, `map3d-${locale}-globe`);

      // ---- the stork: its track at its altitudes (birds fly), framed by the camera ----
      await chooseDevice(page);
      await expect.poll(async () => (await globeState(page)).tracksDrawn, { timeout: 60_000 }).toBe(1);
      await page.getByTestId('map3d').and(page.locator('[data-loading="0"]')).waitFor();
      const drawn = await globeState(page);
      expect(drawn.tracks).toBe(1);
      expect(drawn.points).toBeGreaterThan(500);
      // Migration flights of the simulated stork climb above 2 km.
      expect(drawn.maxHeight).toBeGreaterThan(2000);
      expect(drawn.markers).toBe(1);
      expect(drawn.imagery).toBe('offline');
      const row = await legendRow(page);
      expect(row.count).toBe(drawn.points);
      expect(row.index).toBe(row.count - 1);
      await settled(page);
      await screenshot(page, `map3d-${locale}-track`);

      // ---- replay: from the start; then to noon of each flight day until the stork is in the air ----
      const slider = page.getByTestId('replay').getByRole('slider');
      await slider.focus();
      await slider.press('Home');
      await expect.poll(async () => (await legendRow(page)).index).toBe(0);
      let flying = await legendRow(page);
      for (const noon of FLIGHT_NOONS) {
        await seek(page, noon);
        flying = await legendRow(page);
        if ((flying.altitude ?? 0) > 800) break;
      }
      expect(flying.altitude).toBeGreaterThan(800);
      expect(flying.index).toBeGreaterThan(0);
      expect((await globeState(page)).markers).toBe(1);

      // ---- heights exaggerated: the same fixes, drawn again ----
      await page.getByTestId('altitude-scale').getByText(`${t.altitude} ×5`).click();
      await expect.poll(async () => (await globeState(page)).tracksDrawn, { timeout: 60_000 }).toBe(1);
      await page.mouse.move(5, 400);
      await page.getByRole('tooltip').filter({ hasText: t.scaleHint }).waitFor({ state: 'hidden' });
      await settled(page);
      await screenshot(page, `map3d-${locale}-replay-flying`);

      // ---- another page: the globe is kept, paused; back again it renders on ----
      await page.getByRole('menuitem', { name: t.menu }).click();
      await onScreen(page, '/device');
      await expect.poll(async () => (await globeState(page)).render).toBe('paused');
      await page.goBack();
      // The URL carries the devices and range (issue 12's kept context).
      await page.waitForURL((url) => url.pathname === '/map3d');
      await expect.poll(async () => (await globeState(page)).render).toBe('on');
      await expect.poll(async () => (await globeState(page)).tracksDrawn, { timeout: 60_000 }).toBe(1);

      // ---- an online layer whose host answers (here: the test, for OpenStreetMap): drawn over the globe ----
      await context.route(
        (url) => url.host === 'tile.openstreetmap.org',
        (route) => route.fulfill({ status: 200, contentType: 'image/png', headers: { 'access-control-allow-origin': '*' }, body: TILE }),
      );
      await chooseBaseLayer(page, t.street, 'street');
      await expect.poll(async () => (await globeState(page)).imagery, { timeout: 30_000 }).toBe('street');
      await page.getByTestId('base-layer-notice').waitFor({ state: 'detached' });
      await settled(page);
      await screenshot(page, `map3d-${locale}-online-layer`);

      // Nothing ever went to Cesium's servers (ion, assets); the workers and textures came from ours.
      expect(net.requested.filter((host) => /(^|\.)cesium\.com$/.test(host))).toEqual([]);
      expect(net.requested.filter((host) => host === new URL(setup.server.baseUrl).host).length).toBeGreaterThan(0);
    } finally {
      await context.close();
    }
    // A software-rendered globe on a shared two-core machine: minutes, not seconds.
  }, 300_000);
});
