import { parseTime } from '@wildtrack/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsSettled, chooseUserMenuItem, newContext, recordBodies, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * Context kept (issue 12 item 3), in both languages: the device chosen on /device is the one /track and
 * the maps open with, and the one chosen on /track is the one /device shows on return; a multi-device
 * map selection survives a visit to /track; the URL carries device, tab and range, so a reload and the
 * copied URL in another browser open the same view; a link naming a device the viewer cannot see says
 * so; and a new time zone shows the same instants (the range's text moves by the offset, the instants
 * the server is asked for do not).
 */

const setup = serverAndBrowser({ serverPerTest: true });

const cases = [
  {
    locale: 'zh-CN' as const,
    tag: 'zh',
    imeis: ['861000000007101', '861000000007102'],
    t: { device: '设备列表', track: '位置', map: '地图展示', map2d: '二维地图', map3d: '三维地球', work: '工作状态', settings: '设置', unknown: '不在您的设备中', signOut: '退出登录' },
  },
  {
    locale: 'en-US' as const,
    tag: 'en',
    imeis: ['861000000007201', '861000000007202'],
    t: { device: 'Device list', track: 'Location', map: 'Map display', map2d: '2D map', map3d: '3D earth', work: 'Work status', settings: 'Settings', unknown: 'not among your devices', signOut: 'Sign out' },
  },
];

const search = (page: Page) => new URL(page.url()).searchParams;

