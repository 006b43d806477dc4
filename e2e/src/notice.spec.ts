import AxeBuilder from '@axe-core/playwright';
import { MESSAGES } from '@wildtrack/contract';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { animationsSettled, catalogue, chooseUserMenuItem, lookup, newContext, onScreen, pollUntil, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * Notices and event notifications on /notice (issue 15 items 3-4) in both languages, no network beyond the
 * local server. The operator sends two notices with the CLI (`wildtrack send-notice`, to all
 * organisations): a multi-line one with an http(s) link, and one whose body is HTML (an img with an
 * onerror) and whose website is a javascript: URL. The avatar shows the unread dot; the user menu's
 * "notices" opens the system notices tab with both marked unread; the multi-line one's detail keeps its line
 * breaks and appends the open-URL link; the HTML one is shown as text (no img element, nothing run, no
 * link); it is deleted after confirmation; with both read the dot is gone. The event tab lists the sample
 * devices' instruction events, titled in the page's language.
 */
const setup = serverAndBrowser();

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', lang: 'zh' as const, texts: catalogue('zh-CN.json') },
  { locale: 'en-US' as const, tag: 'en', lang: 'en' as const, texts: catalogue('en-US.json') },
];

/** Serious or critical axe-core violations on /notice. */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('[data-testid=notice-page]').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} [${v.impact}] ${v.help} -> ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`);
}

const dot = (page: Page) => page.locator('[data-testid=user-menu] .ant-badge-dot');

describe.each(cases)('notices ($tag)', ({ locale, tag, lang, texts }) => {
  const t = (key: string, vars?: Record<string, string | number>) => lookup(texts, key, vars);

  it('reads a multi-line notice with its link, shows HTML as text, deletes one, and lists the samples\' instruction events', { timeout: 240_000 }, async () => {
    const lines = [`Maintenance ${tag}: the server restarts at 22:00.`, 'Expect five minutes without data.', '', 'The station team'];
    const multi = `Maintenance ${tag}`;
    const html = `Script ${tag}`;
    const htmlBody = `<img src=x onerror="window.__hacked='${tag}'"><b>bold</b> & <i>text</i>`;
    await setup.server.cli('send-notice', '--title', multi, '--body', lines.join('\\n'), '--website', 'https://status.example.org/maintenance');
    await setup.server.cli('send-notice', '--title', html, '--body', htmlBody, '--website', 'javascript:alert(1)');

    // only the local server answers: every other host fails, as on a field laptop without a network
    const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, setup.server.admin);
      await onScreen(page, '/device', 90_000);
      // ---- the unread dot on the avatar ----
      await dot(page).waitFor({ timeout: 30_000 });
      await animationsSettled(page);
      await screenshot(page, `notice-${tag}-dot`);

      // ---- the user menu's notices entry opens the system notices ----
      await chooseUserMenuItem(page, new RegExp(t('layout.notices')), page.getByTestId('notice-list'));
      await onScreen(page, '/notice');
      const item = (title: string) => page.getByTestId('notice-item').filter({ hasText: title });
      await item(multi).waitFor();
      expect(await item(multi).getAttribute('data-unread')).toBe('true');
      expect(await item(html).getAttribute('data-unread')).toBe('true');
      await screenshot(page, `notice-${tag}-list`);
      expect(await violations(page)).toEqual([]);

      // ---- the multi-line one: line breaks kept, the open-URL link appended; opening marks it read ----
      await item(multi).getByTestId('notice-open').click();
      const body = page.getByTestId('notice-body');
      await body.waitFor();
      expect(await body.evaluate((el) => (el as HTMLElement).innerText)).toBe(lines.join('\n'));
      const link = page.getByTestId('notice-open-url');
      expect(await link.getAttribute('href')).toBe('https://status.example.org/maintenance');
      expect(await link.textContent()).toContain(t('notice.openUrl'));
      await animationsSettled(page);
      await screenshot(page, `notice-${tag}-multiline`);
      await pollUntil(() => item(multi).getAttribute('data-unread'), (v) => v === 'false', 30_000, (v) => `the opened notice is still unread: ${v}`);
      // the dialog's primary button is Close (antd spaces a two-character Chinese label: "关 闭")
      await page.locator('.ant-modal-footer .ant-btn-primary').click();
      await body.waitFor({ state: 'detached' });

      // ---- the HTML one: shown as the text it is, no element made, nothing run, no link ----
      await item(html).getByTestId('notice-open').click();
      await body.waitFor();
      expect(await body.textContent()).toBe(htmlBody);
      expect(await body.locator('img, b, i').count()).toBe(0);
      expect(await page.locator('.ant-modal img').count()).toBe(0);
      expect(await page.getByTestId('notice-open-url').count()).toBe(0);
      expect(await page.evaluate(() => (window as { __hacked?: string }).__hacked)).toBeUndefined();
      await animationsSettled(page);
      await screenshot(page, `notice-${tag}-html-as-text`);

      // ---- deleted after confirmation; the list reloads; both read: the dot is gone ----
      await page.getByTestId('notice-detail-delete').click();
      const confirm = page.locator('.ant-modal-confirm');
      await confirm.waitFor();
      expect(await confirm.textContent()).toContain(t('notice.deleteTitle'));
      await animationsSettled(page);
      await screenshot(page, `notice-${tag}-delete-confirm`);
      await confirm.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
      await item(html).waitFor({ state: 'detached' });
      expect(await item(multi).count()).toBe(1);
      await pollUntil(() => dot(page).count(), (n) => n === 0, 30_000, (n) => `the unread dot is still shown (${n})`);
      // nothing warns: the deleted notice's open detail is not read again
      expect(await page.locator('.ant-notification-notice').count()).toBe(0);
      await animationsSettled(page);
      await screenshot(page, `notice-${tag}-deleted`);

      // ---- event notifications: the samples' instruction events in the page's language ----
      await page.getByRole('tab', { name: t('notice.eventsTab') }).click();
      const events = page.getByTestId('event-tab');
      await events.waitFor();
      const typeFilter = page.getByTestId('event-filter-type');
      const list = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)');
      for (let attempt = 1; ; attempt++) {
        await typeFilter.click();
        await list.getByTitle(t('notice.types.Instr'), { exact: true }).click();
        try {
          await pollUntil(() => events.getAttribute('data-filter-type'), (v) => v === '2', 5_000, (v) => `the type filter holds ${v}`);
          break;
        } catch (e) {
          if (attempt >= 3) throw e;
          if (await list.isVisible()) await page.keyboard.press('Escape');
        }
      }
      // the table shows the filtered page once it is not the previous answer kept while the new one loads
      await pollUntil(() => events.getAttribute('data-settled'), (v) => v === 'true', 30_000, () => 'the filtered events never arrived');
      const rows = page.getByTestId('event-table').locator('.ant-table-row');
      await pollUntil(() => rows.count(), (n) => n > 0, 30_000, () => 'no instruction events listed');
      const titles = await rows.locator('td:nth-child(4)').allTextContents();
      const typeWords = [MESSAGES['instr.type.ACQUISITION_FREQUENCY'][lang], MESSAGES['instr.type.POSTBACK_FREQUENCY'][lang]];
      for (const title of titles) expect(typeWords.some((w) => title.includes(w)), title).toBe(true);
      const tags = await rows.locator('td:nth-child(3)').allTextContents();
      expect(new Set(tags)).toEqual(new Set([t('notice.types.Instr')]));
      await animationsSettled(page);
      await screenshot(page, `notice-${tag}-events`);
      expect(await violations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
