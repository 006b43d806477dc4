import { crc32, deflateSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { type Account, chooseUserMenuItem, newContext, pickZone, recordBodies, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * The settings dialog (§2.4 Settings) in both languages: opened from the user menu, a map-service key that
 * Tianditu refuses shows the key-invalid message and nothing is saved; one it serves a tile for is saved;
 * the values are there when the dialog opens again; a new time zone moves the header's label. Tianditu is
 * played by a route (no network here): a 403, then a real PNG tile.
 */

const setup = serverAndBrowser();

// A user of its own for every attempt: a retried attempt must start from the default settings.
let attempts = 0;
function newUser(tag: string): Promise<Account> {
  attempts += 1;
  // With an e-mail, so the safety prompt stays away.
  return setup.server.createUser({ org: 'Qinling Reserve', name: `ranger${tag}${attempts}`, password: 'Ranger2024x', email: `${tag}${attempts}@example.org` });
}

/** A 1×1 opaque PNG, built here so the fake tile is a real image the browser decodes. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0); // width
  header.writeUInt32BE(1, 4); // height
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const row = Buffer.from([0, 0x9c, 0xc9, 0xb4]); // filter byte, then one pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(row)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

interface Tianditu {
  answer: 'refuse' | 'tile';
  keys: string[];
}

/** Only the local server and the routed Tianditu answer; every other host fails, as without a network. */
async function routes(context: BrowserContext, baseUrl: string): Promise<Tianditu> {
  const tianditu: Tianditu = { answer: 'refuse', keys: [] };
  const png = tinyPng();
  await context.route((url) => !url.href.startsWith(baseUrl), (route) => route.abort('internetdisconnected'));
  // Registered last, so it is asked first.
  await context.route('https://*.tianditu.gov.cn/**', (route) => {
    tianditu.keys.push(new URL(route.request().url()).searchParams.get('tk') ?? '');
    return tianditu.answer === 'tile'
      ? route.fulfill({ status: 200, contentType: 'image/png', body: png })
      : route.fulfill({ status: 403, contentType: 'text/plain', body: 'invalid key' });
  });
  return tianditu;
}

const cases = [
  {
    locale: 'zh-CN' as const,
    tag: 'zh',
    t: { settings: '设置', receiveEmail: '接收邮件通知', receiveApp: '接收 App 通知', key: '地图服务密钥（天地图）', save: '保存', keyInvalid: '地图密钥验证失败', saved: '设置已保存' },
  },
  {
    locale: 'en-US' as const,
    tag: 'en',
    t: { settings: 'Settings', receiveEmail: 'Receive e-mail notifications', receiveApp: 'Receive app notifications', key: 'Map-service key (Tianditu)', save: 'Save', keyInvalid: 'Map key validation failed', saved: 'Settings saved' },
  },
];

/** Opens the dialog from the user menu. */
async function openSettings(page: Page, label: string): Promise<void> {
  await chooseUserMenuItem(page, new RegExp(`${label}$`), page.getByTestId('settings-form'));
}

/** The dialog done zooming in (rc-motion's classes gone), so a screenshot shows it whole. */
async function settled(page: Page): Promise<void> {
  await page.locator('.ant-modal:not([class*="ant-zoom"])').filter({ has: page.getByTestId('settings-form') }).waitFor();
}

// The two languages run side by side (two pages of one browser, one server): the spec's time is mostly
// waiting on one page's rendering, and side by side it stays under half a minute.
describe.concurrent('the settings dialog', () => {
  for (const { locale, tag, t } of cases) {
    it(`checks the map key with a tile, keeps what is saved and moves the header's zone (${locale})`, async ({ expect }) => {
      const who = await newUser(tag);
      const context = await newContext(setup.browser, locale);
      const tianditu = await routes(context, setup.server.baseUrl);
      const page = await context.newPage();
      const saveCalls = recordBodies(page, (url) => (url.pathname.endsWith('/api/User/SetAccountSetting') ? 'save' : null));
      const saves = async () => {
        await saveCalls.settled();
        return saveCalls.map((c) => c.body);
      };
      try {
        await signIn(page, setup.server.baseUrl, who);
        // The context's zone is Asia/Shanghai: signed in with +08:00.
        const zoneLabel = page.getByTestId('time-zone');
        await zoneLabel.filter({ hasText: '+08:00' }).waitFor();

        await openSettings(page, t.settings);
        const form = page.getByTestId('settings-form');
        const appSwitch = form.getByRole('switch', { name: t.receiveApp });
        const emailSwitch = form.getByRole('switch', { name: t.receiveEmail });
        expect(await appSwitch.getAttribute('aria-checked')).toBe('true');
        expect(await emailSwitch.getAttribute('aria-checked')).toBe('false');
        await emailSwitch.click();
        await expect.poll(() => emailSwitch.getAttribute('aria-checked')).toBe('true');

        // ---- a key Tianditu refuses (403): the key-invalid message, nothing saved ----
        const key = form.getByLabel(t.key);
        await key.fill('refusedkey0123');
        await form.getByTestId('settings-save').click();
        await form.getByText(t.keyInvalid).waitFor();
        // the test tile, then the request that tells a refusal from Tianditu out of reach (it answered)
        expect(tianditu.keys).toEqual(['refusedkey0123', 'refusedkey0123']);
        expect(await saves()).toEqual([]);
        await settled(page);
        await screenshot(page, `settings-${locale}-key-invalid`);

        // ---- a key Tianditu serves a tile for: saved, trimmed ----
        tianditu.answer = 'tile';
        const goodKey = locale === 'zh-CN' ? '0123456789abcdef0123456789abcdef' : 'FEDCBA9876543210fedcba9876543210';
        await key.fill(`  ${goodKey}  `);
        await form.getByTestId('settings-save').click();
        await form.waitFor({ state: 'detached' });
        expect(tianditu.keys).toEqual(['refusedkey0123', 'refusedkey0123', goodKey]);
        expect(await saves()).toEqual([{ app: 1, email: 1, tdtKey: goodKey, timeZone: '+08:00' }]);

        // ---- opened again: the values read from the server are the saved ones ----
        await openSettings(page, t.settings);
        expect(await form.getByLabel(t.key).inputValue()).toBe(goodKey);
        expect(await form.getByRole('switch', { name: t.receiveEmail }).getAttribute('aria-checked')).toBe('true');
        expect(await form.getByRole('switch', { name: t.receiveApp }).getAttribute('aria-checked')).toBe('true');
        expect(await form.getByTestId('settings-time-zone').textContent()).toContain('+08:00');
        await settled(page);
        await screenshot(page, `settings-${locale}-reopened`);

        // ---- a new zone: the header follows at once, and the choice is kept for the next sign-in ----
        await pickZone(page, '-05:00');
        await form.getByTestId('settings-save').click();
        await form.waitFor({ state: 'detached' });
        await zoneLabel.filter({ hasText: '-05:00' }).waitFor();
        // The key was proved when it was saved: no second tile for an unchanged key.
        expect(tianditu.keys).toHaveLength(3);
        expect((await saves())[1]).toEqual({ app: 1, email: 1, tdtKey: goodKey, timeZone: '-05:00' });
        const chosen = (await context.cookies()).find((c) => c.name === 'wildtrack_chosen_time_zone');
        expect(chosen?.value).toBe('-05:00');
        await screenshot(page, `settings-${locale}-zone-changed`);
      } catch (e) {
        await screenshot(page, `debug-settings-${locale}-failure`);
        throw e;
      } finally {
        await context.close();
      }
    });
  }
});
