import { beforeAll, describe, expect, it } from 'vitest';
import { type Account, animationsSettled, newContext, screenshot, serverAndBrowser, signIn, tokenCookie } from './harness';

let bare: Account;
let secured: Account;

const setup = serverAndBrowser();

beforeAll(async () => {
  [bare, secured] = await Promise.all([
    setup.server.createUser({ org: 'Qinling Reserve', name: 'ranger01', password: 'Ranger2024x' }),
    setup.server.createUser({ org: 'Qinling Reserve', name: 'ranger02', password: 'Ranger2024y', email: 'ranger02@example.org' }),
  ]);
});

describe('the safety prompt', () => {
  it('cannot be dismissed, and its confirm opens account security with the state from the server', async () => {
    const context = await newContext(setup.browser, 'zh-CN');
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, bare);
      const prompt = page.locator('.ant-modal').filter({ hasText: '请完善账号安全设置' });
      await prompt.waitFor();
      await screenshot(page, 'safety-prompt-zh-CN');

      await page.keyboard.press('Escape');
      await page.mouse.click(20, 400);
      // A dialog that closes is in motion from the event that closes it: once nothing moves, a prompt
      // still shown stayed.
      await animationsSettled(page);
      expect(await prompt.isVisible()).toBe(true);
      expect(await prompt.locator('.ant-modal-close').count()).toBe(0);

      await prompt.getByRole('button', { name: '去设置' }).click();
      const dialog = page.locator('.ant-modal').filter({ hasText: '账号安全' }).filter({ hasText: '登录密码' });
      await dialog.waitFor();
      await page.getByTestId('security-email').filter({ hasText: '未绑定' }).waitFor();
      expect(await page.getByTestId('security-phone').textContent()).toContain('未绑定');
      await screenshot(page, 'safety-prompt-security-dialog-zh-CN');
    } finally {
      await context.close();
    }
  });

  it('signs the user out after a confirmation when cancelled', async () => {
    const context = await newContext(setup.browser, 'en-US');
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, bare);
      const prompt = page.locator('.ant-modal').filter({ hasText: 'Secure your account' });
      await prompt.waitFor();
      await prompt.getByRole('button', { name: 'Not now' }).click();
      await page.locator('.ant-modal-confirm-title').filter({ hasText: 'Leave the account unsecured?' }).waitFor();
      await screenshot(page, 'safety-prompt-leave-en-US');
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(`${setup.server.baseUrl}/login`);
      expect(await tokenCookie(context)).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('does not appear for an account with an e-mail', async () => {
    const context = await newContext(setup.browser, 'en-US');
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, secured);
      await page.waitForURL(`${setup.server.baseUrl}/device`);
      await page.getByRole('menuitem', { name: 'Device list' }).waitFor();
      // The sign-in decided before it left /login (the session's prompt flag, which the layout reads as
      // it renders); once nothing moves, a prompt would be showing.
      expect(await page.evaluate(() => sessionStorage.getItem('wildtrack_safety_prompt'))).toBeNull();
      await animationsSettled(page);
      expect(await page.getByText('Secure your account').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
