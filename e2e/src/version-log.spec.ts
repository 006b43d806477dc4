import { readFileSync } from 'node:fs';
import { CLIENT_VERSION } from '@wildtrack/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsSettled, catalogue, chooseUserMenuItem, lookup, newContext, onScreen, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * The version page and the user log (issue 17 items 7, 8), in both languages, no network: a member opens
 * the version page from the user menu (the server's version tag, what changed in the interface language,
 * the app downloads from the host of the browser's region: en-US is North America, zh-CN "other"), visits
 * two screens and signs out; the organisation's primary user then reads those visits and the sign-out in
 * the user log, filtered to that member. The member's menu has no user log.
 */

const HOSTS = { VERSION_DOWNLOAD_HOST_EN: 'https://en.dl.test', VERSION_DOWNLOAD_HOST_NA: 'https://na.dl.test', VERSION_DOWNLOAD_HOST_OTHER: 'https://other.dl.test' };
const setup = serverAndBrowser({ env: HOSTS });

const serverVersion = (JSON.parse(readFileSync(new URL('../../apps/server/package.json', import.meta.url), 'utf8')) as { version: string }).version;
const changelog = JSON.parse(readFileSync(new URL('../../apps/server/src/modules/version/changelog.json', import.meta.url), 'utf8')) as { zh: string[]; en: string[] }[];

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', lang: 'zh' as const, texts: catalogue('zh-CN.json'), host: HOSTS.VERSION_DOWNLOAD_HOST_OTHER },
  { locale: 'en-US' as const, tag: 'en', lang: 'en' as const, texts: catalogue('en-US.json'), host: HOSTS.VERSION_DOWNLOAD_HOST_NA },
];

/**
 * Chooses a member in the user log's filter: the option is clicked once the dropdown is at rest (a click
 * while it still slid in could land on its neighbour), and the choice is read back from the select itself
 * before the rows are read.
 */
async function chooseMember(page: Page, log: ReturnType<Page['getByTestId']>, label: string): Promise<void> {
  const select = log.getByTestId('user-log-member');
  await select.click();
  const option = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: label });
  await option.waitFor();
  await animationsSettled(page);
  await option.click();
  await expect.poll(async () => (await select.locator('.ant-select-content, .ant-select-selection-item').first().textContent()) ?? '', { timeout: 15_000 }).toContain(label);
}

async function signOut(page: Page, texts: ReturnType<typeof catalogue>): Promise<void> {
  await chooseUserMenuItem(page, lookup(texts, 'layout.logout'), page.getByText(lookup(texts, 'layout.logoutContent')));
  await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
  await page.waitForURL(/\/login$/);
}

describe.each(cases)('version page and user log ($tag)', ({ locale, tag, lang, texts, host }) => {
  it('a member opens the version page and visits two screens; the primary user reads them in the log', { timeout: 240_000 }, async () => {
    const { server } = setup;
    const org = `Wolong ${tag}`;
    const password = 'Ranger2024x';
    const chief = { account: `chief${tag}`, password };
    await server.cli('create-user', '--org', org, '--name', chief.account, '--password', password, '--email', `chief${tag}@example.org`, '--primary');
    const ranger = await server.createUser({ org, name: `ranger${tag}`, password, email: `ranger${tag}@example.org` });

    // No network: only the local server answers.
    const context = await newContext(setup.browser, locale, { offline: server.baseUrl });
    try {
      const page = await context.newPage();
      await signIn(page, server.baseUrl, ranger);
      await onScreen(page, '/device');
      await page.locator('.wt-top-menu').getByRole('link', { name: lookup(texts, 'menu.track'), exact: true }).click();
      await onScreen(page, '/track');

      // The version page.
      const versionPage = page.getByTestId('version-page');
      await chooseUserMenuItem(page, lookup(texts, 'layout.version', { version: CLIENT_VERSION }), versionPage.getByTestId('version-changes'));
      expect(await versionPage.getByTestId('version-client').textContent()).toBe(CLIENT_VERSION);
      expect(await versionPage.getByTestId('version-server').textContent()).toBe(serverVersion);
      const changes = await versionPage.getByTestId('version-changes').textContent();
      expect(changes).toContain(changelog[0]![lang][0]);
      expect(changes).not.toContain(changelog[0]![lang === 'zh' ? 'en' : 'zh'][0]);
      const android = await versionPage.getByTestId('download-android').getAttribute('href');
      const ios = await versionPage.getByTestId('download-ios').getAttribute('href');
      expect(android?.startsWith(`${host}/`), android ?? '').toBe(true);
      expect(ios?.startsWith(`${host}/`), ios ?? '').toBe(true);
      await screenshot(page, `version-log-${locale}-version`);
      await page.keyboard.press('Escape');
      await versionPage.waitFor({ state: 'hidden' });

      // A member who is not primary has no user log in the menu.
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: lookup(texts, 'layout.logout') }).waitFor();
      expect(await page.getByRole('menuitem', { name: lookup(texts, 'layout.userLog') }).count()).toBe(0);
      await page.keyboard.press('Escape');
      await signOut(page, texts);

      // The primary user reads the member's visits and sign-out.
      await signIn(page, server.baseUrl, chief);
      await onScreen(page, '/device');
      const log = page.getByTestId('user-log');
      await chooseUserMenuItem(page, lookup(texts, 'layout.userLog'), log.locator('.ant-table'));
      await chooseMember(page, log, ranger.account);
      const rows = log.locator('.ant-table-row');
      // Each row as "member | type | page or action" (the member shown by nickname and account, or account).
      const rowTexts = async (): Promise<string[]> =>
        Promise.all((await rows.all()).map(async (row) => (await row.locator('td').allTextContents()).slice(1).join(' | ')));
      const member = (account: string) => new RegExp(`^(.*\\()?${account}\\)? \\| `);
      // Newest first: the sign-out, the two screens (and nothing of the primary user's own).
      const expected = [
        `${lookup(texts, 'userLog.types.action')} | ${lookup(texts, 'userLog.actions.logout')}`,
        `${lookup(texts, 'userLog.types.visit')} | /track`,
        `${lookup(texts, 'userLog.types.visit')} | /device`,
      ];
      await expect.poll(async () => (await rowTexts()).map((r) => r.replace(member(ranger.account), '')), { timeout: 30_000 }).toEqual(expected);
      expect((await rowTexts()).every((r) => member(ranger.account).test(r))).toBe(true);
      await animationsSettled(page);
      await screenshot(page, `version-log-${locale}-log`);

      // Everyone: the primary user's own visit is there too.
      await chooseMember(page, log, lookup(texts, 'userLog.allMembers'));
      await expect.poll(async () => (await rowTexts()).some((r) => member(chief.account).test(r)), { timeout: 30_000 }).toBe(true);
    } finally {
      await context.close();
    }
  });
});
