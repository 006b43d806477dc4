import type { BrowserContext } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { catalogue, lookup, newContext, onScreen, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * QR sign-in (issue 17 item 4, docs/accounts.md): browser A shows /login's QR code and reads its link
 * from the page; browser B, a phone signed in as the user, opens the link, sees who asks and confirms;
 * A lands signed in as that user. The link once used is refused on the phone. /login2 opens on the QR
 * code, and a declined sign-in covers it with the refusal and Refresh. Both languages.
 */
const setup = serverAndBrowser();

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', texts: catalogue('zh-CN.json') },
  { locale: 'en-US' as const, tag: 'en', texts: catalogue('en-US.json') },
];

async function phone(locale: 'zh-CN' | 'en-US'): Promise<BrowserContext> {
  const context = await setup.browser.newContext({ locale, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, timezoneId: 'Asia/Shanghai' });
  context.setDefaultTimeout(30_000);
  return context;
}

describe.each(cases)('QR sign-in ($tag)', ({ locale, tag, texts }) => {
  const t = (key: string, vars?: Record<string, string>) => lookup(texts, key, vars);

  it('signs browser A in as the user who confirms on the phone; the link then is spent; /login2 declined shows Refresh', async () => {
    const who = await setup.server.createUser({ org: `QR Lab ${tag}`, name: `qruser${tag}`, password: 'Scan-Me-Now-7', email: `qr-${tag}@example.org` });
    const desk = await newContext(setup.browser, locale);
    const mobile = await phone(locale);
    try {
      const a = await desk.newPage();
      const b = await mobile.newPage();
      await signIn(b, setup.server.baseUrl, who);
      await onScreen(b, '/device');

      // A: /login, the QR method; its link read from the page
      await a.goto(`${setup.server.baseUrl}/login`);
      await a.getByTestId('login-method').getByText(t('login.byQr'), { exact: true }).click();
      await a.getByTestId('qr-login-image').waitFor();
      await a.getByText(t('login.qr.hint')).waitFor();
      expect(await a.getByTestId('qr-login').getAttribute('data-state')).toBe('waiting');
      const link = await a.locator('.wt-qr-frame').getAttribute('data-link');
      expect(link).toMatch(new RegExp(`^${setup.server.baseUrl}/qr-login\\?code=[A-Za-z0-9_-]{43}$`));
      await screenshot(a, `qr-login-${tag}-a-qr`);

      // B: opens the link, sees who asks (A's browser, for B's own account), confirms
      await b.goto(link!);
      await b.getByTestId('qr-confirm').waitFor();
      await b.getByText(t('qrLogin.asking', { user: who.account })).waitFor();
      expect(await b.getByTestId('qr-confirm').textContent()).toContain(t('qrLogin.browserOn', { browser: 'Chrome', os: 'Linux' }));
      // A is told the code was scanned
      await a.locator('[data-testid=qr-login][data-state=scanned]').waitFor();
      await a.getByText(t('login.qr.scanned')).waitFor();
      await screenshot(a, `qr-login-${tag}-a-scanned`);
      await screenshot(b, `qr-login-${tag}-b-confirm`);
      await b.getByTestId('qr-confirm-accept').click();
      await b.getByText(t('qrLogin.confirmed')).waitFor();
      await screenshot(b, `qr-login-${tag}-b-done`);

      // A: signed in as the user, on the console
      await onScreen(a, '/device');
      await a.getByTestId('device-tree').waitFor();
      expect(await a.evaluate(() => localStorage.getItem('wildtrack_user_name'))).toBe(who.account);
      await screenshot(a, `qr-login-${tag}-a-signed-in`);

      // the link again: spent
      await b.goto(link!);
      await b.getByTestId('qr-confirm-failed').waitFor();
      expect(await b.getByTestId('qr-confirm-failed').textContent()).toContain(t('qrLogin.failed'));

      // /login2 opens on the QR code; B declines; the page covers the code and offers Refresh
      const c = await (await newContext(setup.browser, locale)).newPage();
      await c.goto(`${setup.server.baseUrl}/login2`);
      await c.getByTestId('qr-login-image').waitFor();
      const second = await c.locator('.wt-qr-frame').getAttribute('data-link');
      expect(second).not.toBe(link);
      await b.goto(second!);
      await b.getByTestId('qr-confirm-decline').click();
      await b.getByText(t('qrLogin.declined')).waitFor();
      await c.locator('[data-testid=qr-login][data-state=ended]').waitFor();
      await c.getByTestId('qr-login-refresh').waitFor();
      await screenshot(c, `qr-login-${tag}-login2-declined`);
      await c.getByTestId('qr-login-refresh').click();
      await c.locator('[data-testid=qr-login][data-state=waiting]').waitFor();
      expect(await c.locator('.wt-qr-frame').getAttribute('data-link')).not.toBe(second);
      await c.context().close();
    } finally {
      await desk.close();
      await mobile.close();
    }
  }, 180_000);
});
