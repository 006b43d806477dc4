import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { type Account, chooseUserMenuItem, newContext, pickZone, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * A time zone that stays put (issue 28 item 3), in both languages: one account on two computers, a desktop
 * in Asia/Shanghai and a laptop in New York (two browser contexts whose zones differ). The laptop signing in
 * never moves the desktop's times, before or after a zone is saved in Settings; the zone chosen on the
 * desktop stays its own after the laptop signs in again.
 */

const setup = serverAndBrowser();

let attempts = 0;
function newUser(tag: string): Promise<Account> {
  attempts += 1;
  return setup.server.createUser({ org: 'Qinling Reserve', name: `zone${tag}${attempts}`, password: 'Ranger2024x', email: `zone${tag}${attempts}@example.org` });
}

/** A computer in New York: the same as newContext but for its zone (UTC-05:00 in winter). */
async function newYorkContext(browser: Browser, locale: 'zh-CN' | 'en-US'): Promise<BrowserContext> {
  const context = await browser.newContext({ locale, viewport: { width: 1366, height: 820 }, timezoneId: 'America/New_York', reducedMotion: 'reduce' });
  context.setDefaultTimeout(30_000);
  return context;
}

/** Opens the page again and waits for the shell's GetUserInfo (the server's copy of the user) to be in. */
async function reopened(page: Page): Promise<void> {
  const info = page.waitForResponse((r) => r.url().endsWith('/api/User/GetInfo'), { timeout: 60_000 });
  await page.reload();
  await info;
  await page.getByTestId('time-zone').waitFor();
}

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', settings: '设置' },
  { locale: 'en-US' as const, tag: 'en', settings: 'Settings' },
];

describe.concurrent('the time zone of a browser', () => {
  for (const { locale, tag, settings } of cases) {
    it(`stays put when the same account signs in from another zone (${locale})`, async ({ expect }) => {
      const who = await newUser(tag);
      const desk = await newContext(setup.browser, locale);
      const away = await newYorkContext(setup.browser, locale);
      const deskPage = await desk.newPage();
      const awayPage = await away.newPage();
      const zoneOf = async (page: Page) => (await page.getByTestId('time-zone').textContent())?.trim();
      try {
        await signIn(deskPage, setup.server.baseUrl, who);
        await deskPage.getByTestId('time-zone').filter({ hasText: '+08:00' }).waitFor({ timeout: 90_000 });

        // ---- nothing chosen in Settings: the New York sign-in shows New York's zone there, not here ----
        await signIn(awayPage, setup.server.baseUrl, who);
        await awayPage.getByTestId('time-zone').filter({ hasText: '-05:00' }).waitFor({ timeout: 90_000 });
        await reopened(deskPage);
        expect(await zoneOf(deskPage)).toBe('+08:00');
        await screenshot(deskPage, `time-zone-${tag}-desk-after-new-york`);

        // ---- the desktop chooses a zone in Settings: its own, and the account's ----
        await chooseUserMenuItem(deskPage, new RegExp(`${settings}$`), deskPage.getByTestId('settings-form'));
        expect(await deskPage.getByTestId('settings-time-zone').textContent()).toContain('+08:00');
        await pickZone(deskPage, '+09:00');
        await deskPage.getByTestId('settings-save').click();
        await deskPage.getByTestId('settings-form').waitFor({ state: 'detached' });
        await deskPage.getByTestId('time-zone').filter({ hasText: '+09:00' }).waitFor();

        // ---- New York signs in again: it does not overwrite the saved zone, and the desktop keeps it ----
        await away.clearCookies();
        await signIn(awayPage, setup.server.baseUrl, who);
        await awayPage.getByTestId('time-zone').filter({ hasText: '+09:00' }).waitFor({ timeout: 90_000 });
        await reopened(deskPage);
        expect(await zoneOf(deskPage)).toBe('+09:00');
        await screenshot(deskPage, `time-zone-${tag}-desk-after-choice`);
        await screenshot(awayPage, `time-zone-${tag}-new-york-after-choice`);
      } catch (e) {
        await screenshot(deskPage, `debug-time-zone-${tag}-desk`);
        await screenshot(awayPage, `debug-time-zone-${tag}-away`);
        throw e;
      } finally {
        await desk.close();
        await away.close();
      }
    });
  }
});
