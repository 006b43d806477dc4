import { readFileSync } from 'node:fs';
import { GetDownloadTaskCount } from '@wildtrack/contract';
import { IngestClient } from '@wildtrack/simulator';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { zipEntries } from '../../apps/server/src/test/zip-entries';
import { apiSignIn } from './api';
import { animationsSettled, catalogue, lookup, newContext, onScreen, screenshot, serverAndBrowser } from './harness';

/**
 * /download (issue 16 items 3-4) in both languages, no network beyond the local server: two devices
 * checked in the tree, positions and temperature -> a download task; a second task is cancelled after
 * confirmation; the first runs (the server is started with DOWNLOAD_TASKS=off and the operator's
 * `run-download-tasks` runs the queue: the cancel meets a task that is certainly still WAITING) and
 * reaches SUCCESSFUL with its time left; its zip downloads and holds a file per device and kind. While both wait,
 * each shows its place in the queue (1 and 2), and the cancelled one leaves the first in first place.
 */
const setup = serverAndBrowser({ env: { DOWNLOAD_TASKS: 'off' } });

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', texts: catalogue('zh-CN.json'), a: '861600000000101', b: '861600000000102' },
  { locale: 'en-US' as const, tag: 'en', texts: catalogue('en-US.json'), a: '861600000000201', b: '861600000000202' },
];

beforeAll(async () => {
  const now = Date.now();
  const H = 3_600_000;
  for (const c of cases) {
    for (const [imei, caption] of [
      [c.a, `Egret ${c.tag} A`],
      [c.b, `Egret ${c.tag} B`],
    ] as const) {
      const out = await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', imei, '--caption', caption, '--sensors', 'GNSS,Temperature', '--species', 'bird');
      const secret = (JSON.parse(out) as { secret: string }).secret;
      // three fixes and two temperatures in the last day: inside the form's default range (7 days)
      await new IngestClient(setup.server.baseUrl, { imei, secret }).sendBatch({
        fixes: { t: [now - 20 * H, now - 10 * H, now - 2 * H], lon: [116.3, 116.31, 116.32], lat: [39.9, 39.91, 39.92] },
        sensors: [{ kind: 'temperature', t: [now - 20 * H, now - 10 * H], v: [[18.5], [19]] }],
      });
    }
  }
});

const treeRow = (page: Page, imei: string): Locator => page.locator('[role=treeitem]', { has: page.getByTestId(`tree-device-${imei}`) });
const taskRows = (page: Page): Locator => page.getByTestId('download-tasks').locator('tr[data-task]');
const statusOf = (row: Locator) => row.getAttribute('data-status');

