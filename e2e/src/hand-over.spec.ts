import { API_BASE, GetPublicKey, GetUserInfo, LanguageId, newRequestCode, PasswordLogin, prepareSignIn, signedHeaders } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { catalogue, lookup, newContext, onScreen, screenshot, serverAndBrowser, sessionCredential, tokenCookie } from './harness';

/**
 * A session handed over in the address (§2.2 `#token=`, issue 26 L10): a link made by someone else opens
 * their account only after "Signed in as X — continue?". Cancelling ends that session on the server and
 * leaves the browser signed out on /login; continuing opens the console as X, on the link's path. Both
 * languages.
 */
const setup = serverAndBrowser();

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', texts: catalogue('zh-CN.json') },
  { locale: 'en-US' as const, tag: 'en', texts: catalogue('en-US.json') },
];

async function post(path: string, body: string, headers: Record<string, string>): Promise<{ Code: number; Data: unknown }> {
  const res = await fetch(setup.server.baseUrl + API_BASE + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  return (await res.json()) as { Code: number; Data: unknown };
}

/** Signs in through the API as the web client does and answers the credential `<SessionId>.<Token>` a link would carry. */
async function credentialOf(account: string, password: string): Promise<string> {
  const lcid = LanguageId.en;
  const key = await post(GetPublicKey.path, '{}', signedHeaders({ path: GetPublicKey.path, body: '{}', lcid }));
  const requestCode = newRequestCode();
  const prepared = prepareSignIn((key.Data as { PublicKey: string }).PublicKey, password, requestCode);
  const body = JSON.stringify({ account, pwd: prepared.pwd, clientKey: prepared.clientKey, timeZone: '+08:00' });
  const answer = await post(PasswordLogin.path, body, signedHeaders({ path: PasswordLogin.path, body, lcid, requestCode }));
  return prepared.credential(answer.Data as { Token: string; SessionId: string });
}

/** Whether the server still serves the session (GetUserInfo answers 1000, not 1004). */
async function alive(credential: string): Promise<boolean> {
  const r = await post(GetUserInfo.path, '{}', signedHeaders({ token: credential, path: GetUserInfo.path, body: '{}', lcid: LanguageId.en }));
  return r.Code === 1000;
}

describe.each(cases)('a session handed over in the address ($tag)', ({ locale, tag, texts }) => {
  const t = (key: string, vars?: Record<string, string>) => lookup(texts, key, vars);

  it('asks "signed in as X — continue?": cancel ends that session, continue opens the console as X', async () => {
    const nick = tag === 'zh' ? '马洛里' : 'Mallory';
    const other = await setup.server.createUser({ org: `Hand Over ${tag}`, name: `handover${tag}`, password: 'Hand-Over-2026', nick });
    const context = await newContext(setup.browser, locale);
    try {
      const page = await context.newPage();
      // cancel: the link's session ends on the server, this browser stays signed out
      const first = await credentialOf(other.account, other.password);
      await page.goto(`${setup.server.baseUrl}/device#token=${encodeURIComponent(first)}`);
      await page.getByText(t('login.handOver.title', { name: nick })).waitFor();
      expect(await page.getByTestId('hand-over-account').textContent()).toBe(t('login.handOver.account', { name: other.account, org: `Hand Over ${tag}` }));
      expect(new URL(page.url()).hash).toBe('');
      // nothing of the console is there behind it
      expect(await page.getByTestId('device-tree').count()).toBe(0);
      await screenshot(page, `hand-over-${locale}-confirm`);
      await page.getByRole('button', { name: t('login.handOver.cancel') }).click();
      await page.waitForURL(/\/login\?redirect=%2Fdevice$/);
      await expect.poll(() => alive(first)).toBe(false);
      expect(await sessionCredential(page)).toBeNull();
      expect(await tokenCookie(context)).toBeUndefined();

      // continue: the console as X, on the link's path; a reload asks nothing more
      const second = await credentialOf(other.account, other.password);
      await page.goto(`${setup.server.baseUrl}/device#token=${encodeURIComponent(second)}`);
      await page.getByRole('button', { name: t('login.handOver.continue', { name: nick }) }).click();
      await onScreen(page, '/device');
      await page.getByTestId('device-tree').waitFor();
      expect(await sessionCredential(page)).toBe(second);
      expect(await alive(second)).toBe(true);
      await page.reload();
      await page.getByTestId('device-tree').waitFor();
      expect(await page.getByText(t('login.handOver.title', { name: nick })).count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
