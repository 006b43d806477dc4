import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { formatTime } from '@wildtrack/contract';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsSettled, newContext, onScreen, type RunningServer, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * /track in the browser (issue 5), in both languages, with no network but the local server: a device
 * chosen in the tree, the last 7 days, the fixes table and the track on the map, the precision filter
 * 'AB', a fix marked invalid (the confirmation says it can't be undone) and found in the list of
 * converted-invalid fixes with its operator. Then a Movebank export with Env-DATA annotation columns,
 * imported by the operator command, and a fix's annotations in its detail under the file's names.
 */

const setup = serverAndBrowser({ serverPerTest: true });

const HOUR = 3_600_000;
const ZONE = '+08:00';
/** Fixes every 2 hours over the last 4 days. */
const FIXES = 48;

interface Seeded {
  /** Pick times (ms) of the fixes every 2 hours, oldest first. */
  times: number[];
  /** The first fix of the second-level run. */
  runStart: number;
  operator: string;
}

/**
 * The device's fixes, written straight into the server's SQLite file: 48 fixes every 2 hours with the
 * grades cycling A..E, 6, 7 (fix 5 without a position, fix 6 out of range), then a run of 10 fixes at
 * one a second half an hour ago (the device takes second-level fixes).
 */
function seed(file: string, imei: string, admin: string): Seeded {
  const db = new Database(file);
  try {
    db.pragma('busy_timeout = 5000');
    const device = db.prepare('SELECT id FROM devices WHERE imei = ?').get(imei) as { id: number };
    db.prepare('UPDATE devices SET second_level_fix = 1 WHERE id = ?').run(device.id);
    const user = db.prepare('SELECT user_name, nick_name FROM users WHERE user_name = ?').get(admin) as { user_name: string; nick_name: string };
    const insert = db.prepare(
      `INSERT INTO fixes (device_id, pick_time, lon, lat, alt, speed, course, temperature, activity, voltage, channel, satellites, hdop, vdop, grade, valid, tx_time, received_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // whole minutes: the table and the map name a fix by its time to the second
    const now = Math.floor(Date.now() / 60_000) * 60_000;
    const first = now - 4 * 24 * HOUR;
    const times: number[] = [];
    db.transaction(() => {
      for (let i = 0; i < FIXES; i++) {
        const t = first + i * 2 * HOUR;
        times.push(t);
        let lon: number | null = 121.47 + Math.sin(i / 6) * 0.08 + i * 0.004;
        let lat: number | null = 31.23 + Math.cos(i / 6) * 0.05 + i * 0.002;
        let valid = 1;
        if (i === 5) [lon, lat, valid] = [null, null, 0];
        if (i === 6) [lat, valid] = [95, 0];
        insert.run(device.id, t, lon, lat, 12 + (i % 9), i % 4 === 0 ? -1 : 3 + (i % 11), (i * 37) % 360, 18 + (i % 7) * 0.5, 20 + (i % 13), 3.95 - i * 0.002, 1, 6 + (i % 5), 0.9 + (i % 4) * 0.3, 1.2 + (i % 3) * 0.2, (i % 7) + 1, valid, t + 60_000, t + 60_000);
      }
      const runStart = now - 30 * 60_000;
      for (let s = 0; s < 10; s++) {
        insert.run(device.id, runStart + s * 1000, 121.7 + s * 0.00002, 31.35 + s * 0.00001, 15, 4, 90, 20, 30, 3.9, 1, 9, 0.8, 1.1, 1, 1, runStart + 60_000, runStart + 60_000);
      }
    })();
    return { times, runStart: now - 30 * 60_000, operator: user.nick_name || user.user_name };
  } finally {
    db.close();
  }
}

/** Env-DATA annotation columns as Movebank names them, and an e-obs column: none is a field of a fix. */
const WIND = 'ECMWF Interim Full Daily SFC Wind (10 m above Ground U Component)';
const CHLOROPHYLL = 'MODIS Ocean Aqua OceanColor 4km 8d Chlorophyll A (OCI)';
const EOBS = 'eobs:horizontal-accuracy-estimate';

interface Annotated {
  imei: string;
  /** Pick times (ms), oldest first; the last fix's annotation cells are empty. */
  times: number[];
  /** The annotations of the first fix, as the file writes them. */
  first: Record<string, string>;
}

/**
 * A small Movebank export of one albatross (three GPS fixes over the last hours, whole minutes) with
 * annotation columns, imported into the admin's organisation by `wildtrack import-movebank`; the
 * device is found by its folder, whatever IMEI the import gives it.
 */
async function importAnnotated(server: RunningServer, folder: string): Promise<Annotated> {
  const dir = mkdtempSync(join(tmpdir(), 'wildtrack-annotated-'));
  try {
    const now = Math.floor(Date.now() / 60_000) * 60_000;
    const times = [now - 3 * HOUR, now - 2 * HOUR, now - HOUR];
    const stamp = (t: number) => new Date(t).toISOString().replace('T', ' ').replace('Z', '');
    const header = ['event-id', 'visible', 'timestamp', 'location-long', 'location-lat', 'gps:satellite-count', 'height-above-msl', 'sensor-type', 'individual-taxon-canonical-name', 'tag-local-identifier', 'individual-local-identifier', 'study-name', WIND, CHLOROPHYLL, EOBS];
    const values = [
      ['-3.2145', '0.318', '3.84'],
      ['1.07', '0.297', '5.12'],
      ['', '', ''],
    ];
    const rows = times.map((t, i) => [String(1000 + i), 'true', stamp(t), String(-89.62 + i * 0.01), String(-1.38 + i * 0.01), '7', '12', 'gps', 'Phoebastria irrorata', `T-${folder}`, `Albatross ${folder}`, 'Annotated albatrosses', ...values[i]!]);
    const quote = (c: string) => (/[",]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c);
    const file = join(dir, 'annotated.csv');
    writeFileSync(file, [header, ...rows].map((r) => r.map(quote).join(',')).join('\n') + '\n');
    await server.cli('import-movebank', '--org', 'Wildtrack', '--folder', folder, '--file', file);
    const db = new Database(server.databaseFile, { readonly: true });
    try {
      const { imei } = db.prepare('SELECT d.imei FROM devices d JOIN folders f ON f.id = d.folder_id WHERE f.name = ?').get(folder) as { imei: string };
      return { imei, times, first: { 'event-id': '1000', [WIND]: values[0]![0]!, [CHLOROPHYLL]: values[0]![1]!, [EOBS]: values[0]![2]! } };
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cases = [
  {
    locale: 'zh-CN' as const,
    tag: 'zh',
    imei: '861000000005101',
    t: { menu: '位置', threeDays: '3 天', sevenDays: '7 天', undo: '此操作不可撤销', marked: '已将 1 条定位标记为无效', average: '10 条平均', detail: '定位详情', annotations: '附加数据' },
  },
  {
    locale: 'en-US' as const,
    tag: 'en',
    imei: '861000000005202',
    t: { menu: 'Location', threeDays: '3 days', sevenDays: '7 days', undo: "This can't be undone", marked: '1 fix marked invalid', average: 'average of 10', detail: 'Fix details', annotations: 'Annotations' },
  },
];

/**
 * Picks an option of the span select. Its list is virtual and opens scrolled to the chosen span, so it
 * is scrolled to the top first; a click during the dropdown's animation that picked nothing is made again.
 */
async function pickSpan(page: Page, label: string): Promise<void> {
  const select = page.getByTestId('time-span');
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
  for (let attempt = 1; ; attempt++) {
    try {
      await select.click();
      await dropdown.locator('.ant-select-item-option').first().waitFor();
      await dropdown.locator('.ant-select-item-option').first().hover();
      await page.mouse.wheel(0, -2000);
      await dropdown.locator('.ant-select-item-option').filter({ hasText: new RegExp(`^${label}$`) }).click({ timeout: 5_000 });
      await select.locator('.ant-select-content, .ant-select-selection-item').filter({ hasText: new RegExp(`^${label}$`) }).first().waitFor({ timeout: 5_000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
      await page.keyboard.press('Escape');
    }
  }
}

/** Signs the admin in, goes to /track by the menu and chooses the device in the tree; answers the tree. */
async function openTrack(page: Page, server: RunningServer, menu: string, imei: string): Promise<Locator> {
  await signIn(page, server.baseUrl, server.admin);
  await page.waitForURL(`${server.baseUrl}/device`);
  await page.locator('.wt-top-menu').getByRole('link', { name: menu, exact: true }).click();
  await onScreen(page, '/track');
  const tree = page.getByTestId('device-tree');
  await page.getByTestId('tree-search').locator('input').fill(imei.slice(-6));
  await tree.getByTestId(`tree-device-${imei}`).click();
  await page.locator(`[data-testid="track-page"][data-imei="${imei}"]`).waitFor();
  return tree;
}

/** Waits until the table shows this total (the rows of the range and filters, read from the server). */
async function tableTotal(page: Page, total: number): Promise<void> {
  await page.waitForFunction(
    (n) => {
      const box = document.querySelector('.wt-track-table');
      return box?.getAttribute('data-total') === String(n) && !box.querySelector('.ant-spin-spinning');
    },
    total,
    { timeout: 20_000 },
  );
}

describe.each(cases)('/track ($locale)', ({ locale, tag, imei, t }) => {
  it('a device from the tree, the last 7 days, the table and the track, precision AB, a fix marked invalid', async () => {
    await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', imei, '--caption', `Stork ${tag}`, '--sensors', 'GNSS,Temperature', '--species', 'bird', '--folder', `Wetland-${tag}`);
    const seeded = seed(setup.server.databaseFile, imei, setup.server.admin.account);

    // only the local server answers: every other host is refused
    const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
    const page = await context.newPage();
    try {
      // ---- a device from the tree (no checkboxes on /track) ----
      const tree = await openTrack(page, setup.server, t.menu, imei);
      expect(await tree.locator('.ant-tree-checkbox').count()).toBe(0);

      // ---- the last 7 days: 48 fixes and the second-level run as one average ----
      await pickSpan(page, t.threeDays);
      await pickSpan(page, t.sevenDays);
      await tableTotal(page, FIXES + 1);
      const table = page.getByTestId('fix-table');
      expect(await table.locator('tbody tr.ant-table-row').count()).toBe(20);
      await table.getByTestId('fix-average').filter({ hasText: t.average }).waitFor();
      // the track: every fix with a position (47) and the run's average; the map draws those on earth
      // (not the one at latitude 95), invalid ones grey
      await page.waitForFunction(() => document.querySelector('[data-testid="track-map"]')?.getAttribute('data-points') === '48');
      await page.locator('[data-testid="track-map"] [data-testid="map"][data-state="ready"]').waitFor();
      await page.waitForFunction((i) => document.querySelector('[data-testid="track-map"] [data-testid="map"]')?.getAttribute('data-tracks') === `${i}:47`, imei);
      // a row chosen in the table is ringed on the map
      const chosen = seeded.times[40]!; // the 9th row of page 1, newest first
      await table.locator(`tr[data-row-key="${chosen}"] td`).nth(3).click();
      await page.waitForFunction(() => Number(document.querySelector('[data-testid="track-map"]')?.getAttribute('data-active-index')) >= 0);
      // ... and its dot, clicked while the table shows page 3, brings back the page holding it
      await page.locator('.wt-track-table .ant-pagination-item-3').click();
      await page.waitForFunction(() => document.querySelector('.wt-track-table')?.getAttribute('data-page') === '3' && !document.querySelector('.wt-track-table .ant-spin-spinning'));
      // The map's flight to the chosen fix, if it took one (it starts with the choice), has ended: the
      // chosen fix's point on screen is final.
      const mapView = page.locator('[data-testid="track-map"] [data-testid="map"]');
      await page.locator('[data-testid="track-map"] [data-testid="map"][data-moving="0"]').waitFor();
      const [x, y] = ((await mapView.getAttribute('data-active-point')) ?? '').split(',').map(Number);
      const box = (await mapView.boundingBox())!;
      // A click a busy machine's map missed (still drawing) is made again, once.
      for (let attempt = 1; ; attempt++) {
        await page.mouse.move(box.x + x!, box.y + y!);
        await page.mouse.click(box.x + x!, box.y + y!);
        try {
          await page.waitForFunction(
            (id) => document.querySelector('.wt-track-table')?.getAttribute('data-page') === '1' && !!document.querySelector(`tr[data-row-key="${id}"].wt-row-active`),
            String(chosen),
            { timeout: 10_000 },
          );
          break;
        } catch (e) {
          if (attempt >= 2) throw e;
        }
      }
      await screenshot(page, `track-${locale}-table-and-track`);

      // ---- precision 'AB': grades 1 and 2 (14 fixes and the run) ----
      await page.getByTestId('filters-toggle').click();
      for (const letter of ['C', 'D', 'E', 'N']) await page.getByTestId(`filter-grade-${letter}`).click();
      expect(await page.getByTestId('filter-precision').getAttribute('data-value')).toBe('AB');
      await page.getByTestId('filter-apply').click();
      await tableTotal(page, 15);
      const grades = await table.getByTestId('fix-grade').evaluateAll((els) => els.map((e) => e.getAttribute('data-grade')));
      expect(grades).toHaveLength(15);
      expect(new Set(grades)).toEqual(new Set(['A', 'B']));
      await page.waitForFunction(() => document.querySelector('[data-testid="track-map"]')?.getAttribute('data-points') === '15');
      await screenshot(page, `track-${locale}-precision-ab`);

      // ---- mark one fix invalid: it can't be undone ----
      const target = seeded.times[7]!; // grade A
      const row = table.locator(`tr[data-row-key="${target}"]`);
      await row.locator('.ant-checkbox-input').check();
      await page.getByTestId('mark-invalid').click();
      const confirm = page.getByTestId('mark-confirm');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(t.undo);
      await animationsSettled(page); // the dialog faded in
      await screenshot(page, `track-${locale}-mark-confirm`);
      // the day of the mark in the user's zone, read on both sides of it: a run across midnight at +08:00 sees either
      const markedDays = new Set([formatTime(Date.now(), ZONE).slice(0, 10)]);
      await page.getByTestId('mark-confirm-ok').click();
      await page.locator('.ant-message').getByText(t.marked).waitFor();
      await page.locator(`tr[data-row-key="${target}"][data-state="marked"]`).waitFor();
      markedDays.add(formatTime(Date.now(), ZONE).slice(0, 10));
      // the validity mark names who marked it and when (its label; the table shows an icon): marked today
      const validity = (await row.getByTestId('fix-validity').getAttribute('aria-label')) ?? '';
      expect([...markedDays].some((day) => validity.includes(day)), `${validity} names none of ${[...markedDays].join(', ')}`).toBe(true);

      // ---- the converted-invalid list: the fix, who and when ----
      await page.getByTestId('converted-open').click();
      const drawer = page.getByTestId('converted-table');
      const listed = drawer.locator(`tr[data-row-key="${target}"]`);
      await listed.waitFor();
      expect(await listed.textContent()).toContain(formatTime(target, ZONE));
      expect(await listed.getByTestId('converted-operator').textContent()).toBe(seeded.operator);
      await animationsSettled(page); // the drawer slid in
      await screenshot(page, `track-${locale}-converted-invalid`);
    } catch (e) {
      await screenshot(page, `debug-track-${locale}-failure`);
      throw e;
    } finally {
      await context.close();
    }
  }, 180_000);

  it("an imported Movebank fix's annotations in its detail, under the file's names", async () => {
    const annotated = await importAnnotated(setup.server, `Albatross-${tag}`);
    // only the local server answers: every other host is refused
    const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
    const page = await context.newPage();
    try {
      await openTrack(page, setup.server, t.menu, annotated.imei);
      // the last 7 days (the default span) hold the three fixes
      await tableTotal(page, 3);
      const table = page.getByTestId('fix-table');

      // ---- the first fix: its detail with the annotations, names and values as the file has them ----
      await table.locator(`tr[data-row-key="${annotated.times[0]}"] td`).nth(3).click();
      const detail = page.locator(`[data-testid="fix-detail"][data-id="${annotated.times[0]}"]`);
      await detail.waitFor();
      expect(await detail.locator('.wt-fix-detail-head').textContent()).toContain(t.detail);
      const section = detail.getByTestId('fix-annotations');
      await section.waitFor();
      expect(await section.locator('h5').textContent()).toBe(t.annotations);
      const shown = await section.locator('.ant-descriptions-row').evaluateAll((rows) =>
        Object.fromEntries(rows.map((r) => [r.querySelector('[data-annotation]')?.getAttribute('data-annotation') ?? '', r.querySelector('td')?.textContent ?? ''])),
      );
      expect(shown).toMatchObject(annotated.first);
      // what a fix's own fields hold is not repeated
      for (const mapped of ['timestamp', 'location-long', 'gps:satellite-count', 'height-above-msl']) expect(shown).not.toHaveProperty(mapped);
      await section.scrollIntoViewIfNeeded();
      await animationsSettled(page);
      await screenshot(page, `track-${locale}-fix-annotations`);

      // ---- the last fix's annotation cells are empty: only its event-id is left ----
      await table.locator(`tr[data-row-key="${annotated.times[2]}"] td`).nth(3).click();
      const last = page.locator(`[data-testid="fix-detail"][data-id="${annotated.times[2]}"][data-state="ready"]`);
      await last.waitFor();
      const names = await last.locator('[data-annotation]').evaluateAll((els) => els.map((e) => e.getAttribute('data-annotation')));
      expect(names).toEqual(['event-id']);
    } catch (e) {
      await screenshot(page, `debug-track-${locale}-annotations-failure`);
      throw e;
    } finally {
      await context.close();
    }
  }, 180_000);
});
