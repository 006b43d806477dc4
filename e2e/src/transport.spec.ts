import { Header, parseCredential } from '@wildtrack/contract';
import type { Request, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { newContext, serverAndBrowser, sessionCredential } from './harness';

const setup = serverAndBrowser();

/**
 * §7.1 as an eavesdropper sees it (docs/api.md "What travels"): everything the browser sends and
 * receives during a sign-in and the first screen is recorded, then searched for the session token.
 */
describe('the session token on the wire', () => {
  it('never travels after sign-in: requests carry the session id and a signature, the answer a sealed token', async () => {
    const context = await newContext(setup.browser, 'en-US');
    const page = await context.newPage();
    // Each read of a request or answer may outlive the page (a call sent while the context closes): it then
    // answers null instead of rejecting unhandled (CI: 'request.allHeaders: Target page … has been closed').
    const requests: Promise<{ path: string; headers: Record<string, string>; body: string } | null>[] = [];
    const answers: Promise<{ path: string; body: string; signedIn: boolean }>[] = [];
    page.on('request', (req: Request) => {
      const path = new URL(req.url()).pathname;
      const body = req.postData() ?? '';
      // allHeaders() includes the cookie header the browser adds
      requests.push(req.allHeaders().then((headers) => ({ path, headers, body }), () => null));
    });
    page.on('response', (res: Response) => {
      const path = new URL(res.url()).pathname;
      // (the live stream's answer never ends: its request is checked below with the others)
      if (path.startsWith('/prod-api/') && !path.endsWith('/Live/Stream')) {
        const signedIn = res.request().headerValue(Header.session).then((v) => v !== null, () => false);
        answers.push(Promise.all([res.text().catch(() => ''), signedIn]).then(([body, s]) => ({ path, body, signedIn: s })));
      }
    });
    try {
      await page.goto(`${setup.server.baseUrl}/login`);
      await page.locator('#account').fill(setup.server.admin.account);
      await page.locator('#pwd').fill(setup.server.admin.password);
      await page.locator('button[type=submit]').click();
      // Generous: signing in (argon2) beside other specs on two busy cores took over 10 s once.
      await page.waitForURL(`${setup.server.baseUrl}/device`, { timeout: 60_000 });
      await page.getByTestId('device-details').waitFor({ timeout: 60_000 });

      const credential = await sessionCredential(page);
      expect(credential).toBeTruthy();
      const { id, token } = parseCredential(credential!);
      expect(id).toMatch(/^[A-Za-z0-9_-]{22}$/);
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const received = await Promise.all(answers);
      const signIn = received.find((r) => r.path.endsWith('/api/Auth/PasswordLogin'));
      expect(JSON.parse(signIn!.body).Data.Token).toMatch(/^wt1\./);
      for (const r of received) expect(r.body.includes(token), `answer of ${r.path}`).toBe(false);

      const sent = (await Promise.all(requests)).filter((r) => r !== null);
      const calls = sent.filter((r) => r.path.startsWith('/prod-api/'));
      expect(calls.length).toBeGreaterThan(3);
      for (const r of sent) {
        expect(JSON.stringify(r.headers).includes(token), `headers of ${r.path}`).toBe(false);
        expect(r.body.includes(token), `body of ${r.path}`).toBe(false);
        expect(r.headers[Header.token], r.path).toBeUndefined();
      }
      // the password was sealed, and the calls after sign-in name the session
      expect(calls.find((r) => r.path.endsWith('/PasswordLogin'))!.body).not.toContain(setup.server.admin.password);
      const signedIn = calls.filter((r) => /\/api\/(Device|User)\//.test(r.path));
      expect(signedIn.length).toBeGreaterThan(0);
      for (const r of signedIn) expect(r.headers[Header.session], r.path).toBe(id);

      // §7.1's field values (docs/api.md "Encrypted bodies and answers"): every signed-in call's body is one
      // encrypted value, and every signed-in answer's Data is encrypted: no device, caption or position readable.
      const sessionCalls = calls.filter((r) => r.headers[Header.session] !== undefined && r.body !== '' && !r.path.endsWith('/Upload'));
      expect(sessionCalls.length).toBeGreaterThan(0);
      for (const r of sessionCalls) expect(Object.keys(JSON.parse(r.body) as object), `body of ${r.path}`).toEqual(['Encrypted']);
      const signedInAnswers = received.filter((r) => r.signedIn && r.body.startsWith('{'));
      expect(signedInAnswers.map((r) => r.path)).toEqual(expect.arrayContaining([expect.stringMatching(/\/api\/Device\//)]));
      let encrypted = 0;
      for (const r of signedInAnswers) {
        const data = (JSON.parse(r.body) as { Data: unknown }).Data;
        expect(data === null || (typeof data === 'string' && data.startsWith('wte1.')), `Data of ${r.path}`).toBe(true);
        if (data !== null) encrypted += 1;
        expect(r.body, `answer of ${r.path}`).not.toMatch(/"(Longitude|Latitude|Caption|IMEI|List)"/);
      }
      expect(encrypted).toBeGreaterThan(2);
    } finally {
      await context.close();
    }
  });
});
