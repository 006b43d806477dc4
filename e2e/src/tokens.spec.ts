import { describe, expect, it } from 'vitest';
import { animationsSettled, catalogue, chooseUserMenuItem, lookup, newContext, onScreen, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * Personal access tokens (issue 29), in both languages: a user opens Access tokens from the user menu,
 * makes a token, sees it once with an R example, reads the Movebank-compatible API with it from outside
 * the browser (the studies as CSV), revokes it in the list, and the API refuses it (401).
 */

const setup = serverAndBrowser();

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', texts: catalogue('zh-CN.json') },
  { locale: 'en-US' as const, tag: 'en', texts: catalogue('en-US.json') },
];

describe.each(cases)('access tokens ($tag)', ({ locale, tag, texts }) => {
  it('makes a token shown once, reads the API with it, revokes it', { timeout: 120_000 }, async () => {
    const { server, browser } = setup;
    const user = { account: `reader${tag}`, password: 'Reader2024x' };
    await server.cli('create-user', '--org', `Heron ${tag}`, '--name', user.account, '--password', user.password, '--email', `reader${tag}@example.org`);
    const context = await newContext(browser, locale, { offline: server.baseUrl });
    try {
      const page = await context.newPage();
      await signIn(page, server.baseUrl, user);
      await onScreen(page, '/device');
      const tokens = page.getByTestId('tokens');
      await chooseUserMenuItem(page, lookup(texts, 'layout.tokens'), tokens.getByTestId('token-new'));
      await tokens.getByText(lookup(texts, 'tokens.empty')).waitFor();
      await tokens.getByTestId('token-new').click();
      await page.getByTestId('token-name').fill('R laptop');
      await page.locator('#token-create').click();
      const secretBox = page.getByTestId('token-secret');
      await secretBox.waitFor();
      const secret = (await secretBox.innerText()).trim();
      expect(secret).toMatch(/^wt_[A-Za-z0-9_-]{43}$/);
      expect(await page.getByTestId('token-r-example').innerText()).toContain(`options(move2_movebank_api_url = "${server.baseUrl}/movebank/service/direct-read")`);
      await animationsSettled(page);
      await screenshot(page, `tokens-${tag}-made`);
      await page.getByTestId('token-made-close').click();
      await tokens.locator('.ant-table-row').first().waitFor();
      // the name is read whole in the list (the fixed columns once squeezed it to one letter)
      const nameCell = tokens.locator('.ant-table-row').first().locator('td').first();
      expect(await nameCell.innerText()).toBe('R laptop');
      expect((await nameCell.boundingBox())!.width).toBeGreaterThan(120);
      await animationsSettled(page);
      await screenshot(page, `tokens-${tag}-list`);
      expect(await tokens.innerText()).not.toContain(secret);

      const read = () => fetch(`${server.baseUrl}/movebank/service/direct-read?entity_type=study`, { headers: { authorization: `Basic ${Buffer.from(`${user.account}:${secret}`).toString('base64')}` } });
      const ok = await read();
      expect(ok.status).toBe(200);
      expect((await ok.text()).split('\r\n')[1]).toMatch(new RegExp(`^-1,Heron ${tag},`));

      await tokens.getByTestId('token-revoke-R laptop').click();
      await page.locator('#token-revoke-ok').click();
      await tokens.getByText(lookup(texts, 'tokens.state.revoked')).waitFor();
      expect((await read()).status).toBe(401);
    } finally {
      await context.close();
    }
  });
});
