import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWeatherStub, type WeatherStub } from '../../apps/server/src/test/weather-stub';
import { launchBrowser, newContext, onScreen, pollUntil, type RunningServer, screenshot, signIn, startServer } from './harness';

/**
 * The weather layer of /map2d (issue 15 item 7) in both languages with no network: the server's forecast
 * source (WEATHER_URL) is a local stub answering as Open-Meteo does, every other host the browser asks
 * fails. The layer draws the grid's cells with the stub's values and a legend, a click shows the place's
 * forecast of the next hours; then the source goes out of reach: the legend says "weather data loading
 * failed" and the map still pans.
 */

/** The source's current hour, epoch seconds (its stub: apps/server/src/test/weather-stub.ts). */
const NOW = Math.floor(Date.now() / 3_600_000) * 3600;

let stub: WeatherStub;
let server: RunningServer;
let browser: Browser;
beforeAll(async () => {
  stub = await startWeatherStub({ now: NOW });
  [server, browser] = await Promise.all([startServer({ WEATHER_URL: stub.url }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await stub?.close();
});

const cases = [
  {
    locale: 'zh-CN' as const,
    t: { toggle: '天气', title: '当前天气', forecastAt: /^(北纬|南纬) \d+\.\d\d°，(东经|西经) \d+\.\d\d° 的预报/, failed: '天气数据加载失败', zoomIn: '放大', time: '时间', temperature: '气温', wind: '风', precipitation: '降水', from: '西风', ms: '米/秒', mm: '毫米' },
  },
  {
    locale: 'en-US' as const,
    t: { toggle: 'Weather', title: 'Weather now', forecastAt: /^Forecast at \d+\.\d\d° [NS], \d+\.\d\d° [EW]/, failed: 'Weather data loading failed', zoomIn: 'Zoom in', time: 'Time', temperature: 'Temperature', wind: 'Wind', precipitation: 'Precipitation', from: 'from W', ms: 'm/s', mm: 'mm' },
  },
];

interface Cell {
  temperature: number;
  windSpeed: number;
  windDirection: number;
}

async function cells(page: Page): Promise<Cell[]> {
  return page.locator('[data-testid="weather-cell"]').evaluateAll((els) =>
    els.map((e) => {
      const d = (e as HTMLElement).dataset;
      return { temperature: Number(d.temperature), windSpeed: Number(d.windSpeed), windDirection: Number(d.windDirection) };
    }),
  );
}

/**
 * Drags the map by (dx, dy) pixels, as a user pans it, from a place right of the centre and below the
 * weather legend (the centre holds the "choose devices" message, the corners the legends and notices).
 */
async function pan(page: Page, dx: number, dy: number): Promise<void> {
  const box = (await page.getByTestId('map').boundingBox())!;
  const x = box.x + box.width * 0.8;
  const y = box.y + box.height * 0.6;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 4 });
  await page.mouse.move(x + dx, y + dy, { steps: 4 });
  await page.mouse.up();
}

describe.each(cases)('weather on the 2D map ($locale)', ({ locale, t }) => {
  it('draws wind and temperature over the view, a clicked place forecast, and says when the source is out of reach while the map still pans', async () => {
    stub.mode = 'ok';
    // Only the local server answers the browser: every other host fails, as on a field laptop without a network.
    const context = await newContext(browser, locale, { offline: server.baseUrl });
    const page = await context.newPage();
    try {
      await signIn(page, server.baseUrl, server.admin, '/map2d');
      await onScreen(page, '/map2d');
      const map = page.getByTestId('map');
      await map.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 30_000 });
      // Nearer: a continent across the view, so that a pan brings new grid points.
      const zoomIn = page.getByRole('button', { name: t.zoomIn });
      // One click at a time, each waited for to the end of its easing (a click during the previous one's
      // easing adds less than a whole level: three quick clicks once reached only 3.96).
      for (let i = 0; i < 8 && Number(await map.getAttribute('data-zoom')) < 4.5; i++) {
        const before = Number(await map.getAttribute('data-zoom'));
        await zoomIn.click();
        await pollUntil(() => map.getAttribute('data-zoom'), (z) => Number(z) >= before + 0.99, 15_000, (z) => `zoom ${z} after a click from ${before}`);
      }
      await pollUntil(() => map.getAttribute('data-zoom'), (z) => Number(z) >= 4.5, 15_000, (z) => `zoom ${z}`);

      // ---- the layer on: cells with the source's values, and the legend ----
      const toggle = page.getByTestId('weather-toggle');
      expect(await page.locator('label:has([data-testid="weather-toggle"])').textContent()).toContain(t.toggle);
      await toggle.click();
      // Off the switch, so that its hint does not cover the screen in the screenshots.
      await page.mouse.move(0, 0);
      const legend = page.getByTestId('weather-legend');
      await legend.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 20_000 });
      const drawn = await pollUntil(() => cells(page), (c) => c.length >= 12, 10_000, (c) => `${c.length} cells`);
      expect(Number(await map.getAttribute('data-weather-cells'))).toBe(drawn.length);
      expect(drawn.length).toBeLessThanOrEqual(100);
      // Each cell is its own place's weather: the stub's temperature is half the latitude, and the cells
      // come row by row from north to south.
      // (how many rows of cells the view holds depends on the zoom the clicks reached: two at the least)
      expect(new Set(drawn.map((c) => c.temperature)).size).toBeGreaterThanOrEqual(2);
      expect(drawn[0]!.temperature).toBeGreaterThan(drawn.at(-1)!.temperature);
      for (const c of drawn) {
        expect(c.windDirection).toBe(270);
        expect(Math.abs(c.temperature)).toBeLessThanOrEqual(45);
        expect(c.windSpeed).toBeLessThanOrEqual(18);
      }
      const legendText = (await legend.textContent()) ?? '';
      expect(legendText).toContain(t.title);
      expect(legendText).toContain('°C');
      expect(legendText).toContain(t.mm);
      // The arrows point where the wind goes (east: it blows from the west).
      expect(await page.locator('[data-testid="weather-cell"] .wt-weather-arrow').first().evaluate((e) => (e as HTMLElement).style.transform)).toContain('rotate(90deg)');
      await screenshot(page, `weather-${locale}-layer`);

      // ---- a click: the place's forecast for the next hours, times in the user's zone ----
      const box = (await map.boundingBox())!;
      await page.mouse.click(box.x + box.width * 0.65, box.y + box.height * 0.8);
      const forecast = page.getByTestId('weather-forecast');
      await forecast.and(page.locator('[data-state="ready"]')).waitFor({ timeout: 20_000 });
      expect(await forecast.locator('strong').first().textContent()).toMatch(t.forecastAt);
      const rows = forecast.locator('tbody tr');
      expect(await rows.count()).toBe(12);
      const head = (await forecast.locator('thead').textContent()) ?? '';
      for (const word of [t.time, t.temperature, t.wind, t.precipitation]) expect(head).toContain(word);
      const first = (await rows.first().textContent()) ?? '';
      // The first hour in the browser's zone (Asia/Shanghai, the user's +08:00): the hour the stub began at.
      const shanghaiHour = new Date((NOW + 8 * 3600) * 1000).toISOString().slice(11, 16);
      expect(first).toContain(shanghaiHour);
      expect(first).toContain(t.ms);
      expect(first).toContain(t.from);
      expect(first).toContain('°C');
      await screenshot(page, `weather-${locale}-forecast`);
      await page.locator('.wt-weather-popup .maplibregl-popup-close-button').click();
      await forecast.waitFor({ state: 'detached' });

      // ---- the source out of reach: the failure said, the map goes on working ----
      stub.mode = 'down';
      const viewBefore = await map.getAttribute('data-weather-view');
      await pan(page, -450, 120);
      await pollUntil(() => map.getAttribute('data-weather-view'), (v) => v !== viewBefore, 15_000, () => 'the map did not pan');
      await legend.and(page.locator('[data-state="error"]')).waitFor({ timeout: 20_000 });
      expect(await page.getByTestId('weather-error').textContent()).toContain(t.failed);
      expect(await map.getAttribute('data-weather-cells')).toBe('0');
      await screenshot(page, `weather-${locale}-failed`);
      const viewFailed = await map.getAttribute('data-weather-view');
      await pan(page, -250, -150);
      await pollUntil(() => map.getAttribute('data-weather-view'), (v) => v !== viewFailed, 15_000, () => 'the map did not pan after the failure');
      await legend.and(page.locator('[data-state="error"]')).waitFor({ timeout: 20_000 });
      // A click asks the place's forecast: it fails the same way, in the popup.
      await page.mouse.click(box.x + box.width * 0.2, box.y + box.height * 0.75);
      await forecast.and(page.locator('[data-state="error"]')).waitFor({ timeout: 20_000 });
      expect(await forecast.textContent()).toContain(t.failed);
    } finally {
      stub.mode = 'ok';
      await context.close();
    }
  }, 120_000);
});
