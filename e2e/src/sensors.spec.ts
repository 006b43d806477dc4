import AxeBuilder from '@axe-core/playwright';
import { sampleFleet } from '@wildtrack/sample-fleet';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsSettled, catalogue, lookup, newContext, recordBodies, screenshot, serverAndBrowser } from './harness';

/**
 * Data kinds on /track (issue 13 item 2), in both languages with the sample devices: the stork chosen in
 * the tree offers beside its positions the kinds its sensor flags name (acceleration, temperature,
 * pressure, light, humidity) and no other; its temperature over 30 days is drawn as the server's envelope
 * (4,320 records, more than the chart's pixels), zoomed by dragging across the chart, which asks the
 * server again for the visible range (six days: few enough to come as records); the table below pages
 * through the records on the server over the chart's visible range (zooming the chart pages the table over
 * the zoomed range); the kind and the zoom are in the URL, so a reload, the link opened elsewhere, or Back
 * to it from another screen shows the same view.
 */

const setup = serverAndBrowser();
const fleet = sampleFleet();
const stork = fleet.find((d) => d.profile.id === 'stork')!;
const seal = fleet.find((d) => d.profile.id === 'seal')!;
const deer = fleet.find((d) => d.profile.id === 'deer')!;

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', texts: catalogue('zh-CN.json'), name: stork.captionZh },
  { locale: 'en-US' as const, tag: 'en', texts: catalogue('en-US.json'), name: stork.caption },
];

/** The sensor calls the page makes, with their bodies as the console meant them. */
const watchSensorCalls = (page: Page) => recordBodies(page, (url) => /\/api\/Sensor\/(\w+)$/.exec(url.pathname)?.[1] ?? null);

async function signedIn(page: Page): Promise<void> {
  await page.goto(`${setup.server.baseUrl}/login`);
  await page.locator('#account').waitFor({ timeout: 90_000 });
  await page.locator('#account').fill(setup.server.admin.account);
  await page.locator('#pwd').fill(setup.server.admin.password);
  await page.locator('button[type=submit]').click();
  await page.waitForURL(`${setup.server.baseUrl}/device`, { timeout: 90_000 });
}

