import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newContext, screenshot, serverAndBrowser, signIn } from './harness';
import { mainThreadQuiet, measureStep, observeLongTasks, takeLongTasks } from './perf';

/**
 * The device tree with 10,000 devices in 1,000 folders (issue 4, deliverable 6): filtering and
 * expanding should leave no main-thread task over 100 ms. Machines are noisy (CI shares two cores), so
 * the spec prints the longest task of each step and asserts a ceiling on CPU time only (below). Each step
 * is also traced (Chromium's trace, through Playwright): besides the longest task as the page saw it
 * (wall time, which grows whenever the machine is busy with something else), it prints the most
 * main-thread CPU time one task took, which does not. The wall figures mean something when the spec
 * runs alone: npm run test -w @wildtrack/e2e -- tree-performance
 */

/**
 * The issue's budget for a main-thread task while filtering and expanding, ms. The spec fails at three
 * times it, on the CPU time of the busiest task (the wall time also counts waiting for a core on a
 * shared machine): a step change fails, a busy machine does not.
 */
const BUDGET_MS = 100;
const CEILING_MS = 3 * BUDGET_MS;
const FOLDERS = 1000;
const PER_FOLDER = 10;
const TOP = 100; // 100 top-level folders, each with 9 sub-folders

const account = { account: 'perfuser1', password: 'Perf12345' };

