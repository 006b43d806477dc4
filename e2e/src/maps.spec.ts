import { formatTime } from '@wildtrack/contract';
import { IngestClient, imeiWithCheck } from '@wildtrack/simulator';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { animationsSettled, newContext, otherHosts, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * Maps that tell one story (issue 12 item 5), in zh-CN and en-US, with no network beyond the local server:
 * a gull walking the shore of Jiaozhou Bay (Qingdao) for four days, then, three days after the chosen
 * range, one fix 370 km inland. On /map2d its marker and name sit on the last fix of the range (not on
 * the latest fix ever), its popup shows that fix as the server has it, the name moves with the replay,
 * follow keeps the marker in view and fit shows the whole track, the scale bar shows, the layer box says
 * the offline basemap stands in, and the offline basemap's coast is Natural Earth 1:10m (the track lies
 * on it). The device is chosen in the tree's own picker with the tree's search. On /map3d the camera opens
 * over the track with the 1:10m coast drawn over the globe's coarse imagery, the marker's popup is the same card, the globe has a distance legend and no Cesium ion
 * logo. The /track map has the scale bar and the fit button.
 */

const setup = serverAndBrowser();

const GULL = imeiWithCheck('86451204777700');
const CAPTION = 'Gull 10m';
const ZONE = '+08:00';
const HOUR = 3_600_000;

/** Vertices of Natural Earth's 1:10m coast at the mouth of Jiaozhou Bay (world-atlas land-10m), west to east. */
const SHORE: readonly [number, number][] = [
  [120.153002, 36.07701],
  [120.167402, 36.061813],
  [120.171002, 36.046616],
  [120.171002, 36.009467],
  [120.174602, 35.99427],
  [120.185402, 35.984139],
  [120.196202, 35.985827],
  [120.228602, 35.999336],
  [120.228602, 35.972319],
  [120.243002, 35.974007],
  [120.275403, 35.99427],
  [120.279003, 35.997647],
  [120.282603, 36.00609],
  [120.286202, 36.011156],
  [120.297003, 36.002713],
  [120.304203, 35.99427],
  [120.304203, 35.987516],
  [120.304203, 35.980762],
  [120.300603, 35.972319],
  [120.286202, 35.962187],
  [120.243002, 35.953744],
];
/** One fix every 4 hours from the range's start. */
const START = Date.parse('2025-06-01T00:00:00+08:00');
const TIMES = SHORE.map((_, i) => START + i * 4 * HOUR);
const LAST = SHORE.length - 1;
const LAST_VOLTAGE = 3.87;
/** After the range: the latest fix ever, far inland (Shandong's interior). */
const LATER = { t: Date.parse('2025-06-07T12:00:00+08:00'), lon: 116.4, lat: 37.5 };
const RANGE = 'from=2025-06-01T00%3A00%3A00%2B08%3A00&to=2025-06-04T23%3A59%3A59%2B08%3A00';
/** Two devices registered that never sent a fix (issue 12 item 5: /map2d failed on them). */
const QUIET = [
  { imei: imeiWithCheck('86451204777701'), caption: 'Quiet-A' },
  { imei: imeiWithCheck('86451204777702'), caption: 'Quiet-B' },
] as const;

beforeAll(async () => {
  for (const { imei, caption } of QUIET) await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', imei, '--caption', caption, '--sensors', 'GNSS', '--species', 'bird');
  const out = await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', GULL, '--caption', CAPTION, '--sensors', 'GNSS,Temperature', '--species', 'bird');
  const { secret } = JSON.parse(out) as { secret: string };
  const client = new IngestClient(setup.server.baseUrl, { imei: GULL, secret });
  const t = [...TIMES, LATER.t];
  await client.sendBatch({
    fixes: {
      t,
      lon: [...SHORE.map((p) => p[0]), LATER.lon],
      lat: [...SHORE.map((p) => p[1]), LATER.lat],
      alt: t.map(() => 12),
      speed: t.map(() => 3),
      grade: t.map(() => 2),
      sats: t.map(() => 9),
      hdop: t.map(() => 1.1),
      voltage: t.map((_, i) => (i === LAST ? LAST_VOLTAGE : 3.95)),
      tx: t.map((x) => x + 60_000),
    },
  });
});

