import { MESSAGES } from '@wildtrack/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, newContext, screenshot, signIn, startServer, tokenCookie, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe.each([
  { locale: 'en-US' as const, lang: 'en' as const, note: 'Note' },
  { locale: 'zh-CN' as const, lang: 'zh' as const, note: '提示' },
])('a wrong password ($locale)', ({ locale, lang, note }) => {
  it("shows the server's message and stays on the sign-in page", async () => {
    const context = await newContext(browser, locale);
    const page = await context.newPage();
    try {
      await signIn(page, server.baseUrl, { account: server.admin.account, password: 'Wrong-password-1' });
      const notice = page.locator('.ant-notification-notice').filter({ hasText: MESSAGES['auth.failed'][lang] });
      await notice.waitFor();
      expect(await notice.textContent()).toContain(note);
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await tokenCookie(context)).toBeUndefined();
      await screenshot(page, `wrong-password-${locale}`);
    } finally {
      await context.close();
    }
  });
});
