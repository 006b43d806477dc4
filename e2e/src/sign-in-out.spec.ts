import { describe, expect, it } from 'vitest';
import { animationsSettled, chooseUserMenuItem, newContext, screenshot, serverAndBrowser, signIn, tokenCookie } from './harness';

const setup = serverAndBrowser();

const cases = [
  {
    locale: 'zh-CN' as const,
    texts: { welcome: '欢迎回来', loginTitle: '登录 - Wildtrack', deviceTitle: '设备管理 - Wildtrack', tab: '设备列表', experience: '体验设备', logout: '退出登录', confirmText: '确定要退出登录吗？' },
  },
  {
    locale: 'en-US' as const,
    texts: { welcome: 'Welcome back', loginTitle: 'Sign in - Wildtrack', deviceTitle: 'Device management - Wildtrack', tab: 'Device list', experience: 'Experience devices', logout: 'Sign out', confirmText: 'Do you want to sign out?' },
  },
];

describe.each(cases)('sign in and out ($locale)', ({ locale, texts }) => {
  it('goes through /login with the redirect, lands on the original path, and signs out after confirmation', async () => {
    const context = await newContext(setup.browser, locale);
    const page = await context.newPage();
    try {
      await page.goto(`${setup.server.baseUrl}/device?folder=7`);
      await page.waitForURL(/\/login\?redirect=/);
      expect(new URL(page.url()).searchParams.get('redirect')).toBe('/device?folder=7');
      await page.getByText(texts.welcome).waitFor();
      await expect.poll(() => page.title()).toBe(texts.loginTitle);
      expect(await page.locator('html').getAttribute('lang')).toBe(locale);
      await screenshot(page, `sign-in-${locale}-login`);

      await page.locator('#account').fill(setup.server.admin.account);
      await page.locator('#pwd').fill(setup.server.admin.password);
      await page.locator('button[type=submit]').click();
      await page.waitForURL(`${setup.server.baseUrl}/device?folder=7`);
      await page.getByRole('menuitem', { name: texts.tab }).waitFor();
      await expect.poll(() => page.title()).toBe(texts.deviceTitle);
      expect(await page.getByTestId('time-zone').textContent()).toContain('+08:00');
      // the sample (experience) devices are in the tree, the first one's details open
      await page.getByTestId('device-tree').getByText(texts.experience, { exact: true }).waitFor();
      await page.getByTestId('device-details').waitFor();
      expect(await tokenCookie(context)).toBeTruthy();
      await screenshot(page, `sign-in-${locale}-device`);

      await chooseUserMenuItem(page, texts.logout, page.getByText(texts.confirmText));
      await animationsSettled(page); // the dialog opened for the picture
      await screenshot(page, `sign-in-${locale}-logout-confirm`);
      await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
      await page.waitForURL(`${setup.server.baseUrl}/login`);
      expect(await tokenCookie(context)).toBeUndefined();
      expect(await page.evaluate(() => localStorage.getItem('wildtrack_user_name'))).toBeNull();

      // signed out for real: the console sends a visitor back to the sign-in page
      await page.goto(`${setup.server.baseUrl}/device`);
      await page.waitForURL(/\/login\?redirect=%2Fdevice$/);
    } finally {
      await context.close();
    }
  });
});

describe('already signed in', () => {
  it('sends /login back to the console', async () => {
    const context = await newContext(setup.browser, 'en-US');
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, setup.server.admin);
      await page.waitForURL(`${setup.server.baseUrl}/device`);
      await page.goto(`${setup.server.baseUrl}/login`);
      await page.waitForURL(`${setup.server.baseUrl}/device`);
    } finally {
      await context.close();
    }
  });
});