/** Writes the organisation's folders and devices straight into the server's SQLite file (one transaction). */
function seed(file: string): void {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    const org = db.prepare('SELECT id FROM organisations WHERE name = ?').get('Perf Reserve') as { id: number };
    const now = Date.now();
    const insertFolder = db.prepare('INSERT INTO folders (org_id, parent_id, name, created_at) VALUES (?, ?, ?, ?)');
    const insertDevice = db.prepare(
      `INSERT INTO devices (org_id, folder_id, imei, type, model, species_type, sensors, caption, status, secret, last_work_time, last_voltage, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      const folderIds: number[] = [];
      for (let t = 0; t < TOP; t++) {
        const top = Number(insertFolder.run(org.id, null, `Region ${String(t).padStart(3, '0')}`, now).lastInsertRowid);
        folderIds.push(top);
        for (let s = 1; s < FOLDERS / TOP; s++) folderIds.push(Number(insertFolder.run(org.id, top, `Site ${t}-${s}`, now).lastInsertRowid));
      }
      let n = 0;
      for (const folderId of folderIds) {
        for (let d = 0; d < PER_FOLDER; d++, n++) {
          const imei = `87${String(n).padStart(13, '0')}`;
          const type = n % 97 === 0 ? 2 : 1; // a few VHF receivers
          // GNSS always; every third a thermometer, every fifth acceleration
          const sensors = 1 | (n % 3 === 0 ? 8 : 0) | (n % 5 === 0 ? 2 : 0);
          insertDevice.run(org.id, folderId, imei, type, 'WT-S25', 2, sensors, `Tag ${n}`, 3, 'seeded', now - n * 1000, 3.9, now);
        }
      }
    })();
  } finally {
    db.close();
  }
}

const setup = serverAndBrowser();

beforeAll(async () => {
  await setup.server.createUser({ org: 'Perf Reserve', name: account.account, password: account.password, email: 'perf@example.org' });
  seed(setup.server.databaseFile);
}, 180_000);

/** Picks a sensor option of the open dropdown, again if a click during its animation picked nothing. */
async function pickSensor(page: Page, option: string): Promise<void> {
  const select = page.getByTestId('tree-sensor-filter');
  for (let attempt = 1; ; attempt++) {
    await select.click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: option }).click();
    try {
      await select.locator('.ant-select-content, .ant-select-selection-item').filter({ hasText: option }).first().waitFor({ timeout: 10_000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

describe('tree performance', () => {
  it('filters and expands 10,000 devices in 1,000 folders', async () => {
    const context = await newContext(setup.browser, 'en-US');
    await observeLongTasks(context);
    const page = await context.newPage();
    const report: string[] = [];
    const summary = page.getByTestId('tree-summary');
    const deviceRows = (): Promise<number> => page.locator('[data-testid="device-tree"] .wt-tree-title[data-testid^="tree-device-"]').count();
    try {
      const loadStarted = Date.now();
      await signIn(page, setup.server.baseUrl, account);
      await page.waitForURL(`${setup.server.baseUrl}/device`);
      await summary.filter({ hasText: /Devices: 100\d\d/ }).waitFor({ timeout: 30_000 });
      // the default selection's list and details belong to the load, not to the first step
      await page.getByTestId('device-details').waitFor({ timeout: 30_000 });
      await mainThreadQuiet(page);
      const load = await takeLongTasks(page);
      report.push(`${'sign-in and first tree'.padEnd(34)} ${String(Date.now() - loadStarted).padStart(5)} ms wall, longest task ${Math.round(load.reduce((m, t) => Math.max(m, t.duration), 0))} ms (fetch, parse, index, first render)`);

      const longest: { wall: number; cpu: number }[] = [];
      longest.push(
        await measureStep(setup.browser, page, 'search an IMEI fragment', async () => {
          await page.getByTestId('tree-search').locator('input').fill('870000000004');
          await summary.filter({ hasText: 'Matching: 1000 of' }).waitFor({ timeout: 30_000 });
        }, report),
      );
      expect(await deviceRows()).toBeGreaterThan(10);
      await screenshot(page, 'tree-performance-search');

      longest.push(
        await measureStep(setup.browser, page, 'clear the search', async () => {
          await page.getByTestId('tree-search').locator('input').fill('');
          await summary.filter({ hasText: 'Devices:' }).waitFor({ timeout: 30_000 });
        }, report),
      );

      longest.push(
        await measureStep(setup.browser, page, 'sensor filter: temperature', async () => {
          await pickSensor(page, 'Temperature');
          // 3,334 seeded devices carry a thermometer, and the sample devices that do
          await summary.filter({ hasText: /Matching: 33\d\d of/ }).waitFor({ timeout: 30_000 });
        }, report),
      );

      longest.push(
        await measureStep(setup.browser, page, 'expand all (filtered, ~4,300 rows)', async () => {
          await page.getByRole('button', { name: 'Expand all folders' }).click();
          await page.waitForFunction(() => document.querySelectorAll('[data-testid="device-tree"] .wt-tree-title[data-testid^="tree-device-"]').length > 5, undefined, { timeout: 30_000 });
        }, report),
      );

      longest.push(
        await measureStep(setup.browser, page, 'sensor filter: all', async () => {
          await pickSensor(page, 'All sensors');
          await summary.filter({ hasText: 'Devices:' }).waitFor({ timeout: 30_000 });
        }, report),
      );

      longest.push(
        await measureStep(setup.browser, page, 'expand all (11,000 rows)', async () => {
          await page.getByRole('button', { name: 'Expand all folders' }).click();
          await page.waitForFunction(() => document.querySelectorAll('[data-testid="device-tree"] .wt-tree-title[data-testid^="tree-device-"]').length > 5, undefined, { timeout: 30_000 });
        }, report),
      );

      longest.push(
        await measureStep(setup.browser, page, 'scroll the tree to the end', async () => {
          const list = page.locator('[data-testid="device-tree"] .ant-tree-list-holder');
          await list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
          await page.waitForFunction(() => document.querySelector('[data-testid="tree-device-870000000009999"]') !== null, undefined, { timeout: 30_000 });
        }, report),
      );
      await screenshot(page, 'tree-performance-expanded');

      longest.push(
        await measureStep(setup.browser, page, 'collapse all', async () => {
          await page.getByRole('button', { name: 'Collapse all folders' }).click();
          await page.waitForFunction(() => document.querySelectorAll('[data-testid="device-tree"] .wt-tree-title[data-testid^="tree-device-"]').length === 0, undefined, { timeout: 30_000 });
        }, report),
      );

      longest.push(
        await measureStep(setup.browser, page, 'type a name letter by letter', async () => {
          await page.getByTestId('tree-search').locator('input').pressSequentially('Tag 999', { delay: 30 });
          await summary.filter({ hasText: 'Matching: 11 of' }).waitFor({ timeout: 30_000 });
        }, report),
      );

      const worst = Math.max(...longest.map((l) => l.wall));
      const busiest = Math.max(...longest.map((l) => l.cpu));
      report.push(`longest main-thread task while filtering and expanding: ${worst ? `${Math.round(worst)} ms` : 'none over 50 ms'}; busiest ${Math.round(busiest)} ms CPU (budget ${BUDGET_MS} ms, fails over ${CEILING_MS})`);
      console.log(`\nDevice tree, ${FOLDERS} folders and ${FOLDERS * PER_FOLDER} devices (Chromium, long tasks ≥ 50 ms; CPU time from a trace):\n  ${report.join('\n  ')}\n`);
      // The trace saw the page's work (a broken trace reads 0 and would pass any ceiling).
      expect(busiest).toBeGreaterThan(0);
      expect(busiest).toBeLessThan(CEILING_MS);
    } catch (e) {
      await screenshot(page, 'debug-tree-performance-failure');
      console.log(report.join('\n'));
      throw e;
    } finally {
      await context.close();
    }
  }, 240_000);
});
