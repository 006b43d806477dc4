import { MESSAGES } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { newContext, screenshot, serverAndBrowser, signIn, tokenCookie } from './harness';

const setup = serverAndBrowser();

describe.each([
  { locale: 'en-US' as const, lang: 'en' as const, note: 'Note' },
  { locale: 'zh-CN' as const, lang: 'zh' as const, note: '提示' },
])('a wrong password ($locale)', ({ locale, lang, note }) => {
  it("shows the server's message and stays on the sign-in page", async () => {
    const context = await newContext(setup.browser, locale);
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, { account: setup.server.admin.account, password: 'Wrong-password-1' });
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
