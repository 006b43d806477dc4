import { imeiWithCheck } from '@wildtrack/sample-fleet';
import { describe, expect, it } from 'vitest';
import { newContext, screenshot, serverAndBrowser, signIn } from './harness';
const setup = serverAndBrowser();
/**
 * Registering a real device from the console (issue 28 item 1), both languages: the primary user's dialog with the
 * instruction abilities, the secret shown once with the example request, the device then in the tree.
 */
describe('registering a device', () => {
  for (const locale of ['en-US', 'zh-CN'] as const) {
    it(`registers a device with an ability and shows its secret once (${locale})`, { timeout: 170_000 }, async () => {
      const context = await newContext(setup.browser, locale);
      const page = await context.newPage();
      await page.goto(`${setup.server.baseUrl}/login`);
      await page.locator('#account').waitFor({ timeout: 90_000 });
      await signIn(page, setup.server.baseUrl, setup.server.admin);
      await page.waitForURL(`${setup.server.baseUrl}/device`);
      await page.getByTestId('register-device-open').first().click();
      await page.getByTestId('register-device-submit').waitFor();
      await screenshot(page, `register-device-${locale}-open`);
      await page.locator('input#imei').fill(imeiWithCheck(locale === 'en-US' ? '86100000099901' : '86100000099902'));
      await page.locator('.ant-modal .ant-checkbox-wrapper').first().click();
      await screenshot(page, `register-device-${locale}-form`);
      await page.getByTestId('register-device-submit').click();
      await page.getByTestId('register-device-result').waitFor();
      const imei = imeiWithCheck(locale === 'en-US' ? '86100000099901' : '86100000099902');
      expect(((await page.getByTestId('register-device-secret').textContent()) ?? '').trim().length).toBeGreaterThan(10);
      expect(await page.getByTestId('register-device-result').textContent()).toContain(`x-device-imei: ${imei}`);
      await screenshot(page, `register-device-${locale}-result`);
      await page.getByTestId('register-device-close').click();
      // the tree has it (found by its IMEI: the folder it went to may be folded)
      await page.getByTestId('tree-search').locator('input').fill(imei.slice(-6));
      await page.getByTestId('device-tree').getByTestId(`tree-device-${imei}`).waitFor();
      await context.close();
    });
  }
});