describe.each(cases)('data download ($tag)', ({ locale, tag, texts, a, b }) => {
  const t = (key: string, vars?: Record<string, string | number>) => lookup(texts, key, vars);

  it('creates a task for two devices and two kinds, cancels another, and downloads the first once SUCCESSFUL', { timeout: 300_000 }, async () => {
    // only the local server answers: every other host fails, as on a field laptop without a network
    const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
    const page = await context.newPage();
    try {
      await page.goto(`${setup.server.baseUrl}/download`);
      await page.locator('#account').waitFor({ timeout: 90_000 });
      await page.locator('#account').fill(setup.server.admin.account);
      await page.locator('#pwd').fill(setup.server.admin.password);
      await page.locator('button[type=submit]').click();
      await onScreen(page, '/download', 90_000);
      await page.getByTestId('download-page').waitFor({ timeout: 60_000 });
      // nothing checked yet: the form says where devices come from
      await page.getByText(t('download.form.checkDevices')).waitFor();
      // the tasks already there (the other language's): counted by the server, not by a list still loading
      const api = await apiSignIn(setup.server.baseUrl, setup.server.admin.account, setup.server.admin.password);
      const before = (await api.call(GetDownloadTaskCount, {})).Count;

      // ---- both egrets checked in the tree; positions (default) and temperature ----
      await page.getByTestId('tree-search').locator('input').fill(`Egret ${tag}`);
      await treeRow(page, a).waitFor();
      await treeRow(page, a).getByRole('checkbox').click();
      await treeRow(page, b).getByRole('checkbox').click();
      await page.getByTestId('download-chosen').locator(`[data-imei="${b}"]`).waitFor();
      expect(await page.getByTestId('download-chosen').locator('[data-imei]').evaluateAll((tags) => tags.map((e) => e.getAttribute('data-imei')).sort())).toEqual([a, b].sort());
      await page.getByTestId('download-kinds').getByText(t('download.kind.temperature'), { exact: true }).click();
      await page.getByTestId('download-create').click();
      await expect.poll(() => taskRows(page).count(), { timeout: 30_000 }).toBe(before + 1);
      const first = taskRows(page).first();
      const firstId = (await first.getAttribute('data-task'))!;
      expect(await statusOf(first)).toBe('WAITING');
      expect(await first.textContent()).toContain(t('download.status.WAITING'));

      // ---- a second task (positions only), cancelled after confirmation ----
      await page.getByTestId('download-kinds').getByText(t('download.kind.temperature'), { exact: true }).click();
      await page.getByTestId('download-create').click();
      await expect.poll(() => taskRows(page).count(), { timeout: 30_000 }).toBe(before + 2);
      const second = page.locator(`tr[data-task]:not([data-task="${firstId}"])`).first();
      const secondId = (await second.getAttribute('data-task'))!;
      // both wait, nothing runs them yet: each shows its place in the queue (issue 26 L7)
      const placeOf = (id: string) => page.locator(`tr[data-task="${id}"]`).getByTestId('task-queue-position');
      await expect.poll(() => placeOf(secondId).textContent()).toBe(t('download.list.queuePosition', { position: 2 }));
      expect(await placeOf(firstId).textContent()).toBe(t('download.list.queuePosition', { position: 1 }));
      await animationsSettled(page);
      await screenshot(page, `download-queue-${tag}`);
      await second.getByTestId('task-cancel').click();
      const confirm = page.locator('.ant-modal-confirm');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(t('download.list.cancelTitle'));
      await confirm.locator('.ant-btn-primary').click();
      const secondRow = page.locator(`tr[data-task="${secondId}"]`);
      await expect.poll(() => statusOf(secondRow), { timeout: 30_000 }).toBe('CANCELLED');
      expect(await secondRow.textContent()).toContain(t('download.status.CANCELLED'));
      expect(await secondRow.getByTestId('task-queue-position').count()).toBe(0);
      expect(await placeOf(firstId).textContent()).toBe(t('download.list.queuePosition', { position: 1 }));

      // ---- the queue runs (another process): the first task reaches SUCCESSFUL, watched by the page's polling ----
      await setup.server.cli('run-download-tasks');
      const firstRow = page.locator(`tr[data-task="${firstId}"]`);
      await expect.poll(() => statusOf(firstRow), { timeout: 60_000 }).toBe('SUCCESSFUL');
      expect(await firstRow.textContent()).toContain(t('download.status.SUCCESSFUL'));
      // kept 7 days: "6 d 23 h" or "7 d 0 h" by the time it is read
      const left = await firstRow.getByTestId('task-left').textContent();
      expect([t('download.list.daysHours', { days: 7, hours: 0 }), t('download.list.daysHours', { days: 6, hours: 23 })]).toContain(left);
      expect(await secondRow.getAttribute('data-status')).toBe('CANCELLED');
      await firstRow.scrollIntoViewIfNeeded();
      await animationsSettled(page);
      await screenshot(page, `download-${tag}`);

      // ---- its zip: a file per device and kind ----
      const [file] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), firstRow.getByTestId('task-download').click()]);
      expect(file.suggestedFilename()).toMatch(/^download-\d+-\d{4}-\d\d-\d\d\.zip$/);
      const entries = zipEntries(readFileSync((await file.path())!));
      const names = [...entries.keys()];
      expect(names).toHaveLength(4);
      for (const imei of [a, b]) expect(names.filter((n) => n.includes(`(${imei})`)), names.join(', ')).toHaveLength(2);
      for (const [name, bytes] of entries) {
        const lines = bytes.toString('utf8').replace(/^\uFEFF/, '').trim().split(/\r?\n/);
        const temperature = name.includes(t('download.kind.temperature')) || /temperature|温度/i.test(name);
        expect(lines.length, name).toBe(1 + (temperature ? 2 : 3));
      }
    } catch (err) {
      await screenshot(page, `download-${tag}-failed`);
      throw err;
    } finally {
      await context.close();
    }
  });
});
