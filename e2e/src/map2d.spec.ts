import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chooseBaseLayer, newContext, onScreen, otherHosts, screenshot, serverAndBrowser, signIn } from './harness';
import { imeiWithCheck } from '@wildtrack/simulator';
import { pixelsOfColour } from './perf';

/**
 * The 2D map (issue 5) in both languages, with no network beyond the local server: the chosen tile
 * layer can't load, so the offline basemap shows with a notice; layers are switched; two sample devices
 * (a stork reporting every 10 minutes, a deer every 30) are replayed and both markers follow one clock.
 */

const setup = serverAndBrowser();

/** The sample fleet's stork and deer (tools/simulator fleet.ts). */
const STORK = '864512040001173';
const DEER = '864512040002254';
/** Three more, a few hundred kilometres apart in north-east China: one cluster at world zoom. */
const CROWD = ['86451204000333', '86451204000559', '86451204000667'].map(imeiWithCheck);

const cases = [
  {
    locale: 'zh-CN' as const,
    t: {
      // §2.5: a zh-CN browser starts on the national vector layer, which needs the user's key.
      defaultLayer: 'tdt-vector',
      defaultNotice: 'no-key',
      noKey: '天地图图层需要地图服务密钥',
      unreachable: '地图瓦片无法加载',
      street: '街道图',
      offline: '离线底图',
      choose: '请在上方选择设备',
      play: '播放',
      stop: '显示完整轨迹',
    },
  },
  {
    locale: 'en-US' as const,
    t: {
      defaultLayer: 'satellite',
      defaultNotice: 'unreachable',
      noKey: 'Tianditu layers need a map-service key',
      unreachable: 'Map tiles could not be loaded',
      street: 'Street',
      offline: 'Offline basemap',
      choose: 'Choose devices above',
      play: 'Play',
      stop: 'Show whole tracks',
    },
  },
];

interface LegendRow {
  imei: string;
  index: number;
  fixTime: number | null;
  count: number;
}

async function legend(page: Page): Promise<LegendRow[]> {
  return page.locator('[data-testid="map2d-legend"] .wt-map-legend-row').evaluateAll((rows) =>
    rows.map((r) => {
      const el = r as HTMLElement;
      return {
        imei: el.dataset.imei ?? '',
        index: Number(el.dataset.index),
        fixTime: el.dataset.fixTime ? Number(el.dataset.fixTime) : null,
        count: Number(el.dataset.count),
      };
    }),
  );
}

async function replayTime(page: Page): Promise<number | null> {
  const value = await page.getByTestId('replay').getAttribute('data-time');
  return value ? Number(value) : null;
}


/** Picks a device by IMEI in the device picker (searching by IMEI, §2.5 tree search rules). */
async function chooseDevice(page: Page, imei: string): Promise<void> {
  const picker = page.getByTestId('device-picker');
  await picker.click();
  await picker.locator('input').fill(imei);
  // The picker is the device tree (issue 12 item 5): the searched device's row.
  await page.getByTestId('device-picker-tree').getByTestId(`tree-device-${imei}`).click();
  await page.keyboard.press('Escape');
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').waitFor({ state: 'hidden' });
}