const cases = [
  {
    locale: 'zh-CN' as const,
    t: { standIn: '离线底图（缺少地图服务密钥）', fit: '显示全部轨迹', follow: '跟随回放标记', stop: '显示完整轨迹', noFixes: '2025-06-01 00:00:00 至 2025-06-04 23:59:59 之间没有定位' },
  },
  {
    locale: 'en-US' as const,
    t: { standIn: 'Offline basemap (no internet)', fit: 'Fit all tracks', follow: 'Follow the markers', stop: 'Show whole tracks', noFixes: 'No fixes between 2025-06-01 00:00:00 and 2025-06-04 23:59:59' },
  },
];

/** expect.poll with room for a busy machine (its default gives up after a second). */
function poll<T>(fn: () => Promise<T> | T, options: { timeout?: number } = {}) {
  return expect.poll(fn, { timeout: 30_000, ...options });
}

type Box = { x: number; y: number; width: number; height: number };

function inside(point: { x: number; y: number }, box: Box): boolean {
  return point.x >= box.x && point.x <= box.x + box.width && point.y >= box.y && point.y <= box.y + box.height;
}

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return box;
}

/** The point a device's marker stands on: its name label hangs 9 px below it, centred. */
async function markerPoint(page: Page): Promise<{ x: number; y: number }> {
  const label = await boxOf(page.locator(`[data-testid="map"] .wt-map-label[data-imei="${GULL}"]`));
  return { x: label.x + label.width / 2, y: label.y - 9 };
}

/** Whether the marker is in the map's view (a marker far outside has no label drawn at all). */
async function markerInView(page: Page, mapBox: Box): Promise<boolean> {
  const label = page.locator(`[data-testid="map"] .wt-map-label[data-imei="${GULL}"]`);
  if ((await label.count()) === 0) return false;
  const box = await label.boundingBox();
  return box !== null && inside({ x: box.x + box.width / 2, y: box.y - 9 }, mapBox);
}

async function mapAtRest(page: Page): Promise<void> {
  await page.locator('[data-testid="map2d"] [data-testid="map"][data-moving="0"]').waitFor();
}

async function legendIndex(page: Page): Promise<number> {
  return Number(await page.locator(`[data-testid="map2d-legend"] .wt-map-legend-row[data-imei="${GULL}"]`).getAttribute('data-index'));
}

/** Clicks the replay slider's rail at a fraction of its length. */
async function seek(page: Page, fraction: number): Promise<void> {
  const box = await boxOf(page.getByTestId('replay').locator('.ant-slider'));
  await page.mouse.click(box.x + box.width * fraction - (fraction === 1 ? 1 : 0), box.y + box.height / 2);
}

/** Opens the marker's popup and answers its card once the fix has been read from the server. */
async function popupCard(page: Page, at: { x: number; y: number }): Promise<Locator> {
  await page.mouse.click(at.x, at.y);
  const card = page.locator(`.wt-fix-popup .wt-fix-card[data-imei="${GULL}"][data-full="1"]`);
  await card.waitFor({ timeout: 20_000 });
  return card;
}

/** Where the keyboard's focus is: the picker's tree, the picker's box, the range, or elsewhere. */
async function focusIn(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el) return 'none';
    if (el.matches('[data-testid="device-picker-tree"] [role="tree"]')) return 'tree';
    if (el.closest('[data-testid="device-picker"]')) return 'box';
    if (el.closest('[data-testid="time-range"]')) return 'range';
    return el.tagName.toLowerCase();
  });
}

/** Presses ArrowDown in the focused tree until its active row names `caption`. */
async function arrowTo(page: Page, tree: Locator, caption: string): Promise<void> {
  for (let i = 0; i < 30; i++) {
    if (((await tree.locator('.ant-tree-treenode-active').textContent()) ?? '').includes(caption)) return;
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`the arrows never reached ${caption}`);
}