/** Goes to a screen by the top menu (a map through its dropdown; a click lost in its animation made again). */
async function byMenu(page: Page, label: string, path: string, group?: string): Promise<void> {
  const menu = page.locator('.wt-top-menu');
  for (let attempt = 1; ; attempt++) {
    try {
      if (group) {
        await menu.getByText(group, { exact: true }).hover();
        await page.locator('.ant-menu-submenu-popup:not(.ant-menu-submenu-hidden)').getByRole('link', { name: label, exact: true }).click({ timeout: 30_000 });
      } else await menu.getByRole('link', { name: label, exact: true }).click({ timeout: 30_000 });
      await page.waitForURL((url) => url.pathname === path, { timeout: 30_000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
      await page.mouse.move(0, 0);
    }
  }
}

/** Chooses a device in the tree by searching for it (a search typed while the tree redrew is typed again). */
async function chooseInTree(page: Page, imei: string): Promise<void> {
  const input = page.getByTestId('tree-search').locator('input');
  for (let attempt = 1; ; attempt++) {
    try {
      await input.fill('');
      await input.fill(imei.slice(-6));
      await page.getByTestId('device-tree').getByTestId(`tree-device-${imei}`).click({ timeout: 15_000 });
      return;
    } catch (e) {
      if (attempt >= 3) throw e;
    }
  }
}

/** The range the time picker shows (its two ends, in the user's zone). */
async function shownRange(page: Page, scope = 'track-page'): Promise<[string | null, string | null]> {
  const box = page.getByTestId(scope).getByTestId('time-range');
  return [await box.getAttribute('data-start', { timeout: 60_000 }), await box.getAttribute('data-end')];
}

describe.each(cases)('context kept ($locale)', ({ locale, tag, imeis, t }) => {
  it('device, tab, range and map devices across screens, reloads, copied links and a new time zone', async () => {
    const [first, second] = imeis as [string, string];
    for (const imei of imeis) {
      await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', imei, '--caption', `Context ${tag} ${imei.slice(-3)}`, '--sensors', 'GNSS', '--species', 'bird', '--folder', `Context-${tag}`);
    }
    const base = setup.server.baseUrl;
    // only the local server answers: every other host is refused
    const context = await newContext(setup.browser, locale, { offline: base });
    // both cores are shared with the other specs: a screen's first load may take a while
    context.setDefaultTimeout(30_000);
    const page = await context.newPage();
    // the bodies of the fix-page queries /track sends
    const fixCalls = recordBodies(page, (url) => (url.pathname.endsWith('/api/Fix/GetListByPage') ? 'fix' : null));
    const fixQueries = (): Record<string, unknown>[] => fixCalls.map((c) => c.body);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    const other = await newContext(setup.browser, locale, { offline: base });
    other.setDefaultTimeout(30_000);
    // whether the /track table had its checkbox column in its first frame: a link opened before the tree
    // loaded must show the device with its rights, not with none and then its rights
    await other.addInitScript(() => {
      const seen = new MutationObserver(() => {
        const head = document.querySelector('.wt-track-table .ant-table-thead');
        if (!head) return;
        (window as unknown as { firstTrackTable?: boolean }).firstTrackTable = head.querySelector('.ant-table-selection-column') !== null;
        seen.disconnect();
      });
      seen.observe(document, { childList: true, subtree: true });
    });
    try {
      // ---- /device: a device and a tab, carried by the URL ----
      await signIn(page, base, setup.server.admin);
      await page.waitForURL((url) => url.pathname === '/device', { timeout: 60_000 });
      await chooseInTree(page, first);
      await page.locator(`[data-testid="device-details"][data-imei="${first}"]`).waitFor();
      await page.getByRole('tab', { name: t.work }).click();
      await expect.poll(() => [search(page).get('device'), search(page).get('tab')], { timeout: 30_000 }).toEqual([first, 'work']);

      // ---- /track opens with it ----
      await byMenu(page, t.track, '/track');
      await page.locator(`[data-testid="track-page"][data-imei="${first}"]`).waitFor({ timeout: 30_000 });
      await expect.poll(() => search(page).get('device'), { timeout: 30_000 }).toBe(first);
      expect(search(page).get('span')).toBe('7');

      // ---- a device chosen on /track is the one /device shows on return, on the tab left open ----
      await chooseInTree(page, second);
      await page.locator(`[data-testid="track-page"][data-imei="${second}"]`).waitFor();
      await byMenu(page, t.device, '/device');
      await page.locator(`[data-testid="device-details"][data-imei="${second}"]`).waitFor();
      await expect.poll(() => [search(page).get('device'), search(page).get('tab')], { timeout: 30_000 }).toEqual([second, 'work']);
      expect(await page.getByRole('tab', { name: t.work }).getAttribute('aria-selected')).toBe('true');

      // ---- the maps open with it ----
      await byMenu(page, t.map2d, '/map2d', t.map);
      await expect.poll(() => search(page).get('devices'), { timeout: 30_000 }).toBe(second);
      await byMenu(page, t.map3d, '/map3d', t.map);
      await expect.poll(() => search(page).get('devices'), { timeout: 30_000 }).toBe(second);

      // ---- a multi-device map selection (from a link) survives a visit to /track ----
      await page.goto(`${base}/map2d?devices=${first},${second}&span=3`);
      await page.getByTestId('map2d').waitFor({ timeout: 60_000 });
      await page.getByTestId('map2d').and(page.locator('[data-loading="0"]')).waitFor({ timeout: 60_000 });
      // both are the viewer's: none dropped
      expect(search(page).get('devices')).toBe(`${first},${second}`);
      await animationsSettled(page);
      await screenshot(page, `context-${locale}-map-two-devices`);
      await byMenu(page, t.track, '/track');
      await page.locator(`[data-testid="track-page"][data-imei="${second}"]`).waitFor({ timeout: 30_000 });
      // the map's range is /track's too
      await expect.poll(() => search(page).get('span'), { timeout: 30_000 }).toBe('3');
      await byMenu(page, t.map2d, '/map2d', t.map);
      await expect.poll(() => search(page).get('devices'), { timeout: 30_000 }).toBe(`${first},${second}`);
      expect(search(page).get('span')).toBe('3');

      // ---- /track from a link with a custom range: shown in the zone; a reload keeps it ----
      const from = '2026-04-18T00:00:00+08:00';
      const to = '2026-04-19T23:59:59+08:00';
      const trackUrl = `${base}/track?device=${first}&from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
      await page.goto(trackUrl);
      await page.locator(`[data-testid="track-page"][data-imei="${first}"]`).waitFor({ timeout: 60_000 });
      await expect.poll(() => shownRange(page), { timeout: 30_000 }).toEqual(['2026-04-18 00:00:00', '2026-04-19 23:59:59']);
      await expect.poll(() => fixQueries().at(-1), { timeout: 30_000 }).toMatchObject({ imei: first, startTime: '2026-04-18 00:00:00', endTime: '2026-04-19 23:59:59', timeZone: '+08:00' });
      await page.reload();
      await page.locator(`[data-testid="track-page"][data-imei="${first}"]`).waitFor({ timeout: 60_000 });
      await expect.poll(() => shownRange(page), { timeout: 30_000 }).toEqual(['2026-04-18 00:00:00', '2026-04-19 23:59:59']);
      expect([search(page).get('device'), search(page).get('from'), search(page).get('to')]).toEqual([first, from, to]);
      await animationsSettled(page);
      await screenshot(page, `context-${locale}-track-reloaded`);
      const copied = page.url();

      // ---- /device reloaded: device and tab ----
      await byMenu(page, t.device, '/device');
      await page.locator(`[data-testid="device-details"][data-imei="${first}"]`).waitFor();
      const deviceUrl = page.url();
      await page.reload();
      await page.locator(`[data-testid="device-details"][data-imei="${first}"]`).waitFor({ timeout: 60_000 });
      expect(await page.getByRole('tab', { name: t.work }).getAttribute('aria-selected')).toBe('true');

      // ---- the copied URLs in another browser: sign-in, then the same views ----
      const fresh = await other.newPage();
      await fresh.goto(copied);
      await fresh.waitForURL((url) => url.pathname === '/login');
      await fresh.locator('#account').fill(setup.server.admin.account);
      await fresh.locator('#pwd').fill(setup.server.admin.password);
      await fresh.locator('button[type=submit]').click();
      await fresh.locator(`[data-testid="track-page"][data-imei="${first}"]`).waitFor({ timeout: 60_000 });
      await expect.poll(() => shownRange(fresh), { timeout: 30_000 }).toEqual(['2026-04-18 00:00:00', '2026-04-19 23:59:59']);
      // the admin may mark fixes: the checkbox column was there from the table's first frame
      expect(await fresh.evaluate(() => (window as unknown as { firstTrackTable?: boolean }).firstTrackTable)).toBe(true);
      await fresh.goto(deviceUrl);
      await fresh.locator(`[data-testid="device-details"][data-imei="${first}"]`).waitFor({ timeout: 60_000 });
      expect(await fresh.getByRole('tab', { name: t.work }).getAttribute('aria-selected')).toBe('true');

      // ---- a link to a device this viewer cannot see, and bad params: said, no crash ----
      await fresh.goto(`${base}/track?device=869999999999999&span=5&from=yesterday`);
      await fresh.getByTestId('unknown-device').filter({ hasText: t.unknown }).waitFor({ timeout: 60_000 });
      await fresh.getByTestId('track-page').waitFor();
      await expect.poll(() => [null, '869999999999999'].includes(search(fresh).get('device')), { timeout: 30_000 }).toBe(false);
      // the bad span and start are dropped: the range kept from before stands
      expect([search(fresh).get('span'), search(fresh).get('from')]).toEqual([null, from]);
      await animationsSettled(fresh);
      await screenshot(fresh, `context-${locale}-unknown-device`);
      await fresh.goto(`${base}/map2d?devices=869999999999999,${second}`);
      await fresh.getByTestId('unknown-device').filter({ hasText: t.unknown }).waitFor({ timeout: 60_000 });
      await expect.poll(() => search(fresh).get('devices'), { timeout: 30_000 }).toBe(second);

      // ---- a new time zone: the same instants, other wall-clock text ----
      await page.goto(copied);
      await page.locator(`[data-testid="track-page"][data-imei="${first}"]`).waitFor({ timeout: 60_000 });
      await expect.poll(() => shownRange(page), { timeout: 30_000 }).toEqual(['2026-04-18 00:00:00', '2026-04-19 23:59:59']);
      await fixCalls.settled();
      const before = fixCalls.length;
      await chooseUserMenuItem(page, new RegExp(`${t.settings}$`), page.getByTestId('settings-form'));
      const zone = page.getByTestId('settings-time-zone');
      for (let attempt = 1; ; attempt++) {
        await zone.click();
        await zone.getByRole('combobox').fill('-05');
        await page.locator('.ant-select-item-option[title="-05:00"]').click();
        try {
          await zone.filter({ hasText: '-05:00' }).waitFor({ timeout: 5_000 });
          break;
        } catch (e) {
          if (attempt >= 3) throw e;
          await page.keyboard.press('Escape');
        }
      }
      await page.getByTestId('settings-save').click();
      await page.getByTestId('settings-form').waitFor({ state: 'detached' });
      // 00:00 at +08:00 is 11:00 the day before at -05:00
      await expect.poll(() => shownRange(page), { timeout: 30_000 }).toEqual(['2026-04-17 11:00:00', '2026-04-19 10:59:59']);
      await expect.poll(() => fixQueries().slice(before).find((q) => q.timeZone === '-05:00'), { timeout: 30_000 }).toBeTruthy();
      const after = fixQueries().slice(before).find((q) => q.timeZone === '-05:00')!;
      expect([parseTime(after.startTime as string, '-05:00'), parseTime(after.endTime as string, '-05:00')]).toEqual([Date.parse(from), Date.parse(to)]);
      // the URL says the same instants in the new zone
      await expect.poll(() => search(page).get('from'), { timeout: 30_000 }).toBe('2026-04-17T11:00:00-05:00');
      await animationsSettled(page);
      await screenshot(page, `context-${locale}-new-zone`);

      // ---- signed out, another user signs in on this browser: the tree's defaults, nothing of the previous user's ----
      const next = { account: `ctx${tag}next`, password: 'Context2026x' };
      await setup.server.cli('create-user', '--org', 'Wildtrack', '--name', next.account, '--password', next.password, '--email', `${next.account}@example.org`, '--primary');
      const confirm = page.locator('.ant-modal-confirm');
      await chooseUserMenuItem(page, t.signOut, confirm);
      await confirm.getByRole('button', { name: t.signOut }).click();
      await page.waitForURL((url) => url.pathname === '/login');
      await page.locator('#account').fill(next.account);
      await page.locator('#pwd').fill(next.password);
      await page.locator('button[type=submit]').click();
      await page.waitForURL((url) => url.pathname === '/device', { timeout: 60_000 });
      // the tree's default device shows, on the first tab, and the URL stays bare (nothing chosen yet)
      await page.locator('[data-testid="device-details"][data-imei]').waitFor({ timeout: 60_000 });
      await expect.poll(() => page.evaluate(() => sessionStorage.getItem('wildtrack_position_selection')), { timeout: 30_000 }).toContain('"explicit":false');
      expect(new URL(page.url()).search).toBe('');
      expect(await page.getByRole('tab', { name: t.work }).getAttribute('aria-selected')).toBe('false');
      expect(await page.getByTestId('unknown-device').count()).toBe(0);
      await byMenu(page, t.track, '/track');
      await page.locator('[data-testid="track-page"][data-imei]').waitFor({ timeout: 30_000 });
      // the last 7 days, not the previous user's range
      await expect.poll(() => shownRange(page), { timeout: 30_000 }).not.toEqual(['2026-04-17 11:00:00', '2026-04-19 10:59:59']);
      expect((await shownRange(page))[0]).not.toBe('2026-04-18 00:00:00');
      expect(new URL(page.url()).search).toBe('');
      await animationsSettled(page);
      await screenshot(page, `context-${locale}-next-user`);
    } catch (e) {
      // what each page showed when it failed
      for (const [i, p] of [page, ...other.pages()].entries()) await screenshot(p, `context-${locale}-failed-${i}`).catch(() => undefined);
      console.error(`page errors (${locale}): ${errors.join('\n') || 'none'}; at ${page.url()}`);
      throw e;
    } finally {
      await context.close();
      await other.close();
    }
  }, 300_000);
});
