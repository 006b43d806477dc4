import { readFileSync } from 'node:fs';
import { sampleFleet } from '@wildtrack/sample-fleet';
import type { Page, Response } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsSettled, newContext, openedAnswer, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * Issue 12 item 2 in the browser, in both languages: a bad form submit shows the contract's sentence
 * naming the field (the same table the server answers 601 from); switching the language with a device
 * open changes its folder name, schedules and name at once, and on /track the fix list the server sends
 * carries the sample device's name in the new language; MapLibre's icon buttons are named in the language.
 */
const setup = serverAndBrowser();

type Texts = Record<string, unknown>;
const catalogue = (file: string): Texts => JSON.parse(readFileSync(new URL(`../../apps/web/src/i18n/${file}`, import.meta.url), 'utf8')) as Texts;
const lookup = (texts: Texts, key: string): string => {
  const value = key.split('.').reduce<unknown>((node, part) => (node as Texts | undefined)?.[part], texts);
  if (typeof value !== 'string') throw new Error(`no text ${key}`);
  return value;
};

const fleet = sampleFleet();
const stork = fleet[0]!;

/** The sentences as the contract's table writes them (written out here, so a changed table fails the spec). */
const SENTENCES = {
  zh: {
    folderRequired: '请输入文件夹名称。',
    hidden: '文件夹名称不能包含控制字符、不可见字符或改变文字方向的字符。',
    // the stork's tag runs voltage-adaptive high frequency (128) as it reports it (sample-fleet defaultSettings)
    schedule: /电压自适应（高频）：按电量每 \d+ \/ \d+ \/ \d+ 分钟定位/,
  },
  en: {
    folderRequired: 'Enter a folder name.',
    hidden: 'The folder name must not hold control, invisible or text-direction characters.',
    schedule: /Voltage-adaptive, high frequency: a fix every \d+ \/ \d+ \/ \d+ min by battery level/,
  },
} as const;

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh' as const, other: 'en' as const, switchTo: 'EN', back: '中' },
  { locale: 'en-US' as const, tag: 'en' as const, other: 'zh' as const, switchTo: '中', back: 'EN' },
];
const texts = { zh: catalogue('zh-CN.json'), en: catalogue('en-US.json') };
const nameIn = (lang: 'zh' | 'en') => (lang === 'zh' ? stork.captionZh : stork.caption);

async function signedIn(page: Page): Promise<void> {
  await signIn(page, setup.server.baseUrl, setup.server.admin);
  await page.waitForURL(`${setup.server.baseUrl}/device`);
}

/** Clicks the header's language toggle (generous: the machine is busy and the header re-renders as texts change). */
async function switchLanguage(page: Page, to: string): Promise<void> {
  await page.locator('.ant-segmented-item').filter({ hasText: new RegExp(`^${to}$`) }).click({ timeout: 30_000 });
}

/** The Caption of every fix in a fix-list answer (its Data opened as the console opens it). */
async function captions(page: Page, response: Response): Promise<string[]> {
  const body = (await openedAnswer(page, response)) as { Data: { List: { Caption: string }[] } | null };
  return (body.Data?.List ?? []).map((f) => f.Caption);
}

