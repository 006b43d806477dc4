import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seedFixes } from './fixture-db';
import { animationsSettled, newContext, type RunningServer, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * Fixes as researchers clean them (issue 12 item 4), on /track at 1280×720 in both languages: the table
 * opens with a compact set of columns that fits without a horizontal scroll bar; the column chooser's
 * choice is kept after a reload; an upper bound with an HDOP filter narrows the rows to what the server
 * holds; a box drawn on the map marks its valid fixes invalid after the irreversible confirmation, and
 * the table and the map are read again.
 */

const setup = serverAndBrowser();

const HOUR = 3_600_000;
/** Fixes every 2 hours over the last 4 days. */
const FIXES = 48;

/**
 * The device's fixes, written into the server's SQLite file: 48 fixes every 2 hours along a line from
 * west to east (older fixes west), speed 0..11 km/h, HDOP 0.8..2.3, satellites 4..11, grades A..E, N.
 */
function seed(file: string, imei: string): void {
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  const first = now - 4 * 24 * HOUR;
  seedFixes(
    file,
    imei,
    Array.from({ length: FIXES }, (_, i) => ({
      t: first + i * 2 * HOUR,
      lon: 118.2 + i * 0.01,
      lat: 32.05 + Math.sin(i / 4) * 0.02,
      alt: 20 + (i % 9) * 3,
      speed: i % 12,
      course: (i * 37) % 360,
      temperature: 18.5,
      activity: 20 + (i % 13),
      voltage: 3.95 - i * 0.002,
      satellites: 4 + (i % 8),
      hdop: 0.8 + (i % 6) * 0.3,
      grade: (i % 7) + 1,
    })),
  );
}

/** What the server holds: a count over the device's fixes with a WHERE clause. */
function countFixes(file: string, imei: string, where: string): number {
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare(`SELECT count(*) AS n FROM fixes f JOIN devices d ON d.id = f.device_id WHERE d.imei = ? AND (${where})`).get(imei) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

/** Chooses the device in the tree (the search narrows it to one) and waits for its /track view. */
async function chooseDevice(page: Page, imei: string): Promise<void> {
  const tree = page.getByTestId('device-tree');
  await page.getByTestId('tree-search').locator('input').fill(imei.slice(-6));
  // The click's wait for what it set off may outlast the choice (the URL takes the device): what counts
  // is the device's view, waited for below.
  await tree
    .getByTestId(`tree-device-${imei}`)
    .click({ timeout: 15_000 })
    .catch(() => undefined);
  await page.locator(`[data-testid="track-page"][data-imei="${imei}"]`).waitFor({ timeout: 30_000 });
}

/** After a reload: the device the URL or the session kept, else chosen again in the tree. */
async function deviceShown(page: Page, imei: string): Promise<void> {
  const shown = page.locator(`[data-testid="track-page"][data-imei="${imei}"]`);
  const none = page.locator('[data-testid="track-page"][data-state="no-device"]');
  await shown.or(none).first().waitFor({ timeout: 30_000 });
  if (await none.isVisible()) await chooseDevice(page, imei);
}

/** Waits until the table shows this total (the rows of the range and filters, read from the server). */
async function tableTotal(page: Page, total: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const box = document.querySelector('.wt-track-table');
      return box?.getAttribute('data-total') === String(n) && !box.querySelector('.ant-spin-spinning');
    },
    total,
    { timeout: 30_000 },
  );
}

/** The map's element once its track is drawn with `points` points. */
async function mapReady(page: Page, points: number): Promise<Locator> {
  await page.waitForFunction((n) => document.querySelector('[data-testid="track-map"]')?.getAttribute('data-points') === String(n), points, { timeout: 30_000 });
  const view = page.locator('[data-testid="track-map"] [data-testid="map"][data-state="ready"]');
  await view.waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="track-map"] [data-testid="map"][data-moving="0"]').waitFor({ timeout: 30_000 });
  return view;
}

