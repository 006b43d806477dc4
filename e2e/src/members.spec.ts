import { MESSAGES } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { animationsSettled, catalogue, chooseUserMenuItem, lookup, newContext, onScreen, openedAnswer, openedBody, pollUntil, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * Organisation members (issue 17 item 5), in both languages, no network, one server for the file: the
 * primary user opens Members from the user menu, is refused a bad account name by the form, creates a
 * member and sees the temporary password once (made in the browser, sent sealed, in no answer); the member signs in in a second browser with it and must
 * change it before anything else; the primary user disables the member, whose session ends (the next
 * load goes to /login) and whose sign-in is refused. A member who is not primary has no Members entry.
 */

const setup = serverAndBrowser();

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', lang: 'zh' as const, texts: catalogue('zh-CN.json') },
  { locale: 'en-US' as const, tag: 'en', lang: 'en' as const, texts: catalogue('en-US.json') },
];

describe.each(cases)('organisation members ($tag)', ({ locale, tag, lang, texts }) => {
  it('the primary user creates a member who must change the temporary password; disabling them ends their session', { timeout: 120_000 }, async () => {
    const { server, browser } = setup;
    const password = 'Ranger2024x';
    const chief = { account: `chief${tag}`, password };
    await server.cli('create-user', '--org', `Wolong ${tag}`, '--name', chief.account, '--password', password, '--email', `chief${tag}@example.org`, '--primary');
    const guideName = `Guide${tag}01`;

    // only the local server answers: every other host fails, as on a field laptop without a network
    const chiefContext = await newContext(browser, locale, { offline: server.baseUrl });
    const guideContext = await newContext(browser, locale, { offline: server.baseUrl });
    try {
      const page = await chiefContext.newPage();
      await signIn(page, server.baseUrl, chief);
      await onScreen(page, '/device');
      const members = page.getByTestId('members');
      await chooseUserMenuItem(page, lookup(texts, 'layout.members'), members.locator('.ant-table-row').first());
      expect(await members.locator('.ant-table-row').count()).toBe(1);

      // The form checks §5 before anything is sent: an account name must start with a letter.
      await members.getByTestId('member-new').click();
      const form = page.locator('.ant-modal').filter({ has: page.getByTestId('member-userName') });
      await form.getByTestId('member-userName').fill('1guide');
      await form.getByTestId('member-nickName').fill('Guide');
      await page.locator('#member-create').click();
      const fault = form.locator('.ant-form-item-explain-error').first();
      await fault.waitFor();
      expect(await fault.textContent()).toBe(MESSAGES['validation.accountName.start'][lang]);
      await form.getByTestId('member-userName').fill(guideName);
      await form.getByTestId('member-email').fill(`guide${tag}@example.org`);
      const created = page.waitForResponse((r) => r.url().endsWith('/api/User/CreateMember'));
      await page.locator('#member-create').click();
      const temp = page.getByTestId('member-temp-password');
      await temp.waitFor();
      const tempPassword = (await temp.innerText()).trim();
      expect(tempPassword).toMatch(/^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z0-9]{12}$/);
      // On the wire (§7.1): the browser made the password and sent it sealed; the answer carries none.
      const wire = await created;
      expect(((await openedBody(page, wire.request())) as { tempPwd: string }).tempPwd).toMatch(/^wt1\./);
      expect(wire.request().postData()).not.toContain(tempPassword);
      expect(await wire.text()).not.toContain(tempPassword);
      expect(JSON.stringify(await openedAnswer(page, wire))).not.toContain(tempPassword);
      await animationsSettled(page);
      await screenshot(page, `members-${locale}-temporary-password`);
      await page.getByTestId('member-temp-close').click();
      await temp.waitFor({ state: 'hidden' });
      const row = members.locator('.ant-table-row').filter({ hasText: guideName });
      await row.waitFor();
      expect(await row.textContent()).toContain(lookup(texts, 'members.tempPassword'));

      // The member signs in elsewhere and sees only the change form until the password is changed.
      const guidePage = await guideContext.newPage();
      await signIn(guidePage, server.baseUrl, { account: guideName, password: tempPassword });
      const gate = guidePage.getByTestId('temp-password-gate');
      await gate.waitFor();
      expect(await guidePage.getByTestId('user-menu').count()).toBe(0);
      await guidePage.getByTestId('temp-original').fill(tempPassword);
      await guidePage.getByTestId('temp-new').fill('Own-Secret-22');
      await guidePage.getByTestId('temp-confirm').fill('Own-Secret-23');
      await guidePage.getByTestId('temp-submit').click();
      await gate.getByText(lookup(texts, 'members.confirmMismatch')).waitFor();
      await guidePage.getByTestId('temp-confirm').fill('Own-Secret-22');
      await animationsSettled(guidePage);
      await screenshot(guidePage, `members-${locale}-change-temporary`);
      await guidePage.getByTestId('temp-submit').click();
      await gate.waitFor({ state: 'hidden' });
      await onScreen(guidePage, '/device');
      await guidePage.getByTestId('user-menu').waitFor();
      // Not primary: no Members entry in the menu.
      await guidePage.getByTestId('user-menu').click();
      await guidePage.getByRole('menuitem', { name: lookup(texts, 'layout.logout') }).waitFor();
      expect(await guidePage.getByRole('menuitem', { name: lookup(texts, 'layout.members') }).count()).toBe(0);
      await guidePage.keyboard.press('Escape');

      // The primary user disables the member: the switch goes off once confirmed, the last sign-in is shown.
      const toggle = row.getByTestId(`member-enabled-${guideName}`);
      expect(await toggle.getAttribute('aria-checked')).toBe('true');
      await toggle.click();
      await page.locator('#member-disable-ok').click();
      await pollUntil(() => toggle.getAttribute('aria-checked'), (v) => v === 'false', 15_000, (v) => `the switch is ${v}`);
      await animationsSettled(page);
      await screenshot(page, `members-${locale}-disabled`);

      // The member's session has ended: the next load goes to /login, and signing in is refused.
      await guidePage.reload();
      await guidePage.waitForURL(/\/login/);
      await signIn(guidePage, server.baseUrl, { account: guideName, password: 'Own-Secret-22' });
      await guidePage.getByText(MESSAGES['auth.disabled'][lang]).first().waitFor();
      expect(guidePage.url()).toContain('/login');
    } finally {
      await Promise.all([chiefContext.close(), guideContext.close()]);
    }
  });
});