describe.each(cases)('messages and one language at a time ($tag)', ({ locale, tag, other, switchTo, back }) => {
  const t = (key: string) => lookup(texts[tag], key);
  const said = SENTENCES[tag];

  it('a bad form submit shows the sentence naming the field, from the same table as the server', async () => {
    const context = await newContext(setup.browser, locale);
    const page = await context.newPage();
    // Generous waits: the machine is shared, and other specs rebuild the web while this one runs.
    page.setDefaultTimeout(30_000);
    try {
      await signedIn(page);
      await page.getByRole('button', { name: t('tree.addRootFolder') }).click({ timeout: 30_000 });
      const dialog = page.locator('.ant-modal:visible').filter({ has: page.locator('input') }).first();
      await dialog.waitFor();
      // nothing typed: the name is asked for
      await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      await dialog.getByText(said.folderRequired, { exact: true }).waitFor({ timeout: 30_000 });
      // an invisible character: the rule's sentence, naming the field
      await dialog.locator('input').first().fill('Storks\u200B2026');
      await dialog.getByText(said.hidden, { exact: true }).waitFor();
      await animationsSettled(page);
      await screenshot(page, `messages-${tag}-folder-sentence`);
      expect(await dialog.locator('.ant-form-item-explain-error').allTextContents()).toEqual([said.hidden]);
    } finally {
      await context.close();
    }
  }, 120_000);

  it('switching the language with a device open changes its folder name, schedule and name at once; /track and the map follow', async () => {
    const context = await newContext(setup.browser, locale);
    const page = await context.newPage();
    // Generous waits: the machine is shared, and other specs rebuild the web while this one runs.
    page.setDefaultTimeout(30_000);
    // Call bodies are strict: every call the screens make on the way must take all the fields the web sends.
    const refused: string[] = [];
    page.on('response', (r) => {
      if (!r.url().includes('/prod-api/')) return;
      void r
        .json()
        .then((body: { Code?: number; Msg?: string }) => {
          if (body.Code === 601) refused.push(`${r.url()}: ${body.Msg}`);
        })
        .catch(() => {});
    });
    try {
      await signedIn(page);
      const o = (key: string) => lookup(texts[other], key);
      await page.getByTestId('device-tree').getByText(t('tree.experience'), { exact: true }).click();
      await page.getByTestId('device-table').getByText(nameIn(tag), { exact: true }).click();
      const details = page.getByTestId('device-details');
      await expect.poll(() => details.locator('h4').textContent(), { timeout: 30_000 }).toContain(nameIn(tag));
      await expect.poll(() => details.textContent(), { timeout: 30_000 }).toContain(t('tree.experience'));
      await details.getByRole('tab', { name: t('device.tab.work') }).click();
      await expect.poll(async () => SENTENCES[tag].schedule.test((await details.textContent()) ?? ''), { timeout: 30_000 }).toBe(true);
      await animationsSettled(page);
      await screenshot(page, `messages-${tag}-device-work-before`);

      // The other language: the open device's name, folder name and schedule, without a reload.
      await switchLanguage(page, switchTo);
      await expect.poll(() => details.locator('h4').textContent(), { timeout: 30_000 }).toContain(nameIn(other));
      await expect.poll(async () => SENTENCES[other].schedule.test((await details.textContent()) ?? ''), { timeout: 30_000 }).toBe(true);
      const after = (await details.textContent()) ?? '';
      expect(after).not.toMatch(SENTENCES[tag].schedule);
      expect(after).not.toContain(nameIn(tag));
      await details.getByRole('tab', { name: o('device.tab.details') }).click();
      await expect.poll(() => details.textContent(), { timeout: 30_000 }).toContain(o('tree.experience'));
      await animationsSettled(page);
      await screenshot(page, `messages-${tag}-device-after-switch`);
      await switchLanguage(page, back);
      await expect.poll(() => details.locator('h4').textContent(), { timeout: 30_000 }).toContain(nameIn(tag));

      // /track (the sample days up to now, the default range): the fix list the server sends names the device
      // in the language, and again after a switch.
      const isPage = async (r: Response) => r.url().endsWith('/api/Fix/GetListByPage') && r.request().method() === 'POST' && (await captions(page, r)).length > 0;
      const first = page.waitForResponse(isPage, { timeout: 60_000 });
      await page.goto(`${setup.server.baseUrl}/track?device=${stork.imei}`);
      await page.locator(`[data-testid="track-page"][data-imei="${stork.imei}"]`).waitFor({ timeout: 60_000 });
      const names = await captions(page, await first);
      expect(names.length).toBeGreaterThan(0);
      expect(new Set(names)).toEqual(new Set([nameIn(tag)]));
      await expect.poll(() => page.getByTestId('track-page').locator('.ant-card-head').textContent(), { timeout: 30_000 }).toContain(nameIn(tag));
      await page.getByTestId('fix-table').locator('tbody tr.ant-table-row').first().waitFor({ timeout: 60_000 });
      await animationsSettled(page);
      await screenshot(page, `messages-${tag}-track-before`);

      const again = page.waitForResponse(isPage, { timeout: 60_000 });
      await switchLanguage(page, switchTo);
      expect(new Set(await captions(page, await again))).toEqual(new Set([nameIn(other)]));
      await expect.poll(() => page.getByTestId('track-page').locator('.ant-card-head').textContent(), { timeout: 30_000 }).toContain(nameIn(other));
      // the map's zoom buttons are named in the new language too
      const zoomIn = page.locator('.maplibregl-ctrl-zoom-in').first();
      await zoomIn.waitFor({ timeout: 60_000 });
      await expect.poll(() => zoomIn.getAttribute('aria-label'), { timeout: 30_000 }).toBe(o('map.control.zoomIn'));
      expect(await page.locator('.maplibregl-ctrl-zoom-out').first().getAttribute('title')).toBe(o('map.control.zoomOut'));
      await animationsSettled(page);
      await screenshot(page, `messages-${tag}-track-after-switch`);
      await switchLanguage(page, back);
      await expect.poll(() => zoomIn.getAttribute('aria-label'), { timeout: 30_000 }).toBe(t('map.control.zoomIn'));
      expect(refused).toEqual([]);
    } finally {
      await context.close();
    }
  }, 240_000);
});