describe.each(cases)('2D map ($locale)', ({ locale, t }) => {
  it('shows the offline basemap without a network, switches layers, and replays two devices in sync', async () => {
    // Only the local server answers: every other host fails, as on a field laptop without a network.
    const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
    const blocked = otherHosts(context, setup.server.baseUrl);
    const page = await context.newPage();
    try {
      // Signed in from /map2d itself: /device's tree picks its first device by default, and the maps open
      // with the device /device shows (issue 12 item 3), so a visit there first would race this empty start.
      await signIn(page, setup.server.baseUrl, setup.server.admin, '/map2d');
      await onScreen(page, '/map2d');
      const map = page.getByTestId('map');
      await map.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 30_000 });

      // ---- nothing chosen yet: the map (offline basemap underneath) and a hint ----
      await page.getByTestId('map2d-empty').and(page.locator('[data-reason="no-devices"]')).getByText(t.choose).waitFor();
      // The default layer of §2.5 can't be drawn here (no key / no network): the offline basemap and why.
      const notice = page.getByTestId('base-layer-notice');
      await notice.and(page.locator(`[data-notice="${t.defaultNotice}"]`)).waitFor({ timeout: 20_000 });
      expect(await notice.textContent()).toContain(t.defaultNotice === 'no-key' ? t.noKey : t.unreachable);
      expect(await map.getAttribute('data-base-layer')).toBe('offline');
      await screenshot(page, `map2d-${locale}-empty-offline`);
      if (locale === 'zh-CN') expect(blocked).toHaveLength(0);

      // ---- a global layer: its tiles fail, the map falls back to the offline basemap and says so ----
      await chooseBaseLayer(page, t.street, 'street');
      await expect.poll(() => map.getAttribute('data-base-layer'), { timeout: 20_000 }).toBe('offline');
      await notice.and(page.locator('[data-notice="unreachable"]')).getByText(t.unreachable).waitFor();
      expect(blocked.some((host) => host.includes('openstreetmap'))).toBe(true);

      // ---- the offline basemap chosen: no notice, no tile request ----
      const before = blocked.length;
      await chooseBaseLayer(page, t.offline, 'offline');
      await notice.waitFor({ state: 'detached' });
      expect(await map.getAttribute('data-base-layer')).toBe('offline');

      // ---- the stork alone: the view fits its track over the last 7 days, drawn on screen ----
      await chooseDevice(page, STORK);
      await expect.poll(async () => (await legend(page)).map((r) => r.imei), { timeout: 30_000 }).toEqual([STORK]);
      await expect.poll(() => map.getAttribute('data-tracks')).toContain(STORK);
      await page.getByTestId('map2d').and(page.locator('[data-loading="0"]')).waitFor();
      // Drawn, not only loaded: the stork's line in the first device colour (its marker alone is ~100
      // pixels). Fitted to this one track, the line spans the view whatever the season: a stork that
      // stayed at its wetland all week crosses the map as one that migrated does.
      await expect.poll(() => pixelsOfColour(page, '[data-testid="map"]', [22, 119, 255]), { timeout: 10_000 }).toBeGreaterThan(400);
      await screenshot(page, `map2d-${locale}-track`);

      // ---- two devices: their tracks and a legend in their colours ----
      await chooseDevice(page, DEER);
      await expect.poll(async () => (await legend(page)).map((r) => r.imei).sort(), { timeout: 30_000 }).toEqual([STORK, DEER].sort());
      const rows = await legend(page);
      for (const r of rows) expect(r.count).toBeGreaterThan(100);
      // The legend names the devices (the sample stork F07 and deer M03).
      expect(await page.getByTestId('map2d-legend').textContent()).toMatch(/F07.*M03|M03.*F07/);
      await expect.poll(() => map.getAttribute('data-tracks')).toContain(DEER);
      await page.getByTestId('map2d').and(page.locator('[data-loading="0"]')).waitFor();
      expect(blocked.length).toBe(before);
      await screenshot(page, `map2d-${locale}-tracks`);

      // ---- the last position's popup: the latest fix (its time in the user's zone, position, grade) ----
      const label = page.locator(`.wt-map-label[data-imei="${STORK}"]`);
      const box = (await label.boundingBox())!;
      // The name sits just below its position's dot (anchored at its top, 9 px down).
      await page.mouse.click(box.x + box.width / 2, box.y - 8);
      const card = page.locator(`.wt-fix-card[data-imei="${STORK}"]`);
      await card.waitFor();
      expect(await card.textContent()).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
      expect(await card.textContent()).toMatch(/°E .*°N/);
      await screenshot(page, `map2d-${locale}-popup`);
      await page.keyboard.press('Escape');
      await page.locator('.maplibregl-popup-close-button').click();
      await card.waitFor({ state: 'detached' });

      // ---- replay: play, pause, then step with the keyboard; both devices show the fix at the clock ----
      await page.getByRole('button', { name: t.play }).click();
      await expect.poll(() => page.getByTestId('replay').getAttribute('data-playing')).toBe('1');
      await expect.poll(() => replayTime(page)).not.toBeNull();
      await page.getByTestId('replay').getByRole('button').first().click();
      await expect.poll(() => page.getByTestId('replay').getAttribute('data-playing')).toBe('0');

      // To the middle of the span (a click on the rail), then forward by keyboard steps (1/1000 of the
      // span each): at every step both devices show where they were at the clock.
      const rail = (await page.getByTestId('replay').locator('.ant-slider').boundingBox())!;
      await page.mouse.click(rail.x + rail.width / 2, rail.y + rail.height / 2);
      const slider = page.getByTestId('replay').getByRole('slider');
      await slider.focus();
      const seen: { time: number; stork: number; deer: number }[] = [];
      for (let step = 0; step < 4; step++) {
        for (let i = 0; i < 5; i++) await slider.press('ArrowRight');
        const time = await replayTime(page);
        expect(time).not.toBeNull();
        const now = await legend(page);
        const stork = now.find((r) => r.imei === STORK)!;
        const deer = now.find((r) => r.imei === DEER)!;
        for (const r of [stork, deer]) {
          // In sync: each device shows its last fix at or before the shared clock, within its interval.
          expect(r.fixTime).not.toBeNull();
          expect(r.fixTime!).toBeLessThanOrEqual(time!);
        }
        expect(time! - stork.fixTime!).toBeLessThan(6 * 3600_000);
        expect(time! - deer.fixTime!).toBeLessThan(6 * 3600_000);
        seen.push({ time: time!, stork: stork.index, deer: deer.index });
      }
      // The clock moved forward and both devices moved with it.
      for (let i = 1; i < seen.length; i++) {
        expect(seen[i]!.time).toBeGreaterThan(seen[i - 1]!.time);
        expect(seen[i]!.stork).toBeGreaterThanOrEqual(seen[i - 1]!.stork);
        expect(seen[i]!.deer).toBeGreaterThanOrEqual(seen[i - 1]!.deer);
      }
      expect(seen.at(-1)!.stork).toBeGreaterThan(seen[0]!.stork);
      expect(seen.at(-1)!.deer).toBeGreaterThan(seen[0]!.deer);
      await screenshot(page, `map2d-${locale}-replay`);

      // ---- last positions crowded at world zoom form a cluster with their count; a click opens it ----
      await page.getByRole('button', { name: t.stop }).click();
      await expect.poll(() => replayTime(page)).toBeNull();
      for (const imei of CROWD) await chooseDevice(page, imei);
      // The VHF station has no track (its fixes are its fixed site), so four tracks and five last positions.
      await expect.poll(async () => (await legend(page)).length, { timeout: 30_000 }).toBe(4);
      await page.getByTestId('map2d').and(page.locator('[data-loading="0"]')).waitFor();
      // Out to world zoom, or as far as the map goes (the button turns disabled at the minimum zoom): each
      // zoom finished (the map at rest at another zoom) before the button is looked at again.
      const zoomOut = page.locator('.maplibregl-ctrl-zoom-out');
      const view = page.locator('[data-testid="map2d"] [data-testid="map"]');
      await view.and(page.locator('[data-moving="0"]')).waitFor();
      for (let i = 0; i < 8 && (await zoomOut.isEnabled()); i++) {
        const before = await view.getAttribute('data-zoom');
        await zoomOut.click();
        await page.waitForFunction(
          (zoom) => {
            const box = document.querySelector<HTMLElement>('[data-testid="map2d"] [data-testid="map"]');
            return box?.dataset.moving === '0' && box.dataset.zoom !== zoom;
          },
          before,
        );
      }
      const cluster = page.locator('.wt-map-cluster-count');
      // At least two together: the stork keeps its calendar (on the Amur in spring and summer, at Poyang in
      // winter), so which of the five share a cluster depends on the season of the data.
      await expect.poll(async () => Math.max(0, ...(await cluster.allTextContents()).map(Number)), { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      await screenshot(page, `map2d-${locale}-cluster`);
      // The biggest cluster opened: the map zooms in until its positions part, in smaller clusters or
      // each with its name.
      const counts = (await cluster.allTextContents()).map(Number);
      const biggest = (await cluster.nth(counts.indexOf(Math.max(...counts))).boundingBox())!;
      await page.mouse.click(biggest.x + biggest.width / 2, biggest.y + biggest.height / 2);
      const largest = async (): Promise<number> => Math.max(0, ...(await cluster.allTextContents()).map(Number));
      await expect.poll(largest, { timeout: 20_000 }).toBeLessThan(Math.max(...counts));
      await page.locator('.wt-map-label').first().waitFor();
      await screenshot(page, `map2d-${locale}-cluster-opened`);
    } finally {
      await context.close();
    }
  }, 180_000);
});
