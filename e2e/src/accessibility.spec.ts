import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { animationsSettled, chooseUserMenuItem, newContext, screenshot, serverAndBrowser, signIn, type StorageState } from './harness';
import { screenshotDir } from './paths';

/**
 * Issue 12 item 7, accessibility, in both languages: axe-core on every screen (sign-in, /device with its
 * details tabs and dialogs, /track, /map2d, /map3d, the error page, not-found) with no serious or critical
 * violation; a visible focus ring of at least 3:1 against its background; unique field ids across the
 * dialogs; Esc closes every dialog and focus lands in its first field; table rows reached by Tab and
 * opened by Enter; one tab stop per tree row.
 */
const setup = serverAndBrowser();

/** The sample fleet's stork (tools/simulator fleet.ts). */
const STORK = '864512040001173';
/** A device of the organisation's own (sample devices are read-only: no properties dialog). */
const OWN = { imei: '861000000170101', caption: 'Stork A11y', folder: 'Wetland A11y' };

beforeAll(async () => {
  await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', OWN.imei, '--caption', OWN.caption, '--sensors', 'GNSS,Temperature', '--species', 'bird', '--folder', OWN.folder);
});

const cases = [
  {
    locale: 'zh-CN' as const,
    tag: 'zh',
    t: { settings: '设置', security: '账号安全', experience: '体验设备', animal: '动物信息', work: '工作状态', details: '设备详情', track: '位置', notFound: '页面不存在' },
  },
  {
    locale: 'en-US' as const,
    tag: 'en',
    t: { settings: 'Settings', security: 'Account security', experience: 'Experience devices', animal: 'Animal info', work: 'Work status', details: 'Details', track: 'Location', notFound: 'Page not found' },
  },
];

/**
 * Each language's signed-in profile state (the session's localStorage and cookies), kept from its first sign-in
 * through the form: a later test of the language starts signed in from it instead of signing in again (the
 * sign-in page itself is audited in its own test; the screens are the same either way).
 */
const signedInState = new Map<string, StorageState>();
/** The profiles opened from a kept signed-in state. */
const fromState = new WeakSet<BrowserContext>();

/**
 * A browser profile in the language, offline but for the local server, patient with a busy machine;
 * `signedIn`: from the language's kept signed-in state once there is one (signedIn() then only opens /device).
 */
async function openContext(locale: 'zh-CN' | 'en-US', opts: { signedIn?: boolean } = {}): Promise<BrowserContext> {
  const state = opts.signedIn ? signedInState.get(locale) : undefined;
  // Chinese with the console's animations, English with reduced motion (antd's motion off): the dialogs'
  // first fields must take the focus either way.
  const context = await newContext(setup.browser, locale, { storageState: state, motion: locale === 'zh-CN' ? 'no-preference' : 'reduce' });
  if (state) fromState.add(context);
  context.setDefaultTimeout(30_000);
  await offline(context, setup.server.baseUrl);
  return context;
}

/**
 * Only the local server answers: every other host fails, as on a field laptop without a network. Still a
 * route here, not newContext's `offline` (which keeps the HTTP cache on): in its one run with that (load 13),
 * the English /device audit ran while the device table was still loading (scrollable-region-focusable on
 * its empty body, an empty heading); whether the cache made that likelier is not known, so this stays.
 */
async function offline(context: BrowserContext, baseUrl: string): Promise<void> {
  await context.route(
    (url) => !url.href.startsWith(baseUrl),
    (route) => route.abort('internetdisconnected'),
  );
}

/** One serious or critical violation as a line: rule, impact, what it asks, and the first elements. */
type Finding = string;

/**
 * Runs axe-core on the page as it is (after its motion settled) and answers every serious or critical
 * violation; the full list of violations of any impact goes to the screenshot folder's a11y log.
 */
