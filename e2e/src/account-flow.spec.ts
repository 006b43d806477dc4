import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsSettled, chooseUserMenuItem, newContext, onScreen, pollUntil, screenshot, serverAndBrowser, signIn } from './harness';
import { smtpSink } from './smtp-sink';

/**
 * Issue 17 items 2-4 in the browser: register by e-mail (the code read from a local SMTP sink), sign
 * out, reset the password, sign in (en-US); a password-only account's safety prompt, auth by password,
 * a phone bound with the code from the operator's outbox, the prompt gone, and a password change with a
 * wrong original refused, then a sign-in with a code sent to that phone (zh-CN). One server for the file.
 */
// Before serverAndBrowser's hooks: the server starts with SMTP_URL pointing at the sink.
const { mails, env } = smtpSink();
const setup = serverAndBrowser({ env });

/** The code of the newest mail to `to` after `after` mails were in (polls; the server sends after answering). */
async function mailedCode(to: string, after: number): Promise<string> {
  const mail = await pollUntil(
    async () => mails.slice(after).find((m) => m.to === to),
    (m) => m !== undefined,
    30_000,
    () => `no mail to ${to}`,
  );
  return /\b(\d{4})\b/.exec(mail!.text)![1]!;
}

/** The outbox's messages to an address, newest first. */
async function outboxTo(address: string): Promise<string[]> {
  return (await setup.server.cli('outbox', '--json')).split('\n').filter((l) => l.includes(address));
}

/** The code of the newest outbox message to `address` once more than `after` messages went there (polls). */
async function outboxCode(address: string, after = 0): Promise<string> {
  const lines = await pollUntil(
    () => outboxTo(address),
    (l) => l.length > after,
    30_000,
    () => `no new outbox message to ${address}`,
  );
  return /\b(\d{4})\b/.exec((JSON.parse(lines[0]!) as { text: string }).text)![1]!;
}

async function signOut(page: Page, item: string, confirm: string): Promise<void> {
  await chooseUserMenuItem(page, item, page.getByText(confirm));
  await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
  await page.waitForURL((url) => url.pathname === '/login');
}

