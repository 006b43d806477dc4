import { MESSAGES, sessionCredential } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { newContext, plantSession, screenshot, serverAndBrowser, signIn, tokenCookie } from './harness';

const setup = serverAndBrowser();

describe('an expired session', () => {
  it('sends the user to /login with the redirect and the warning, once', async () => {
    const context = await newContext(setup.browser, 'en-US');
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, setup.server.admin, '/login?redirect=%2Fdevice%3Fview%3Dall');
      await page.waitForURL(`${setup.server.baseUrl}/device?view=all`);
      // The session ends on the server (idle expiry itself is covered by the server's route tests,
      // which move the clock; here the browser's handling of 1004 is what is tested).
      await setup.server.endSessions(setup.server.admin.account);

      // The warning is a toast that fades after a few seconds: watch for it from before the reload.
      const warning = page.locator('.ant-message-notice').filter({ hasText: MESSAGES['error.sessionExpired'].en });
      await Promise.all([warning.waitFor(), page.reload()]);
      await screenshot(page, 'session-expired-en-US');
      await page.waitForURL(`${setup.server.baseUrl}/login?redirect=%2Fdevice%3Fview%3Dall`);
      expect(await warning.count()).toBe(1);
      expect(await tokenCookie(context)).toBeUndefined();

      // signing in again returns to where the user was
      await page.locator('#account').fill(setup.server.admin.account);
      await page.locator('#pwd').fill(setup.server.admin.password);
      await page.locator('button[type=submit]').click();
      await page.waitForURL(`${setup.server.baseUrl}/device?view=all`);
    } finally {
      await context.close();
    }
  });

  it('treats an unknown token the same way (zh-CN)', async () => {
    const context = await newContext(setup.browser, 'zh-CN');
    const page = await context.newPage();
    try {
      // A session the server does not know, kept as the client keeps one (id and token).
      await plantSession(page, setup.server.baseUrl, sessionCredential('A'.repeat(22), 'not-a-real-token'));
      const warning = page.locator('.ant-message-notice').filter({ hasText: MESSAGES['error.sessionExpired'].zh });
      await Promise.all([warning.waitFor(), page.goto(`${setup.server.baseUrl}/device`)]);
      await screenshot(page, 'session-unknown-token-zh-CN');
      await page.waitForURL(`${setup.server.baseUrl}/login?redirect=%2Fdevice`);
      expect(await tokenCookie(context)).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});