describe.each(cases)('devices without fixes, chosen by keyboard ($locale)', ({ locale, t }) => {
  it("the picker's tree by keyboard (one tab stop, arrows, Space and Enter, Esc); /map2d shows the two devices' empty state", async () => {
    // Only the local server answers: every other host fails, as on a field laptop without a network.
    const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
    context.setDefaultTimeout(45_000);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    try {
      await signIn(page, setup.server.baseUrl, setup.server.admin);
      await page.waitForURL(`${setup.server.baseUrl}/device`);
      await page.goto(`${setup.server.baseUrl}/map2d?${RANGE}`);
      await page.locator('[data-testid="map2d"] [data-testid="map"][data-state="ready"]').waitFor({ timeout: 60_000 });
      const picker = page.getByTestId('device-picker');
      const tags = picker.locator('.ant-select-selection-item');
      const tree = page.getByTestId('device-picker-tree');
      const popup = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');

      // ---- typed in the box, the search; ArrowDown moves into the tree ----
      await picker.locator('input').focus();
      await page.keyboard.type('Quiet');
      await poll(() => tree.locator('[data-testid^="tree-device-"]').count()).toBe(2);
      await page.keyboard.press('ArrowDown');
      await poll(() => focusIn(page)).toBe('tree');
      // one tab stop: the tree itself, nothing inside its rows
      const stops = await tree.evaluate((panel) =>
        Array.from(panel.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]'))
          .filter((el) => el.tabIndex >= 0)
          .map((el) => el.getAttribute('role') ?? el.tagName.toLowerCase()),
      );
      expect(stops).toEqual(['tree']);

      // ---- the arrows move, Space checks ----
      await arrowTo(page, tree, QUIET[0].caption);
      await page.keyboard.press('Space');
      await tags.filter({ hasText: QUIET[0].caption }).waitFor();
      expect(await tree.locator('.ant-tree-treenode-active').getAttribute('aria-checked')).toBe('true');

      // ---- a letter goes back to the search; Enter checks ----
      await page.keyboard.type('-B');
      await poll(() => focusIn(page)).toBe('box');
      expect(await picker.locator('input').inputValue()).toBe('Quiet-B');
      await poll(() => tree.locator('[data-testid^="tree-device-"]').count()).toBe(1);
      await page.keyboard.press('ArrowDown');
      await poll(() => focusIn(page)).toBe('tree');
      await arrowTo(page, tree, QUIET[1].caption);
      await page.keyboard.press('Enter');
      await tags.filter({ hasText: QUIET[1].caption }).waitFor();
      await animationsSettled(page);
      await screenshot(page, `maps-${locale}-picker-keyboard`);

      // ---- Esc closes the tree, the box keeps the focus; ArrowDown opens it again, on the tree ----
      await page.keyboard.press('Escape');
      await popup.waitFor({ state: 'hidden' });
      expect(await focusIn(page)).toBe('box');
      await page.keyboard.press('ArrowDown');
      await popup.waitFor();
      await poll(() => focusIn(page)).toBe('tree');
      // ---- the tab order: box, tree, the range (the tree closes when the focus leaves) ----
      await page.keyboard.press('Shift+Tab');
      await poll(() => focusIn(page)).toBe('box');
      for (let i = 0; i < 3 && (await focusIn(page)) !== 'tree'; i++) await page.keyboard.press('Tab');
      expect(await focusIn(page)).toBe('tree');
      await page.keyboard.press('Tab');
      await poll(() => focusIn(page)).toBe('range');
      await popup.waitFor({ state: 'hidden' });
      for (const { caption } of QUIET) expect(await tags.filter({ hasText: caption }).count()).toBe(1);

      // ---- two devices without a fix: no error, the range said empty, each device with 0 fixes ----
      const emptyState = async (): Promise<void> => {
        await page.getByTestId('map2d').and(page.locator('[data-loading="0"]')).waitFor({ timeout: 30_000 });
        await page.getByTestId('map2d-empty').and(page.locator('[data-reason="no-fixes"]')).waitFor();
        expect(await page.getByTestId('map2d-error').count()).toBe(0);
        expect(await page.getByTestId('map2d-empty').textContent()).toContain(t.noFixes);
        const rows = page.getByTestId('map2d-legend').locator('.wt-map-legend-row');
        await poll(() => rows.evaluateAll((list) => list.map((r) => `${r.getAttribute('data-imei')}:${r.getAttribute('data-count')}`))).toEqual(QUIET.map((d) => `${d.imei}:0`));
        // named as in the tree (no last fix to take a caption from)
        expect(await rows.locator('.wt-map-legend-name').allTextContents()).toEqual(QUIET.map((d) => d.caption));
        await poll(() => page.locator('[data-testid="map2d"] [data-testid="map"]').getAttribute('data-positions')).toBe('');
      };
      await poll(() => new URL(page.url()).searchParams.get('devices')).toBe(QUIET.map((d) => d.imei).join(','));
      await emptyState();
      // the same from a link (the page's first load)
      await page.reload();
      await emptyState();
      await screenshot(page, `maps-${locale}-2d-no-fixes`);
      expect(errors.filter((e) => /duplicate|ArrayBuffer/i.test(e))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});

describe.each(cases)('maps that tell one story ($locale)', ({ locale, t }) => {
  it('2D: marker at the range end, moving name, follow and fit, scale bar, stand-in layer, 1:10m coast, tree picker', async () => {
    const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
    // The page's thread is now and then busy for seconds (the screens' code fetched and compiled in
    // advance after sign-in, the globe's 3.8 MB among it): single steps get more time than the default.
    context.setDefaultTimeout(45_000);
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, setup.server.admin);
      await page.waitForURL(`${setup.server.baseUrl}/device`);
      await page.goto(`${setup.server.baseUrl}/map2d?${RANGE}`);
      const map = page.locator('[data-testid="map2d"] [data-testid="map"]');
      await map.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 60_000 });

      // ---- the device picker is the tree: its rows, its search (by IMEI or name) ----
      const picker = page.getByTestId('device-picker');
      await picker.click();
      const tree = page.getByTestId('device-picker-tree');
      await tree.locator('[role="tree"]').waitFor();
      // The tree's search: by the end of the IMEI, only this device is left (its folders opened).
      await picker.locator('input').fill(GULL.slice(-6));
      await poll(() => tree.locator('[data-testid^="tree-device-"]').count()).toBe(1);
      await tree.getByTestId(`tree-device-${GULL}`).waitFor();
      // By its name, in any case.
      await picker.locator('input').fill(CAPTION.slice(0, 4).toLowerCase());
      await tree.getByTestId(`tree-device-${GULL}`).click();
      await picker.locator('.ant-select-selection-item').filter({ hasText: CAPTION }).waitFor();
      await page.keyboard.press('Escape');
      await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor({ state: 'hidden' });

      // ---- the marker and its name on the last fix of the range, as the server has it ----
      await poll(() => map.getAttribute('data-tracks'), { timeout: 60_000 }).toBe(`${GULL}:${SHORE.length}`);
      await page.getByTestId('map2d').and(page.locator('[data-loading="0"]')).waitFor({ timeout: 30_000 });
      await mapAtRest(page);
      const positions = await map.getAttribute('data-positions');
      expect(positions).toBe(`${GULL}@${TIMES[LAST]}:${SHORE[LAST]![0]},${SHORE[LAST]![1]}`);
      expect(positions).not.toContain(String(LATER.lon));
      const card = await popupCard(page, await markerPoint(page));
      const text = (await card.textContent()) ?? '';
      expect(text).toContain(formatTime(TIMES[LAST]!, ZONE));
      expect(text).toContain(`${SHORE[LAST]![0].toFixed(6)}°E ${SHORE[LAST]![1].toFixed(6)}°N`);
      // Read from the server: the voltage is not part of the track.
      expect(text).toContain(`${LAST_VOLTAGE.toFixed(2)} V`);
      expect(text).not.toContain(formatTime(LATER.t, ZONE));
      await screenshot(page, `maps-${locale}-2d-range-end-popup`);
      await page.locator('.wt-fix-popup .maplibregl-popup-close-button').click();

      // ---- a scale bar; the layer box says the offline basemap stands in; the coast is 1:10m ----
      await poll(async () => (await map.locator('.maplibregl-ctrl-scale').textContent()) ?? '').toMatch(/^\d+\s?(m|km)$/);
      await page.getByTestId('base-layer-notice').waitFor({ timeout: 20_000 });
      await poll(async () => (await page.getByTestId('layer-switcher').textContent()) ?? '').toContain(t.standIn);
      await poll(() => map.getAttribute('data-coast'), { timeout: 60_000 }).toBe('10m');
      await mapAtRest(page);
      await screenshot(page, `maps-${locale}-2d-coast-10m`);

      // ---- the replay moves the marker and its name; follow keeps it in view; fit shows everything ----
      const mapBox = await boxOf(map);
      const endPoint = await markerPoint(page);
      const slider = page.getByTestId('replay').getByRole('slider');
      await slider.focus();
      await slider.press('Home');
      await poll(() => legendIndex(page)).toBe(0);
      await poll(() => map.getAttribute('data-positions')).toBe(`${GULL}@${TIMES[0]}:${SHORE[0]![0]},${SHORE[0]![1]}`);
      // The name went with the marker to the first fix.
      await poll(async () => {
        const p = await markerPoint(page);
        return Math.hypot(p.x - endPoint.x, p.y - endPoint.y);
      }).toBeGreaterThan(100);
      const startPoint = await markerPoint(page);
      const early = await popupCard(page, startPoint);
      expect(await early.textContent()).toContain(formatTime(TIMES[0]!, ZONE));
      await page.locator('.wt-fix-popup .maplibregl-popup-close-button').click();

      // Zoomed in far, the replay at the track's start is out of view without follow.
      await slider.press('End');
      await poll(() => legendIndex(page)).toBe(LAST);
      const fittedZoom = Number(await map.getAttribute('data-zoom'));
      // Zoomed in four times on the middle of the track: its start is far out of view.
      for (let i = 0; i < 4; i++) {
        const before = Number(await map.getAttribute('data-zoom'));
        await map.locator('.maplibregl-ctrl-zoom-in').click();
        await poll(async () => Number(await map.getAttribute('data-zoom'))).toBeGreaterThan(before + 0.5);
        await mapAtRest(page);
      }
      const zoomed = Number(await map.getAttribute('data-zoom'));
      expect(zoomed).toBeGreaterThan(fittedZoom + 2);
      await slider.press('Home');
      await poll(() => legendIndex(page)).toBe(0);
      await poll(() => map.getAttribute('data-positions')).toContain(`@${TIMES[0]}:`);
      // Not followed: the marker (and its name) leave the view.
      await poll(() => markerInView(page, mapBox)).toBe(false);

      const follow = map.getByTestId('map-follow');
      expect(await follow.getAttribute('aria-label')).toBe(t.follow);
      await follow.click();
      await poll(() => map.getAttribute('data-follow')).toBe('1');
      expect(await follow.getAttribute('aria-pressed')).toBe('true');
      await poll(() => markerInView(page, mapBox)).toBe(true);
      for (const fraction of [0.25, 0.5, 0.75, 1]) {
        const index = await legendIndex(page);
        await seek(page, fraction);
        await poll(() => legendIndex(page)).toBeGreaterThan(index);
        await mapAtRest(page);
        await poll(() => markerInView(page, mapBox)).toBe(true);
      }
      // Following did not zoom out: it moved the view.
      expect(Number(await map.getAttribute('data-zoom'))).toBeCloseTo(zoomed, 1);
      await screenshot(page, `maps-${locale}-2d-follow`);

      const fit = map.getByTestId('map-fit');
      expect(await fit.getAttribute('aria-label')).toBe(t.fit);
      await fit.click();
      await poll(() => map.getAttribute('data-follow')).toBe('0');
      await mapAtRest(page);
      // Back to the whole track (the first fit came before the replay bar's label settled: a hair apart).
      expect(Math.abs(Number(await map.getAttribute('data-zoom')) - fittedZoom)).toBeLessThan(0.3);
      await page.getByTestId('replay').getByRole('button', { name: t.stop }).click();
      await poll(() => map.getAttribute('data-positions')).toContain(`@${TIMES[LAST]}:`);
      await poll(() => markerInView(page, mapBox)).toBe(true);

    } finally {
      await context.close();
    }
  }, 300_000);

  it('3D: the camera over the track, the 1:10m coast offline, the same popup, a distance legend, follow and fit, no ion logo; /track has the scale bar and fit', async () => {
    const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
    context.setDefaultTimeout(45_000);
    const blocked = otherHosts(context, setup.server.baseUrl);
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, setup.server.admin);
      await page.waitForURL(`${setup.server.baseUrl}/device`);
      await page.goto(`${setup.server.baseUrl}/map3d?devices=${GULL}&${RANGE}`);
      const globe = page.getByTestId('globe');
      await globe.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 90_000 });
      await poll(() => globe.getAttribute('data-tracks-drawn'), { timeout: 90_000 }).toBe('1');

      // ---- the camera opened over the track ----
      await poll(async () => {
          const [lon, lat] = ((await globe.getAttribute('data-center')) ?? '').split(',').map(Number);
          return lon !== undefined && lat !== undefined && lon > 120.0 && lon < 120.5 && lat > 35.8 && lat < 36.2;
        }, { timeout: 30_000 })
        .toBe(true);

      // ---- offline, the coast over the globe's coarse imagery is Natural Earth 1:10m (the track's shore) ----
      await poll(() => globe.getAttribute('data-coast'), { timeout: 60_000 }).toBe('10m');
      await screenshot(page, `maps-${locale}-3d-coast-10m`);

      // ---- a distance legend; no Cesium ion logo (ion is never used) ----
      await poll(async () => (await page.getByTestId('globe-scale').textContent()) ?? '', { timeout: 30_000 }).toMatch(/^\d+\s(m|km)$/);
      expect(await page.locator('.cesium-credit-logoContainer img, img[title="Cesium ion"]').count()).toBe(0);
      await poll(async () => (await page.getByTestId('layer-switcher').textContent()) ?? '').toContain(t.standIn);

      // ---- the marker's popup: the 2D map's card, the last fix of the range as the server has it ----
      const markerAt = async (): Promise<{ x: number; y: number } | null> => {
        const value = (await globe.getAttribute('data-markers-at')) ?? '';
        const m = new RegExp(`${GULL}:(-?\\d+),(-?\\d+)`).exec(value);
        if (!m) return null;
        const box = await boxOf(globe);
        return { x: box.x + Number(m[1]), y: box.y + Number(m[2]) };
      };
      await poll(markerAt, { timeout: 30_000 }).not.toBeNull();
      await page.mouse.click((await markerAt())!.x, (await markerAt())!.y);
      const card = page.locator(`[data-testid="globe-popup"] .wt-fix-card[data-imei="${GULL}"][data-full="1"]`);
      await card.waitFor({ timeout: 30_000 });
      const text = (await card.textContent()) ?? '';
      expect(text).toContain(formatTime(TIMES[LAST]!, ZONE));
      expect(text).toContain(`${LAST_VOLTAGE.toFixed(2)} V`);
      await screenshot(page, `maps-${locale}-3d-popup`);
      await page.getByTestId('globe-popup').getByRole('button').click();

      // ---- follow keeps the marker in view through the replay; fit frames the track again ----
      const box = await boxOf(globe);
      const follow = page.getByTestId('map-follow');
      await follow.click();
      await poll(() => globe.getAttribute('data-follow')).toBe('1');
      const slider = page.getByTestId('replay').getByRole('slider');
      await slider.focus();
      await slider.press('Home');
      await poll(async () => {
        const at = await markerAt();
        return at !== null && inside(at, box);
      }).toBe(true);
      await page.getByTestId('map-fit').click();
      await poll(() => globe.getAttribute('data-follow')).toBe('0');
      expect(await follow.getAttribute('aria-pressed')).toBe('false');
      await screenshot(page, `maps-${locale}-3d-fit`);

      // ---- /track: its map has the scale bar and the fit button (no replay there: no follow) ----
      await page.goto(`${setup.server.baseUrl}/track?device=${GULL}&${RANGE}`);
      const trackMap = page.locator('[data-testid="track-map"] [data-testid="map"]');
      await trackMap.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 60_000 });
      await poll(async () => (await trackMap.locator('.maplibregl-ctrl-scale').textContent()) ?? '').toMatch(/^\d+\s?(m|km)$/);
      await trackMap.getByTestId('map-fit').waitFor();
      expect(await trackMap.getByTestId('map-follow').isHidden()).toBe(true);

      expect(blocked.filter((host) => /(^|\.)cesium\.com$/.test(host))).toEqual([]);
    } finally {
      await context.close();
    }
  }, 400_000);
});