describe.each(cases)('sensor data kinds on /track ($tag)', ({ locale, tag, texts, name }) => {
  const t = (key: string, vars?: Record<string, string | number>) => lookup(texts, key, vars);

  it('offers the stork\'s kinds, draws its temperature as an envelope, asks again when zoomed, and pages the table', async () => {
    const context: BrowserContext = await newContext(setup.browser, locale);
    const page = await context.newPage();
    const asked = watchSensorCalls(page);
    try {
      await signedIn(page);
      // the stork, 30 days (its whole history)
      await page.goto(`${setup.server.baseUrl}/track?device=${stork.imei}&span=30`);
      await page.locator(`[data-testid="track-page"][data-imei="${stork.imei}"]`).waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('track-page').textContent()).toContain(name);
      const kinds = page.getByTestId('data-kinds');
      await kinds.waitFor();
      const offered = await kinds.locator('[data-kind]').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
      expect(offered).toEqual(['positions', 'acceleration', 'temperature', 'pressure', 'light', 'humidity']);
      expect(await kinds.textContent()).toContain(t('trackSensors.kind.temperature'));
      // acceleration: the acceleration panel (its own chunk) for the same device
      await kinds.getByText(t('trackSensors.kind.acceleration'), { exact: true }).click();
      await page.locator(`[data-testid="acceleration-panel"][data-imei="${stork.imei}"]`).waitFor({ timeout: 30_000 });

      // ---- temperature: the envelope of the 30 days ----
      await kinds.getByText(t('trackSensors.kind.temperature'), { exact: true }).click();
      const chart = page.getByTestId('sensor-chart');
      await expect.poll(() => chart.getAttribute('data-state'), { timeout: 60_000 }).toBe('ready');
      expect(await chart.getAttribute('data-envelope')).toBe('yes');
      const total = Number(await chart.getAttribute('data-total'));
      // a reading every 10 minutes for 30 days (the range's first and last minutes may cut one off)
      expect(total).toBeGreaterThan(4_000);
      expect(Number(await chart.getAttribute('data-points'))).toBeLessThanOrEqual(2_048);
      await asked.settled();
      const first = asked.filter((a) => a.path === 'GetSeries');
      expect(first.length).toBeGreaterThan(0);
      expect(first.at(-1)!.body).toMatchObject({ imei: stork.imei, kind: 'temperature', timeZone: '+08:00' });
      const legend = chart.locator('.u-legend');
      expect(await legend.textContent()).toContain(t('trackSensors.mean', { name: t('trackSensors.field.Temperature') }));
      // the summary and the count it names, read in one step: a width change (the table's scrollbar coming)
      // may ask again between two separate reads and change the bucket count
      const shown = await chart.evaluate((el) => ({ points: Number(el.getAttribute('data-points')), summary: el.querySelector('[data-testid="sensor-chart-summary"]')?.textContent }));
      expect(shown.summary).toBe(t('trackSensors.envelopeSummary', { count: total, buckets: shown.points }));
      await animationsSettled(page);
      await screenshot(page, `sensors-${tag}-temperature`);
      // the switch, the chart's buttons and the table: no serious or critical accessibility finding
      const audit = await new AxeBuilder({ page }).include('.wt-data-kinds').analyze();
      expect(audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)).toEqual([]);

      // ---- zoomed: drag across a fifth of the chart; the visible range is asked again ----
      const over = chart.locator('.u-over');
      const box = (await over.boundingBox())!;
      await asked.settled();
      const before = asked.filter((a) => a.path === 'GetSeries').length;
      await page.mouse.move(box.x + box.width * 0.4, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.6, box.y + box.height / 2, { steps: 8 });
      await page.mouse.up();
      // the zoomed range is asked (a width change may ask the whole range again meanwhile: not that one)
      const wholeStart = String(first.at(-1)!.body.startTime);
      const zoomedAsk = () => asked.filter((a) => a.path === 'GetSeries').slice(before).filter((a) => String(a.body.startTime) > wholeStart).at(-1);
      await expect.poll(() => zoomedAsk() !== undefined, { timeout: 30_000 }).toBe(true);
      const again = zoomedAsk()!.body;
      expect(String(again.startTime) > String(first.at(-1)!.body.startTime)).toBe(true);
      expect(String(again.endTime) < String(first.at(-1)!.body.endTime)).toBe(true);
      await expect.poll(() => chart.getAttribute('data-zoomed'), { timeout: 30_000 }).toBe('yes');
      // six days of 10-minute readings fit the chart's pixels: sent as they are
      await expect.poll(async () => [await chart.getAttribute('data-state'), await chart.getAttribute('data-envelope')], { timeout: 30_000 }).toEqual(['ready', 'no']);
      const zoomedTotal = Number(await chart.getAttribute('data-total'));
      expect(zoomedTotal).toBeGreaterThan(500);
      expect(zoomedTotal).toBeLessThan(total / 3);
      expect(await legend.textContent()).toContain(t('trackSensors.field.Temperature'));
      // the table below follows the zoom: its pages are the zoomed range's records
      const table = page.getByTestId('sensor-table');
      const totalText = page.locator('.ant-pagination-total-text').filter({ visible: true }).first();
      await expect.poll(() => totalText.textContent(), { timeout: 30_000 }).toBe(t('trackSensors.total_other', { count: zoomedTotal }));
      await asked.settled();
      const zoomedPage = asked.filter((a) => a.path === 'GetTemperatureList').at(-1)!.body;
      expect([zoomedPage.startTime, zoomedPage.endTime, zoomedPage.currentPage]).toEqual([again.startTime, again.endTime, 1]);
      await animationsSettled(page);
      await screenshot(page, `sensors-${tag}-temperature-zoomed`);

      // ---- the kind and its zoom are in the URL: a reload (or the link shared) opens the same view ----
      await expect.poll(() => new URL(page.url()).searchParams.get('kind'), { timeout: 30_000 }).toBe('temperature');
      const link = new URL(page.url()).searchParams;
      expect(link.get('zoomFrom')).toMatch(/^2026-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);
      expect(link.get('zoomTo')).toMatch(/^2026-\d\d-\d\dT\d\d:\d\d:\d\d\+08:00$/);
      const zoomedFrom = await chart.getAttribute('data-from');
      const zoomedTo = await chart.getAttribute('data-to');
      await asked.settled();
      const seriesBefore = asked.filter((a) => a.path === 'GetSeries').length;
      await page.reload();
      await page.locator(`[data-testid="sensor-panel"][data-kind="temperature"][data-imei="${stork.imei}"]`).waitFor({ timeout: 60_000 });
      await expect
        .poll(async () => [await chart.getAttribute('data-state'), await chart.getAttribute('data-zoomed'), await chart.getAttribute('data-from'), await chart.getAttribute('data-to')], { timeout: 60_000 })
        .toEqual(['ready', 'yes', zoomedFrom, zoomedTo]);
      expect(Number(await chart.getAttribute('data-total'))).toBe(zoomedTotal);
      await asked.settled();
      const reloaded = asked.filter((a) => a.path === 'GetSeries').slice(seriesBefore);
      expect(reloaded.length).toBeGreaterThan(0);
      expect([reloaded.at(-1)!.body.startTime, reloaded.at(-1)!.body.endTime]).toEqual([again.startTime, again.endTime]);
      await expect.poll(() => totalText.textContent(), { timeout: 30_000 }).toBe(t('trackSensors.total_other', { count: zoomedTotal }));
      // a shared link in a new tab (the same browser: signed in) opens it too
      const shared = await context.newPage();
      await shared.goto(page.url());
      const sharedChart = shared.getByTestId('sensor-chart');
      await expect
        .poll(async () => [await shared.getByTestId('sensor-panel').getAttribute('data-kind'), await sharedChart.getAttribute('data-zoomed'), await sharedChart.getAttribute('data-from'), await sharedChart.getAttribute('data-to')], { timeout: 60_000 })
        .toEqual(['temperature', 'yes', zoomedFrom, zoomedTo]);
      await shared.close();
      // Back and Forward keep it: another screen, Back to this view, Forward and Back again
      const here = page.url();
      await page.goto(`${setup.server.baseUrl}/device`);
      await page.waitForURL(/\/device/, { timeout: 60_000 });
      for (const step of ['back', 'forward', 'back'] as const) {
        if (step === 'back') await page.goBack();
        else await page.goForward();
        if (step === 'forward') {
          await page.waitForURL(/\/device/, { timeout: 60_000 });
          continue;
        }
        await expect.poll(() => page.url(), { timeout: 60_000 }).toBe(here);
        await expect
          .poll(async () => [await page.getByTestId('sensor-panel').getAttribute('data-kind'), await chart.getAttribute('data-state'), await chart.getAttribute('data-zoomed'), await chart.getAttribute('data-from'), await chart.getAttribute('data-to')], { timeout: 60_000 })
          .toEqual(['temperature', 'ready', 'yes', zoomedFrom, zoomedTo]);
        await expect.poll(() => totalText.textContent(), { timeout: 30_000 }).toBe(t('trackSensors.total_other', { count: zoomedTotal }));
      }

      // the whole range again
      await page.getByTestId('sensor-zoom-reset').click();
      await expect.poll(async () => [await chart.getAttribute('data-zoomed'), await chart.getAttribute('data-envelope'), await chart.getAttribute('data-state')], { timeout: 30_000 }).toEqual(['no', 'yes', 'ready']);
      // and in again by the keyboard's button (the middle half): asked again too
      await asked.settled();
      const beforeButton = asked.filter((a) => a.path === 'GetSeries').length;
      await page.getByTestId('sensor-zoom-in').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => chart.getAttribute('data-zoomed'), { timeout: 30_000 }).toBe('yes');
      await expect.poll(() => asked.filter((a) => a.path === 'GetSeries').length, { timeout: 30_000 }).toBeGreaterThan(beforeButton);

      await expect.poll(() => chart.getAttribute('data-state'), { timeout: 30_000 }).toBe('ready');
      const middleTotal = Number(await chart.getAttribute('data-total'));
      expect(middleTotal).toBeLessThan(total);

      // ---- the table pages on the server, over the zoomed range (the middle half) ----
      const firstRow = table.locator('tbody tr.ant-table-row').first();
      await firstRow.waitFor({ timeout: 30_000 });
      expect(await table.locator('thead').textContent()).toContain(`${t('trackSensors.field.Temperature')} (${t('trackSensors.unit.Temperature')})`);
      await expect.poll(() => totalText.textContent(), { timeout: 30_000 }).toBe(t('trackSensors.total_other', { count: middleTotal }));
      const newest = await firstRow.locator('td').first().textContent();
      await table.locator('.ant-pagination-next').click();
      await expect.poll(() => asked.filter((a) => a.path === 'GetTemperatureList').at(-1)?.body.currentPage, { timeout: 30_000 }).toBe(2);
      await expect.poll(() => firstRow.locator('td').first().textContent(), { timeout: 30_000 }).not.toBe(newest);
      // newest first: page 2 begins 20 readings (200 minutes) before page 1
      const second = await firstRow.locator('td').first().textContent();
      expect(String(second) < String(newest)).toBe(true);
      await animationsSettled(page);
      await screenshot(page, `sensors-${tag}-table-page-2`);

      // ---- back to positions: the track's table and map ----
      await kinds.getByText(t('trackSensors.kind.positions'), { exact: true }).click();
      await page.getByTestId('track-split').waitFor({ timeout: 30_000 });
    } finally {
      await context.close();
    }
  }, 240_000);

  it('draws red and infrared light as two series, and magnetism X, Y, Z with its angle', async () => {
    const context: BrowserContext = await newContext(setup.browser, locale);
    const page = await context.newPage();
    try {
      await signedIn(page);
      const open = async (imei: string, kind: string, fields: string[], shot: string) => {
        await page.goto(`${setup.server.baseUrl}/track?device=${imei}&span=7`);
        await page.locator(`[data-testid="track-page"][data-imei="${imei}"]`).waitFor({ timeout: 60_000 });
        await page.getByTestId('data-kinds').getByText(t(`trackSensors.kind.${kind}`), { exact: true }).click();
        const chart = page.getByTestId('sensor-chart');
        await expect.poll(async () => [await page.getByTestId('sensor-panel').getAttribute('data-kind'), await chart.getAttribute('data-state')], { timeout: 60_000 }).toEqual([kind, 'ready']);
        const legend = (await chart.locator('.u-legend').textContent()) ?? '';
        for (const field of fields) expect(legend).toContain(t(`trackSensors.field.${field}`));
        const head = (await page.getByTestId('sensor-table').locator('thead').textContent()) ?? '';
        for (const field of fields) expect(head).toContain(t(`trackSensors.field.${field}`));
        await animationsSettled(page);
        await screenshot(page, `sensors-${tag}-${shot}`);
      };
      await open(seal.imei, 'redInfrared', ['RedLight', 'InfraredLight'], 'red-infrared');
      await open(deer.imei, 'magnetism', ['X', 'Y', 'Z', 'Angle'], 'magnetism');
      // the deer has no humidity sensor: not offered
      expect(await page.getByTestId('data-kinds').locator('[data-kind="humidity"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  }, 240_000);
});