describe('account flow', () => {
  it('en-US: register by e-mail, sign out, reset the password, sign in', async () => {
    const context = await newContext(setup.browser, 'en-US');
    const page = await context.newPage();
    try {
      await page.goto(`${setup.server.baseUrl}/login`);
      await page.getByTestId('login-register').click();
      await page.locator('#address').fill('heron@example.org');
      let before = mails.length;
      await page.getByTestId('account-send').click();
      await page.getByText('A code was sent to her***@example.org').waitFor();
      // the button counts down 60 s
      await page.getByTestId('account-send').filter({ hasText: /Resend in \d+ s/ }).waitFor();
      expect(await page.getByTestId('account-send').isDisabled()).toBe(true);
      await page.locator('#code').fill(await mailedCode('heron@example.org', before));
      await page.locator('#userName').fill('heronLab1');
      await page.locator('#pwd').fill('Heron-Lab-2026');
      await page.locator('#confirm').fill('Heron-Lab-2026');
      await screenshot(page, 'account-register-en-US');
      await page.getByRole('button', { name: 'Register', exact: true }).click();
      await page.getByText('Registered: sign in with your new account').waitFor();
      expect(await page.locator('#account').inputValue()).toBe('heronLab1');

      await signIn(page, setup.server.baseUrl, { account: 'heronLab1', password: 'Heron-Lab-2026' });
      await onScreen(page, '/device');
      await signOut(page, 'Sign out', 'Do you want to sign out?');

      await page.getByTestId('login-forgot').click();
      await page.locator('#account').fill('heron@example.org');
      before = mails.length;
      await page.getByTestId('account-send').click();
      await page.locator('#code').fill(await mailedCode('heron@example.org', before));
      await page.locator('#pwd').fill('Heron-Lab-2027');
      await page.locator('#confirm').fill('Heron-Lab-2027');
      await screenshot(page, 'account-reset-en-US');
      await page.getByRole('button', { name: 'Reset password' }).click();
      await page.getByText('Password reset: sign in with the new password').waitFor();
      await signIn(page, setup.server.baseUrl, { account: 'heron@example.org', password: 'Heron-Lab-2027' });
      await onScreen(page, '/device');
    } finally {
      await context.close();
    }
  });

  it('zh-CN: the safety prompt, auth by password, a phone bound from the outbox, the prompt gone, the password changed', async () => {
    const ranger = await setup.server.createUser({ org: 'Qinling Reserve', name: 'ranger07', password: 'Ranger2024x' });
    const context = await newContext(setup.browser, 'zh-CN');
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, ranger);
      const prompt = page.locator('.ant-modal').filter({ hasText: '请完善账号安全设置' });
      await prompt.getByRole('button', { name: '去设置' }).click();
      await page.getByTestId('security-open-phone').click();
      // a password-only account proves itself with its sign-in password
      await page.locator('#loginPwd').fill('Ranger2024x');
      await page.getByRole('button', { name: '验 证' }).or(page.getByRole('button', { name: '验证' })).click();
      await page.getByTestId('security-address').fill('13812345678');
      await page.getByTestId('security-send').click();
      await page.getByText('验证码已发送至 +86 138*****678').waitFor();
      await page.getByTestId('security-code').fill(await outboxCode('13812345678'));
      await animationsSettled(page);
      await screenshot(page, 'account-bind-phone-zh-CN');
      await page.getByRole('button', { name: '绑 定' }).or(page.getByRole('button', { name: '绑定', exact: true })).click();
      await page.getByText('手机号绑定成功').waitFor();
      await page.getByTestId('security-phone').filter({ hasText: '138*****678' }).waitFor();

      // the password page: verified a moment ago, so no auth page; a wrong original is refused
      await page.getByTestId('security-open-pwd').click();
      await page.getByTestId('security-original').fill('Wrong-pass-1');
      await page.getByTestId('security-new').fill('Ranger2025x');
      await page.getByTestId('security-confirm').fill('Ranger2025x');
      await page.getByRole('button', { name: '修改密码' }).last().click();
      await page.getByText('原密码错误').waitFor();
      await screenshot(page, 'account-password-wrong-zh-CN');
      await page.getByTestId('security-original').fill('Ranger2024x');
      await page.getByRole('button', { name: '修改密码' }).last().click();
      await page.getByText('密码修改成功').waitFor();
      await page.locator('.ant-modal').filter({ hasText: '登录密码' }).locator('.ant-modal-close').click();
      await animationsSettled(page);
      // the prompt is over: not shown again, and the session no longer asks for it
      expect(await page.locator('.ant-modal:visible').filter({ hasText: '请完善账号安全设置' }).count()).toBe(0);
      expect(await page.evaluate(() => sessionStorage.getItem('wildtrack_safety_prompt'))).toBeNull();

      // signed in again with the new password: no safety prompt
      await signOut(page, '退出登录', '确定要退出登录吗？');
      await signIn(page, setup.server.baseUrl, { account: 'ranger07', password: 'Ranger2025x' });
      await onScreen(page, '/device');
      await animationsSettled(page);
      expect(await page.locator('.ant-modal:visible').filter({ hasText: '请完善账号安全设置' }).count()).toBe(0);
      await screenshot(page, 'account-no-prompt-zh-CN');

      // signed in again with a code sent to the bound phone (the "验证码登录" tab)
      await signOut(page, '退出登录', '确定要退出登录吗？');
      await page.getByTestId('login-method').getByText('验证码登录').click();
      await page.getByTestId('phone-login-phone').fill('13812345678');
      const sent = (await outboxTo('13812345678')).length;
      await page.getByTestId('phone-login-send').click();
      await page.getByTestId('phone-login-send').filter({ hasText: /\d+/ }).waitFor();
      await page.getByTestId('phone-login-code').fill(await outboxCode('13812345678', sent));
      await screenshot(page, 'account-phone-login-zh-CN');
      await page.getByTestId('phone-login-submit').click();
      await onScreen(page, '/device');
    } finally {
      await context.close();
    }
  });
});
