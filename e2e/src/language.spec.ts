import type { Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, openedBody, screenshot, serverAndBrowser } from './harness';

const setup = serverAndBrowser();

describe('the language choice', () => {
  it('switches everything at once, survives a reload within the session, and is sent to the server', async () => {
    const context = await newContext(setup.browser, 'en-US');
    const page = await context.newPage();
    const langHeaders: Record<string, string> = {};
    page.on('request', (req: Request) => {
      const path = new URL(req.url()).pathname;
      if (path.startsWith('/prod-api/')) langHeaders[path] = req.headers()['x-lang'] ?? '';
    });
    try {
      await page.goto(`${setup.server.baseUrl}/login`);
      await page.getByText('Welcome back').waitFor();
      await page.getByText('中', { exact: true }).click();
      await page.getByText('欢迎回来').waitFor();
      await expect.poll(() => page.title()).toBe('登录 - Wildtrack');

      await page.reload();
      await page.getByText('欢迎回来').waitFor();
      expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
      await screenshot(page, 'language-zh-after-reload');

      await page.locator('#account').fill(setup.server.admin.account);
      await page.locator('#pwd').fill(setup.server.admin.password);
      await page.locator('button[type=submit]').click();
      await page.waitForURL(`${setup.server.baseUrl}/device`);
      await page.getByRole('menuitem', { name: '设备列表' }).waitFor();
      expect(langHeaders['/prod-api/api/Auth/PasswordLogin']).toBe('2052');

      // back to English while signed in: the choice is recorded on the server
      const recorded = page.waitForRequest((req) => req.url().endsWith('/api/User/ModifyLcid'));
      await page.getByText('EN', { exact: true }).click();
      const request = await recorded;
      expect(await openedBody(page, request)).toEqual({ lcid: 1033 });
      await page.getByRole('menuitem', { name: 'Device list' }).waitFor();
      await expect.poll(() => page.title()).toBe('Device management - Wildtrack');
      await page.reload();
      await page.getByRole('menuitem', { name: 'Device list' }).waitFor();
      await screenshot(page, 'language-en-signed-in');
    } finally {
      await context.close();
    }
  });

  it('starts from the browser language in a new session', async () => {
    const context = await newContext(setup.browser, 'zh-CN');
    const page = await context.newPage();
    try {
      await page.goto(`${setup.server.baseUrl}/login`);
      await page.getByText('欢迎回来').waitFor();
    } finally {
      await context.close();
    }
  });
});
