import { crc32, deflateSync } from 'node:zlib';
import { message } from '@wildtrack/contract';
import type { Page } from 'playwright-core';
import { describe, it } from 'vitest';
import { type Account, animationsSettled, catalogue, chooseUserMenuItem, lookup, newContext, recordBodies, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * User info and feedback (issue 17 items 1 and 6) in both languages, no network: from the user menu the
 * user uploads an avatar and a new nickname and sees the server's thumbnail (height 100) in the menu's
 * button; a wrongly typed file is refused in the form with the type message. Then feedback with two
 * photos, which `wildtrack list-feedback` shows the operator.
 */

const setup = serverAndBrowser();

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', texts: catalogue('zh-CN.json') },
  { locale: 'en-US' as const, tag: 'en', texts: catalogue('en-US.json') },
];

let attempts = 0;
async function newUser(tag: string): Promise<Account & { email: string }> {
  attempts += 1;
  // With an e-mail, so the safety prompt stays away.
  const email = `profile${tag}${attempts}@example.org`;
  return { ...(await setup.server.createUser({ org: `Profile Lab ${tag}`, name: `profile${tag}${attempts}`, password: 'Ranger2024x', email })), email };
}

/** A picture the browser uploads: a real one-colour RGB PNG of the size given (so the server's thumbnail has a known width). */
function picture(width: number, height: number, colour: { r: number; g: number; b: number }): Buffer {
  const chunk = (type: string, data: Buffer): Buffer => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [colour.r, colour.g, colour.b]).flat())]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(Array.from({ length: height }, () => row)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The natural size of the avatar image in the user menu's button once it has loaded from the server. */
async function menuAvatarSize(page: Page): Promise<string> {
  return page.getByTestId('user-menu').locator('img').evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? `${img.naturalWidth}x${img.naturalHeight}` : 'loading'));
}

describe.concurrent('user info and feedback', () => {
  for (const { locale, tag, texts } of cases) {
    it(`uploads an avatar seen in the menu and sends feedback with two photos (${locale})`, async ({ expect }) => {
      const t = (key: string, vars: Record<string, string | number> = {}) => lookup(texts, key, vars);
      const who = await newUser(tag);
      // only the local server answers: every other host fails, as on a field laptop without a network
      const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
      const page = await context.newPage();
      const calls = recordBodies(page, (url) => (url.pathname.endsWith('/api/User/ModifyInfo') || url.pathname.endsWith('/api/Advice/Submit') ? url.pathname : null));
      try {
        await signIn(page, setup.server.baseUrl, who);
        await page.getByTestId('user-menu').waitFor();
        expect(await page.getByTestId('user-menu').locator('img').count()).toBe(0);

        // ---- user info: a wrong type refused in the form, then a picture uploaded, saved, and its thumbnail in the menu ----
        await chooseUserMenuItem(page, t('layout.userInfo'), page.getByTestId('profile-save'));
        const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('profile-save') });
        const fileInput = dialog.locator('input[type=file]');
        await fileInput.setInputFiles({ name: 'notes.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
        await page.getByText(message(tag as 'zh' | 'en', 'upload.wrongType')).waitFor();
        await fileInput.setInputFiles({ name: 'crane.png', mimeType: 'image/png', buffer: picture(400, 200, { r: 30, g: 110, b: 80 }) });
        await expect.poll(() => dialog.getByTestId('profile-avatar').locator('img').count(), { timeout: 30_000 }).toBe(1);
        await dialog.getByTestId('profile-nickname').fill(`  Crane ringer ${tag}  `);
        await animationsSettled(page);
        await screenshot(page, `account-info-user-info-${tag}`);
        await dialog.getByTestId('profile-save').click();
        await page.getByText(t('profile.saved')).waitFor();
        // the server's thumbnail: height 100, the picture's proportions
        await expect.poll(() => menuAvatarSize(page), { timeout: 30_000 }).toBe('200x100');
        await expect.poll(() => page.getByTestId('user-menu').getAttribute('aria-label')).toContain(`Crane ringer ${tag}`);
        await calls.settled();
        const modify = calls.find((c) => c.path.endsWith('/api/User/ModifyInfo'))!;
        expect(modify.body.nickName).toBe(`Crane ringer ${tag}`);
        expect(String(modify.body.image)).toMatch(/^\/prod-api\/files\/uploads\/\d+\/[0-9a-f]{32}\.png$/);
        await animationsSettled(page);
        await screenshot(page, `account-info-menu-avatar-${tag}`);

        // ---- feedback with two photos ----
        await chooseUserMenuItem(page, t('layout.feedback'), page.getByTestId('feedback-send'));
        const feedback = page.locator('.ant-modal').filter({ has: page.getByTestId('feedback-send') });
        // the e-mail starts as the account's
        expect(await feedback.getByTestId('feedback-email').inputValue()).toBe(who.email);
        await feedback.getByTestId('feedback-email').fill('not-an-address');
        await feedback.getByTestId('feedback-send').click();
        await feedback.getByText(message(tag as 'zh' | 'en', 'validation.email.invalid')).waitFor();
        await feedback.getByText(message(tag as 'zh' | 'en', 'validation.feedback.qa')).waitFor();
        await calls.settled();
        expect(calls.filter((c) => c.path.endsWith('/api/Advice/Submit'))).toHaveLength(0);
        await feedback.getByTestId('feedback-email').fill(`ringer-${tag}@example.org`);
        await feedback.getByTestId('feedback-qa').fill(`The map is empty (${tag}).`);
        await feedback.locator('input[type=file]').setInputFiles([
          { name: 'a.png', mimeType: 'image/png', buffer: picture(60, 40, { r: 200, g: 40, b: 40 }) },
          { name: 'b.png', mimeType: 'image/png', buffer: picture(60, 40, { r: 40, g: 40, b: 200 }) },
        ]);
        await expect.poll(() => feedback.locator('.ant-upload-list-item-done').count(), { timeout: 30_000 }).toBe(2);
        await animationsSettled(page);
        await screenshot(page, `account-info-feedback-${tag}`);
        await feedback.getByTestId('feedback-send').click();
        await page.getByText(t('feedback.sent')).waitFor();
        await calls.settled();
        const sent = calls.find((c) => c.path.endsWith('/api/Advice/Submit'))!;
        expect(sent.body).toMatchObject({ email: `ringer-${tag}@example.org`, qa: `The map is empty (${tag}).` });
        expect(String(sent.body.pictures).split('#')).toHaveLength(2);
        // the operator reads it
        const listed = (await setup.server.cli('list-feedback', '--json'))
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as { qa: string; pictures: string[]; email: string });
        expect(listed.find((f) => f.qa === `The map is empty (${tag}).`)).toMatchObject({ email: `ringer-${tag}@example.org`, pictures: String(sent.body.pictures).split('#') });
      } finally {
        await context.close();
      }
    });
  }
});
