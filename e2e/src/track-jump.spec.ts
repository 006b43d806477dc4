import { formatTime } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { seedFixes } from './fixture-db';
import { newContext, onScreen, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * /track in the browser (issue 28 item 4), both languages: a device whose fixes all lie long before
 * the last 7 days (the common case after an import) opens on an empty range that says when its data
 * runs and jumps there; the table sorted by speed and turned to page 2 stays so after a reload, its
 * sort and page read back from the URL.
 */

const setup = serverAndBrowser();

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ZONE = '+08:00';
/** 30 fixes every 6 hours, the last 40 days ago: two pages of 20. */
const FIXES = 30;

/** The device's fixes, written straight into the server's SQLite file; their pick times, oldest first. */
function seed(file: string, imei: string): number[] {
  const last = Math.floor((Date.now() - 40 * DAY) / 60_000) * 60_000;
  const times = Array.from({ length: FIXES }, (_, i) => last - (FIXES - 1 - i) * 6 * HOUR);
  // speeds in an order other than time's, all different: the sorted pages are known
  seedFixes(file, imei, times.map((t, i) => ({ t, lon: 121.4 + i * 0.01, lat: 31.2 + i * 0.005, speed: (i * 7) % FIXES })));
  return times;
}

const cases = [
  { locale: 'zh-CN' as const, imei: '861000000028401', menu: '位置', jump: '跳转到该设备的数据' },
  { locale: 'en-US' as const, imei: '861000000028402', menu: 'Location', jump: "Jump to this device's data" },
];

describe.each(cases)('/track, an empty range ($locale)', ({ locale, imei, menu, jump }) => {
  it("jumps to the device's data, and a reload keeps the sorted page", async () => {
    await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', imei, '--caption', `Imported ${locale}`, '--sensors', 'GNSS', '--species', 'bird', '--folder', `Import-${locale}`);
    const times = seed(setup.server.databaseFile, imei);
    const context = await newContext(setup.browser, locale);
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, setup.server.admin);
      await page.waitForURL(`${setup.server.baseUrl}/device`);
      await page.locator('.wt-top-menu').getByRole('link', { name: menu, exact: true }).click();
      await onScreen(page, '/track');
      await page.getByTestId('tree-search').locator('input').fill(imei.slice(-6));
      await page.getByTestId('device-tree').getByTestId(`tree-device-${imei}`).click();
      await page.locator(`[data-testid="track-page"][data-imei="${imei}"]`).waitFor();

      // ---- the last 7 days hold nothing: the data's first and last fix, and the jump ----
      const span = page.getByTestId('track-data-span');
      await expect.poll(() => span.textContent()).toContain(formatTime(times[0]!, ZONE));
      expect(await span.textContent()).toContain(formatTime(times.at(-1)!, ZONE));
      await screenshot(page, `track-jump-${locale}-empty`);
      await page.getByRole('button', { name: jump }).click();
      const table = page.locator('.wt-track-table');
      await expect.poll(() => table.getAttribute('data-total')).toBe(String(FIXES));

      // ---- sorted by speed, page 2: in the URL, and again after a reload ----
      await page.locator('th[data-column="Speed"]').click();
      await expect.poll(() => page.url()).toContain('sort=Speed');
      await page.locator('.ant-pagination-item-2').click();
      await expect.poll(() => page.url()).toContain('page=2');
      const speeds = () => page.locator('[data-testid="fix-table"] tbody tr[data-row-key]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-key')));
      await expect.poll(async () => (await speeds()).length).toBe(FIXES - 20);
      const before = await speeds();
      const url = page.url();
      await page.reload();
      await expect.poll(() => table.getAttribute('data-page')).toBe('2');
      await expect.poll(() => table.getAttribute('data-total')).toBe(String(FIXES));
      await expect.poll(speeds).toEqual(before);
      expect(page.url()).toBe(url);
      expect(await page.locator('th[data-column="Speed"]').getAttribute('aria-sort')).toBe('ascending');
      await screenshot(page, `track-jump-${locale}-sorted-page-2`);
    } finally {
      await context.close();
    }
  });
});