const cases = [
  {
    locale: 'zh-CN' as const,
    tag: 'zh',
    imei: '861000000012401',
    t: { menu: '位置', altitude: '海拔', undo: '此操作不可撤销', title: /^将 (\d+) 条定位标记为无效？$/, done: /已将 \d+ 条定位标记为无效/ },
  },
  {
    locale: 'en-US' as const,
    tag: 'en',
    imei: '861000000012402',
    t: { menu: 'Location', altitude: 'Altitude', undo: "This can't be undone", title: /^Mark (\d+) fix(?:es)? invalid\?$/, done: /\d+ fix(es)? marked invalid/ },
  },
];

describe.each(cases)('fixes on /track ($locale, 1280×720)', ({ locale, tag, imei, t }) => {
  it('compact columns that fit, a remembered chooser, an upper bound with HDOP, a box on the map marked invalid', async () => {
    const server: RunningServer = setup.server;
    await server.cli('register-device', '--org', 'Wildtrack', '--imei', imei, '--caption', `Egret ${tag}`, '--sensors', 'GNSS', '--species', 'bird', '--folder', `Marsh-${tag}`);
    seed(server.databaseFile, imei);

    // only the local server answers: every other host is refused
    const context = await newContext(setup.browser, locale, { offline: server.baseUrl });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.setViewportSize({ width: 1280, height: 720 });
    // A screenshot of the map (SwiftShader) with every core busy took over 10 s here: more time for each step.
    page.setDefaultTimeout(30_000);
    try {
      await signIn(page, server.baseUrl, server.admin);
      await page.waitForURL(new RegExp(`^${server.baseUrl}/device`));
      await page.locator('.wt-top-menu').getByRole('link', { name: t.menu, exact: true }).click();
      await page.getByTestId('track-page').first().waitFor({ timeout: 30_000 });
      await chooseDevice(page, imei);
      // the last 7 days (the default span) hold every fix
      await tableTotal(page, FIXES);
      const table = page.getByTestId('fix-table');

      // ---- the compact default set fits: no horizontal scroll in the table's body ----
      expect(await table.getAttribute('data-columns')).toBe('PickTime,Latitude,Longitude,Speed,HDOP,Satellites,PrecisionGrade,Validity');
      const body = table.locator('.ant-table-body');
      const fit = await body.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(fit.scroll, JSON.stringify(fit)).toBeLessThanOrEqual(fit.client + 1);
      // numbers with their fixed decimals: 6 for coordinates, 1 for speed and HDOP
      const first = table.locator('tbody tr.ant-table-row').first();
      const cells = await first.locator('td.wt-num').allTextContents();
      expect(cells[0]).toMatch(/^-?\d+\.\d{6}$/);
      expect(cells[1]).toMatch(/^-?\d+\.\d{6}$/);
      expect(cells[2]).toMatch(/^\d+\.\d$/);
      expect(cells[3]).toMatch(/^\d+\.\d$/);
      await mapReady(page, FIXES);
      await screenshot(page, `fixes-${locale}-compact-columns`);

      // ---- the chooser: Altitude on, Satellites off; kept after a reload ----
      await page.getByTestId('columns-toggle').click();
      const chooser = page.getByTestId('column-chooser');
      await chooser.waitFor();
      await chooser.getByTestId('column-option-Altitude').click();
      await chooser.getByTestId('column-option-Satellites').click();
      const chosen = 'PickTime,Latitude,Longitude,Altitude,Speed,HDOP,PrecisionGrade,Validity';
      await expect.poll(() => table.getAttribute('data-columns')).toBe(chosen);
      expect(await table.locator('thead th').allTextContents()).toContain(`${t.altitude} (m)`);
      await animationsSettled(page);
      await screenshot(page, `fixes-${locale}-column-chooser`);
      await page.keyboard.press('Escape');
      await page.reload();
      await deviceShown(page, imei);
      await tableTotal(page, FIXES);
      expect(await page.getByTestId('fix-table').getAttribute('data-columns')).toBe(chosen);

      // ---- a resized column keeps its width too ----
      const handle = page.locator('thead th[data-column="Speed"] [data-testid="column-resize"]');
      const before = (await page.locator('thead th[data-column="Speed"]').boundingBox())!.width;
      const grip = (await handle.boundingBox())!;
      await page.mouse.move(grip.x + grip.width / 2, grip.y + grip.height / 2);
      await page.mouse.down();
      await page.mouse.move(grip.x + grip.width / 2 + 40, grip.y + grip.height / 2, { steps: 5 });
      await page.mouse.up();
      await expect.poll(async () => (await page.locator('thead th[data-column="Speed"]').boundingBox())!.width).toBeGreaterThan(before + 30);

      // ---- speed > 3 and ≤ 8 with HDOP ≤ 1.5: the rows the server holds ----
      await page.getByTestId('filters-toggle').click();
      await page.getByTestId('filter-speed').fill('3');
      await page.getByTestId('filter-speedMax').fill('8');
      await page.getByTestId('filter-hdopMax').fill('1.5');
      await page.getByTestId('filter-apply').click();
      const expected = countFixes(server.databaseFile, imei, 'f.speed > 3 AND f.speed <= 8 AND f.hdop <= 1.5');
      expect(expected).toBeGreaterThan(0);
      expect(expected).toBeLessThan(FIXES);
      await tableTotal(page, expected);
      await page.waitForFunction((n) => document.querySelector('[data-testid="track-map"]')?.getAttribute('data-points') === String(n), expected);
      // every row shown keeps to the bounds
      const shown = await table.locator('tbody tr.ant-table-row').evaluateAll((rows) =>
        rows.map((r) => {
          const head = Array.from(r.closest('table')!.ownerDocument.querySelectorAll('thead th[data-column]')).map((th) => th.getAttribute('data-column'));
          const cells = Array.from(r.querySelectorAll('td')).slice(-head.length);
          return { speed: Number(cells[head.indexOf('Speed')]?.textContent), hdop: Number(cells[head.indexOf('HDOP')]?.textContent) };
        }),
      );
      expect(shown).toHaveLength(expected);
      for (const r of shown) {
        expect(r.speed).toBeGreaterThan(3);
        expect(r.speed).toBeLessThanOrEqual(8);
        expect(r.hdop).toBeLessThanOrEqual(1.5);
      }
      // a reversed pair is said and not applied
      await page.getByTestId('filter-hdop').fill('2');
      await page.getByTestId('filter-bounds-error').waitFor();
      expect(await page.getByTestId('filter-apply').isDisabled()).toBe(true);
      await screenshot(page, `fixes-${locale}-bounds`);
      await page.getByTestId('filter-hdop').fill('');
      // the filters off again: the whole track on the map
      await page.getByTestId('filter-reset').click();
      await tableTotal(page, FIXES);

      // ---- a box over the west half of the map: its fixes marked invalid after the confirmation ----
      const view = await mapReady(page, FIXES);
      expect(await page.getByTestId('track-map').getAttribute('data-valid-points')).toBe(String(FIXES));
      await page.getByTestId('box-select').click();
      await page.locator('[data-testid="track-map"] [data-testid="map"][data-box-select="box"]').waitFor();
      const box = (await view.boundingBox())!;
      await page.mouse.move(box.x + 8, box.y + 40);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width * 0.5, box.y + box.height - 40, { steps: 8 });
      await page.locator('[data-testid="box-select-frame"]').waitFor();
      await page.mouse.up();
      const confirm = page.getByTestId('mark-confirm');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(t.undo);
      const title = (await page.locator('.ant-modal-confirm-title').textContent()) ?? '';
      const n = Number(t.title.exec(title)?.[1]);
      expect(n, title).toBeGreaterThan(0);
      expect(n).toBeLessThan(FIXES);
      await animationsSettled(page);
      await screenshot(page, `fixes-${locale}-box-confirm`);
      // nothing is marked before the confirmation
      expect(countFixes(server.databaseFile, imei, 'f.invalid_by IS NOT NULL')).toBe(0);
      await page.getByTestId('mark-confirm-ok').click();
      await page.locator('.ant-message').getByText(t.done).waitFor();
      // the server holds N marked fixes, the oldest ones (west), and the map and table were read again
      expect(countFixes(server.databaseFile, imei, 'f.invalid_by IS NOT NULL')).toBe(n);
      const oldestMarked = countFixes(server.databaseFile, imei, `f.invalid_by IS NOT NULL AND f.pick_time <= (SELECT min(pick_time) FROM fixes g WHERE g.device_id = f.device_id) + ${(n - 1) * 2 * HOUR}`);
      expect(oldestMarked).toBe(n);
      await page.waitForFunction((v) => document.querySelector('[data-testid="track-map"]')?.getAttribute('data-valid-points') === String(v), FIXES - n, { timeout: 30_000 });
      // newest first: the last page holds the oldest fixes, marked
      await page.locator('.wt-track-table .ant-pagination-item-3').click();
      await page.locator('.wt-track-table tr[data-state="marked"]').first().waitFor();
      await screenshot(page, `fixes-${locale}-box-marked`);

      // ---- a lasso around the east part: the newest valid fixes, after the same confirmation ----
      await page.locator('[data-testid="track-map"] [data-testid="map"][data-moving="0"]').waitFor({ timeout: 30_000 });
      await page.getByTestId('lasso-select').click();
      await page.locator('[data-testid="track-map"] [data-testid="map"][data-box-select="lasso"]').waitFor();
      const area = (await view.boundingBox())!;
      const at = (fx: number, fy: number) => [area.x + area.width * fx, area.y + area.height * fy] as const;
      await page.mouse.move(...at(0.55, 0.3));
      await page.mouse.down();
      for (const [fx, fy] of [[0.75, 0.25], [0.97, 0.4], [0.97, 0.8], [0.75, 0.9], [0.55, 0.8]] as const) await page.mouse.move(...at(fx, fy), { steps: 4 });
      await page.locator('[data-testid="lasso-select-outline"]').waitFor();
      await animationsSettled(page);
      await screenshot(page, `fixes-${locale}-lasso-drawing`);
      await page.mouse.up();
      await confirm.waitFor();
      const lassoTitle = (await page.locator('.ant-modal-confirm-title').textContent()) ?? '';
      const n2 = Number(t.title.exec(lassoTitle)?.[1]);
      expect(n2, lassoTitle).toBeGreaterThan(0);
      expect(n2).toBeLessThanOrEqual(FIXES - n);
      await page.getByTestId('mark-confirm-ok').click();
      await page.waitForFunction((v) => document.querySelector('[data-testid="track-map"]')?.getAttribute('data-valid-points') === String(v), FIXES - n - n2, { timeout: 30_000 });
      expect(countFixes(server.databaseFile, imei, 'f.invalid_by IS NOT NULL')).toBe(n + n2);
      // the lasso took the newest ones (east)
      const newestMarked = countFixes(server.databaseFile, imei, `f.invalid_by IS NOT NULL AND f.pick_time >= (SELECT max(pick_time) FROM fixes g WHERE g.device_id = f.device_id) - ${(n2 - 1) * 2 * HOUR}`);
      expect(newestMarked).toBe(n2);
    } catch (e) {
      if (errors.length > 0) console.error(`page errors (${locale}):\n${errors.join('\n')}`);
      // the failure is what counts: a screenshot that can't be taken (a busy machine) doesn't hide it
      await screenshot(page, `debug-fixes-${locale}-failure`).catch((shot: unknown) => console.error('no failure screenshot:', shot));
      throw e;
    } finally {
      await context.close();
    }
  }, 420_000);
});