async function audit(page: Page, where: string): Promise<Finding[]> {
  await animationsSettled(page);
  // the page as it stands once its lists have loaded: a table half-way through its first load (its spinner
  // over an empty, sideways-scrolling body) failed scrollable-region-focusable in CI of 466364f and here 2 of 4
  // runs, a state no user audits. Only a spinner one can see: /track can hold a hidden one (a table not shown)
  // past 30 s, which failed the zh /track audit in make test of 1140b69
  await page.waitForFunction(
    () => !Array.from(document.querySelectorAll<HTMLElement>('.ant-table-wrapper .ant-spin-spinning')).some((el) => el.checkVisibility()),
    undefined,
    { timeout: 60_000, polling: 200 },
  );
  const results = await new AxeBuilder({ page }).analyze();
  const lines = results.violations.map(
    (v) => `${where}: ${v.id} [${v.impact}] ${v.help}\n${v.nodes.slice(0, 6).map((n) => `    ${n.target.join(' ')} :: ${(n.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300)}\n      ${n.html.slice(0, 300)}`).join('\n')}`,
  );
  if (results.violations.some((v) => v.impact === 'serious' || v.impact === 'critical')) await screenshot(page, `debug-a11y-${where.replace(/[^\w]+/g, '-')}`);
  appendFileSync(join(screenshotDir, 'a11y-violations.log'), lines.length ? `${lines.join('\n')}\n` : `${where}: none\n`);
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${where}: ${v.id} [${v.impact}] ${v.help} -> ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`);
}

/**
 * The page signed in on /device: through the sign-in form the first time in its language (the profile's state
 * then kept), or straight to /device in a profile opened from that state (openContext's `signedIn`).
 */
async function signedIn(page: Page, locale: 'zh-CN' | 'en-US'): Promise<void> {
  const kept = fromState.has(page.context());
  if (kept) {
    // with both cores busy a first load took over 30 s once
    await page.goto(`${setup.server.baseUrl}/device`, { timeout: 90_000 });
  } else {
    // the sign-in page first, given time: with both cores busy its first load took over 30 s once
    await page.goto(`${setup.server.baseUrl}/login`);
    await page.locator('#account').waitFor({ timeout: 90_000 });
    await signIn(page, setup.server.baseUrl, setup.server.admin);
  }
  await page.waitForURL(`${setup.server.baseUrl}/device`);
  await page.getByTestId('device-tree').waitFor();
  if (!kept) signedInState.set(locale, await page.context().storageState());
}


/** WCAG contrast ratio of two CSS colours (rgb()/rgba() as getComputedStyle gives them, alpha over white). */
function contrast(a: string, b: string): number {
  const parse = (c: string): number[] => {
    const [r, g, bl, al] = (c.match(/[\d.]+/g) ?? ['255', '255', '255']).map(Number);
    const alpha = al ?? 1;
    return [r!, g!, bl!].map((v) => v * alpha + 255 * (1 - alpha));
  };
  const lum = (rgb: number[]): number => {
    const [r, g, bl] = rgb.map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [x, y] = [lum(parse(a)), lum(parse(b))].sort((p, q) => q - p);
  return (x! + 0.05) / (y! + 0.05);
}

/** The focused element's ring: its outline and the first opaque background behind it. */
async function focusRing(page: Page): Promise<{ tag: string; style: string; width: number; color: string; background: string }> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement;
    const cs = getComputedStyle(el);
    let bg = 'rgb(255, 255, 255)';
    for (let n: HTMLElement | null = el.parentElement; n; n = n.parentElement) {
      const c = getComputedStyle(n).backgroundColor;
      if (c && c !== 'transparent' && !/rgba\(.*, 0\)$/.test(c)) {
        bg = c;
        break;
      }
    }
    return { tag: `${el.tagName.toLowerCase()}.${el.className}`, style: cs.outlineStyle, width: parseFloat(cs.outlineWidth), color: cs.outlineColor, background: bg };
  });
}

/** Presses Tab until the focus is on an element matching the test (at most `limit` presses). */
async function tabTo(page: Page, test: string, limit = 80): Promise<void> {
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if ((await page.evaluate(`!!document.activeElement && document.activeElement.matches(${JSON.stringify(test)})`)) as boolean) return;
  }
  throw new Error(`Tab never reached ${test}`);
}

/** Ids that more than one element of the page carries. */
async function duplicateIds(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const seen = new Map<string, number>();
    for (const el of Array.from(document.querySelectorAll('[id]'))) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
    return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  });
}

/** The ids of the form fields inside the open dialog. */
async function dialogFieldIds(dialog: Locator): Promise<string[]> {
  return dialog.evaluate((root) => Array.from(root.querySelectorAll('input[id], textarea[id], button[role="switch"][id], [role="combobox"][id]')).map((el) => el.id));
}

/**
 * Esc closes the dialog and, while it was open, the focus was in its first field (or, for a dialog
 * without fields, inside the dialog).
 */
async function escapeCloses(page: Page, dialog: Locator, firstField: string | null): Promise<void> {
  await animationsSettled(page);
  if (firstField) await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? '')).toBe(firstField);
  else await expect.poll(() => dialog.evaluate((root) => root.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
}

describe.each(cases)('accessibility ($tag)', ({ locale, tag, t }) => {
  it('sign-in page', { timeout: 120_000 }, async () => {
    const context = await openContext(locale);
    const page = await context.newPage();
    try {
      await page.goto(`${setup.server.baseUrl}/login`);
      await page.locator('#account').waitFor();
      const findings = await audit(page, `${tag} /login`);
      // the empty form's messages shown too
      await page.locator('button[type=submit]').click();
      await page.locator('.ant-form-item-explain-error').first().waitFor();
      findings.push(...(await audit(page, `${tag} /login refused`)));
      await screenshot(page, `a11y-${tag}-login`);
      expect(findings).toEqual([]);
    } catch (e) {
      await screenshot(page, `debug-a11y-${tag}-0`);
      throw e;
    } finally {
      await context.close();
    }
  });

  it('/device: tree, table, details tabs and dialogs; focus ring, one tab stop per tree row, rows opened by Enter, Esc and unique ids in dialogs', { timeout: 300_000 }, async () => {
    const context = await openContext(locale, { signedIn: true });
    const page = await context.newPage();
    try {
      await signedIn(page, locale);
      const findings = await audit(page, `${tag} /device`);

      // the focus ring: the first control Tab reaches (the brand link) ringed at >= 3:1, 2 px or more
      await page.keyboard.press('Tab');
      const ring = await focusRing(page);
      expect(ring.style, ring.tag).toBe('solid');
      expect(ring.width).toBeGreaterThanOrEqual(2);
      expect(contrast(ring.color, ring.background), `${ring.color} on ${ring.background}`).toBeGreaterThanOrEqual(3);

      // the tree: one tab stop in all (role=tree), none inside its rows; the arrows move, Enter opens
      const tree = page.getByTestId('device-tree');
      const treeList = tree.getByRole('tree');
      await tree.getByText(t.experience, { exact: true }).waitFor();
      expect(await treeList.getAttribute('tabindex')).toBe('0');
      const rowStops = await tree.locator('.ant-tree-treenode').evaluateAll((rows) =>
        rows.flatMap((row) => Array.from(row.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, [tabindex]')).filter((el) => el.tabIndex >= 0 && !(el as HTMLButtonElement).disabled)).length,
      );
      expect(rowStops).toBe(0);
      await tabTo(page, '[data-testid="device-tree"] [role="tree"]');
      const treeRing = await focusRing(page);
      expect(contrast(treeRing.color, treeRing.background)).toBeGreaterThanOrEqual(3);
      // ArrowDown from the top row to the experience folder, Enter lists it
      await page.keyboard.press('Home');
      for (let i = 0; i < 12 && !((await tree.locator('.ant-tree-treenode-active').textContent()) ?? '').includes(t.experience); i++) await page.keyboard.press('ArrowDown');
      expect(await tree.locator('.ant-tree-treenode-active').textContent()).toContain(t.experience);
      await page.keyboard.press('Enter');
      await expect.poll(() => tree.locator('.ant-tree-treenode-selected').textContent()).toContain(t.experience);
      await screenshot(page, `a11y-${tag}-tree-keyboard`);

      // table rows: Tab reaches the first row, Enter opens its details
      const rows = page.getByTestId('device-table').locator('tbody tr.ant-table-row');
      await rows.first().waitFor();
      findings.push(...(await audit(page, `${tag} /device folder`)));
      const imei = await rows.first().getAttribute('data-row-key');
      await tabTo(page, '[data-testid="device-table"] tbody tr.ant-table-row');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-row-key'))).toBe(imei);
      const rowRing = await focusRing(page);
      expect(rowRing.style).toBe('solid');
      await page.keyboard.press('Enter');
      const details = page.getByTestId('device-details');
      await details.waitFor();
      await expect.poll(() => details.textContent()).toContain(imei!);
      findings.push(...(await audit(page, `${tag} /device details`)));
      await screenshot(page, `a11y-${tag}-device-details`);
      for (const tab of [t.animal, t.work]) {
        await details.getByRole('tab', { name: tab }).click();
        await details.getByRole('tab', { name: tab, selected: true }).waitFor();
        findings.push(...(await audit(page, `${tag} /device tab ${tab}`)));
      }
      await screenshot(page, `a11y-${tag}-device-work`);

      // an own device (sample devices are read-only): its properties dialog
      await page.getByTestId('tree-search').locator('input').fill(OWN.imei.slice(-6));
      await page.getByTestId('device-tree').getByTestId(`tree-device-${OWN.imei}`).click();
      await expect.poll(() => details.textContent()).toContain(OWN.imei);
      findings.push(...(await audit(page, `${tag} /device own details`)));
      await details.getByRole('tab', { name: t.animal }).click();
      await details.getByRole('tab', { name: t.animal, selected: true }).waitFor();
      findings.push(...(await audit(page, `${tag} /device own animal info`)));
      await details.getByRole('tab', { name: t.details }).click();

      // dialogs: each audited, its fields' ids unique on the page and across the dialogs, focus in its
      // first field, Esc closes it
      const fieldIds = new Map<string, string>();
      const checkDialog = async (name: string, dialog: Locator, firstField: string | null): Promise<void> => {
        await dialog.waitFor();
        findings.push(...(await audit(page, `${tag} ${name} dialog`)));
        expect(await duplicateIds(page), name).toEqual([]);
        for (const id of await dialogFieldIds(dialog)) {
          expect(fieldIds.get(id), `${name}: #${id} also in the ${fieldIds.get(id)} dialog`).toBeUndefined();
          fieldIds.set(id, name);
        }
        await screenshot(page, `a11y-${tag}-dialog-${name}`);
        await escapeCloses(page, dialog, firstField);
      };
      const modal = (testid: string): Locator => page.locator('.ant-modal').filter({ has: page.getByTestId(testid) });

      await page.getByTestId('edit-properties').click();
      await checkDialog('properties', page.getByTestId('property-dialog').locator('.ant-modal').or(modal('property-dialog')).first(), 'deviceProperties_caption');

      await chooseUserMenuItem(page, new RegExp(`${t.settings}$`), page.getByTestId('settings-form'));
      await checkDialog('settings', modal('settings-form'), 'settings_app');

      await chooseUserMenuItem(page, t.security, page.getByTestId('security-pwd'));
      await checkDialog('security', modal('security-pwd'), null);

      // the Movebank import is offered in the folder's toolbar
      await page.getByTestId('movebank-import-open').first().click();
      await checkDialog('movebank', modal('movebank-import-file'), 'movebankImport_folderId');
      expect(findings).toEqual([]);
    } catch (e) {
      await screenshot(page, `debug-a11y-${tag}-1`);
      throw e;
    } finally {
      await context.close();
    }
  });

  it('/track with a device, its table and map', { timeout: 180_000 }, async () => {
    const context = await openContext(locale, { signedIn: true });
    const page = await context.newPage();
    try {
      await signedIn(page, locale);
      await page.locator('.wt-top-menu').getByRole('link', { name: t.track, exact: true }).click();
      await page.waitForURL(/\/track/);
      await page.getByTestId('tree-search').locator('input').fill(STORK.slice(-6));
      await page.getByTestId('device-tree').getByTestId(`tree-device-${STORK}`).click();
      await page.locator(`[data-testid="track-page"][data-imei="${STORK}"]`).waitFor();
      await page.locator('[data-testid="track-map"] [data-testid="map"][data-state="ready"]').waitFor({ timeout: 30_000 });
      await page.locator('.wt-track-table:not(:has(.ant-spin-spinning))').waitFor({ timeout: 20_000 });
      const findings = await audit(page, `${tag} /track`);
      await screenshot(page, `a11y-${tag}-track`);
      // a fix row: reached by Tab, Enter chooses it (ringed on the map, marked in the table)
      await tabTo(page, '[data-testid="fix-table"] tbody tr.ant-table-row', 120);
      const key = await page.evaluate(() => document.activeElement?.getAttribute('data-row-key'));
      expect(key).toBeTruthy();
      await page.keyboard.press('Enter');
      await page.locator(`[data-testid="fix-table"] tr[data-row-key="${key}"].wt-row-active`).waitFor();
      await screenshot(page, `a11y-${tag}-track-row-keyboard`);
      expect(findings).toEqual([]);
    } catch (e) {
      await screenshot(page, `debug-a11y-${tag}-2`);
      throw e;
    } finally {
      await context.close();
    }
  });

  it('/map2d and /map3d', { timeout: 360_000 }, async () => {
    const context = await openContext(locale, { signedIn: true });
    const page = await context.newPage();
    try {
      await signedIn(page, locale);
      await page.goto(`${setup.server.baseUrl}/map2d`);
      await page.getByTestId('map').and(page.locator('[data-state="ready"]')).waitFor({ timeout: 60_000 });
      const findings = await audit(page, `${tag} /map2d`);
      await screenshot(page, `a11y-${tag}-map2d`);
      await page.goto(`${setup.server.baseUrl}/map3d`);
      await page.getByTestId('globe').and(page.locator('[data-state="ready"]')).waitFor({ timeout: 180_000 });
      findings.push(...(await audit(page, `${tag} /map3d`)));
      expect(findings).toEqual([]);
    } catch (e) {
      await screenshot(page, `debug-a11y-${tag}-3`);
      throw e;
    } finally {
      await context.close();
    }
  });

  it('the error page and not-found', { timeout: 180_000 }, async () => {
    const context = await openContext(locale, { signedIn: true });
    const page = await context.newPage();
    try {
      await page.route(/\/assets\/TrackPage-[\w-]+\.js$/, (route) => route.abort('connectionrefused'));
      await signedIn(page, locale);
      await page.locator('.wt-top-menu').getByRole('link', { name: t.track, exact: true }).click();
      await page.getByTestId('route-error').waitFor({ timeout: 30_000 });
      const findings = await audit(page, `${tag} route error`);
      await screenshot(page, `a11y-${tag}-route-error`);
      await page.goto(`${setup.server.baseUrl}/no-such-screen`);
      await page.locator('.ant-result-title', { hasText: t.notFound }).waitFor();
      findings.push(...(await audit(page, `${tag} not found`)));
      await screenshot(page, `a11y-${tag}-not-found`);
      expect(findings).toEqual([]);
    } catch (e) {
      await screenshot(page, `debug-a11y-${tag}-4`);
      throw e;
    } finally {
      await context.close();
    }
  });
});
