import { API_BASE, Code, ExportData, LanguageId, prepareCall, SendInstruction, type CallDef } from '@wildtrack/contract';
import { IngestClient } from '@wildtrack/simulator';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { animationsSettled, catalogue, lookup, newContext, onScreen, screenshot, serverAndBrowser, sessionCredential } from './harness';

/**
 * Device sharing on /share (issue 16 item 5) in both languages, no network beyond the local server: the
 * organisation's user checks a tag in the tree and shares it with an account of another organisation
 * (found by user name, its nickname shown) for one day with DownloadData only; that account signs in and
 * sees the tag in its tree under the sharer's folder; its instructions are refused (greyed out on /instr,
 * and the call answers 1003) while an export of the tag's fixes is a file; the share shows in both
 * users' lists with its rights; the sharer revokes it after confirmation and the tag leaves the
 * recipient's tree.
 */
const setup = serverAndBrowser();

const PASSWORD = 'Egret-Station-7';
const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', texts: catalogue('zh-CN.json'), imei: '861500000000101', recipient: 'egretzhuser', nick: '白鹭站' },
  { locale: 'en-US' as const, tag: 'en', texts: catalogue('en-US.json'), imei: '861500000000201', recipient: 'egretenuser', nick: 'Egret station' },
];

beforeAll(async () => {
  for (const c of cases) {
    const out = await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', c.imei, '--caption', `Stork ${c.tag} shared`, '--sensors', 'GNSS', '--species', 'bird');
    secrets.set(c.imei, (JSON.parse(out) as { secret: string }).secret);
    // a fix an hour ago: before the share's window; the share grants all history (the form's default), so the recipient's export holds it
    await fixAt(c.imei, Date.now() - 3_600_000);
    // an e-mail, so that the safety prompt (no e-mail nor phone) does not cover the screens
    await setup.server.createUser({ org: `Egret Lab ${c.tag}`, name: c.recipient, password: PASSWORD, nick: c.nick, email: `${c.recipient}@example.org` });
  }
});

const secrets = new Map<string, string>();
const fixAt = (imei: string, t: number) =>
  new IngestClient(setup.server.baseUrl, { imei, secret: secrets.get(imei)! }).sendBatch({ fixes: { t: [t], lon: [116.39], lat: [39.91], sats: [9], hdop: [1.1], grade: [1] } });

const treeRow = (page: Page, imei: string): Locator => page.locator('[role=treeitem]', { has: page.getByTestId(`tree-device-${imei}`) });

/** A call signed with the session the browser holds, its body encrypted, as the web client sends it; the raw HTTP answer. */
async function signedCall(page: Page, def: CallDef, body: unknown, lang: 'zh' | 'en'): Promise<Response> {
  const credential = await sessionCredential(page);
  if (!credential) throw new Error('not signed in');
  const prepared = prepareCall({ credential, path: def.path, body, lcid: LanguageId[lang] });
  return fetch(setup.server.baseUrl + API_BASE + def.path, { method: 'POST', headers: prepared.headers, body: prepared.payload });
}

async function signInAt(page: Page, path: string, account: string, password: string): Promise<void> {
  await page.goto(`${setup.server.baseUrl}${path}`);
  await page.locator('#account').waitFor({ timeout: 90_000 });
  await page.locator('#account').fill(account);
  await page.locator('#pwd').fill(password);
  await page.locator('button[type=submit]').click();
  await onScreen(page, path, 90_000);
}

describe.each(cases)('device sharing ($tag)', ({ locale, tag, texts, imei, recipient, nick }) => {
  const t = (key: string, vars?: Record<string, string | number>) => lookup(texts, key, vars);
  const lang = tag as 'zh' | 'en';

  it('shares a tag for one day with DownloadData only, the recipient sees it and may export but not instruct, then it is revoked', { timeout: 300_000 }, async () => {
    const offline = (url: URL) => !url.href.startsWith(setup.server.baseUrl);
    const owner = await newContext(setup.browser, locale);
    await owner.route(offline, (route) => route.abort('internetdisconnected'));
    const guest = await newContext(setup.browser, locale);
    await guest.route(offline, (route) => route.abort('internetdisconnected'));
    try {
      // ---- the owner: check the tag on /share, find the recipient, one day, DownloadData only ----
      const page = await owner.newPage();
      await signInAt(page, '/share', setup.server.admin.account, setup.server.admin.password);
      await page.getByTestId('share-page').waitFor({ timeout: 60_000 });
      // §5: the tree starts with the devices one may share; a hint counts the others (the sample VHF receiver) and shows them on request
      const hidden = page.getByTestId('tree-right-hidden');
      await hidden.waitFor({ timeout: 60_000 });
      expect(await hidden.textContent()).toContain(t('tree.showAllRights'));
      await screenshot(page, `share-${tag}-tree-filtered`);
      await page.getByTestId('tree-search').locator('input').fill(`Stork ${tag} shared`);
      await treeRow(page, imei).waitFor();
      await treeRow(page, imei).getByRole('checkbox').click();
      await page.getByTestId('share-devices').locator(`[data-imei="${imei}"]`).waitFor();

      // yourself is refused in the form
      await page.getByTestId('share-account').locator('input').fill(setup.server.admin.account);
      await expect.poll(() => page.getByTestId('share-recipient').textContent()).toBe(t('share.problem.self'));

      await page.getByTestId('share-account').locator('input').fill(recipient);
      await page.getByTestId('share-account').locator('button').click();
      await expect.poll(() => page.getByTestId('share-recipient').textContent(), { timeout: 30_000 }).toBe(t('share.foundNick', { name: nick }));
      await page.getByTestId('share-days-1').click();
      const checkedRights = await page.getByTestId('share-rights').locator('input[type=checkbox]:checked').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
      expect(checkedRights).toEqual(['DownloadData']);
      // the data shared: all history unless chosen otherwise (issue 28)
      expect(await page.getByTestId('share-data-period').locator('input:checked').getAttribute('value')).toBe('ALL');
      expect(await page.getByTestId('share-data-words').textContent()).toBe(t('share.data.wordsAll'));
      await animationsSettled(page);
      await screenshot(page, `share-${tag}-form`);
      await page.getByTestId('share-submit').click();

      // the share in "what I shared": active, for one day, DownloadData only
      const given = page.getByTestId('share-list-given').locator(`tr[data-imei="${imei}"]`);
      await given.waitFor({ timeout: 30_000 });
      expect(await given.getAttribute('data-state')).toBe('ACTIVE');
      expect(await given.textContent()).toContain(nick);
      expect(await given.textContent()).toContain(t('share.right.DownloadData'));
      expect(await given.textContent()).not.toContain(t('share.right.RemoteInstr'));
      expect(await given.getByTestId('share-data-granted').textContent()).toBe(t('share.data.wordsAll'));
      await animationsSettled(page);
      await screenshot(page, `share-${tag}-given`);
      // a fix inside the window: the one the recipient's export holds
      await fixAt(imei, Date.now());

      // ---- the recipient: the tag in the tree, under the sharer's folder ----
      const other = await guest.newPage();
      await signInAt(other, '/device', recipient, PASSWORD);
      await treeRow(other, imei).waitFor({ timeout: 60_000 });
      await animationsSettled(other);
      await screenshot(other, `share-${tag}-recipient-tree`);

      // instructions refused: greyed out on /instr, and the call answers "no permission"
      await other.goto(`${setup.server.baseUrl}/instr`);
      await other.getByTestId('instr-page').waitFor({ timeout: 60_000 });
      await other.getByTestId('tree-search').locator('input').fill(`Stork ${tag} shared`);
      await treeRow(other, imei).waitFor({ timeout: 60_000 });
      expect(await treeRow(other, imei).getByRole('checkbox').getAttribute('aria-disabled')).toBe('true');
      await animationsSettled(other);
      await screenshot(other, `share-${tag}-recipient-instr`);
      const instr = (await (
        await signedCall(other, SendInstruction, { imeis: [imei], params: { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: 5, PacketSize: 512 } } }, lang)
      ).json()) as { Code: number };
      expect(instr.Code).toBe(Code.Forbidden);

      // export allowed: a CSV of the tag's fixes, the one of an hour ago (before the window) too: the share's data is all history
      const day = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
      const exported = await signedCall(
        other,
        ExportData,
        { imei, kind: 'fix', startTime: `${day(Date.now() - 86_400_000)} 00:00:00`, endTime: `${day(Date.now())} 23:59:59`, timeZone: '+08:00', fileType: 'csv' },
        lang,
      );
      expect(exported.status).toBe(200);
      expect(exported.headers.get('content-disposition') ?? '').toContain('attachment');
      const csv = (await exported.text()).trim().split(/\r?\n/);
      expect(csv.length, csv.join('\n')).toBe(3);

      // "shared with me": from the owner, DownloadData only
      await other.goto(`${setup.server.baseUrl}/share`);
      await other.getByTestId('share-page').waitFor({ timeout: 60_000 });
      await other.getByRole('tab', { name: t('share.tab.received') }).click();
      const received = other.getByTestId('share-list-received').locator(`tr[data-imei="${imei}"]`);
      await received.waitFor({ timeout: 30_000 });
      expect(await received.textContent()).toContain(t('share.right.DownloadData'));
      expect(await received.textContent()).not.toContain(t('share.right.EditDevice'));
      expect(await received.getByTestId('share-data-granted').textContent()).toBe(t('share.data.wordsAll'));
      await animationsSettled(other);
      await screenshot(other, `share-${tag}-received`);

      // ---- the owner lengthens it to 7 days from now in the edit dialog ----
      // the end of the window by its own mark: the primary user's list has a column more (who gave each share)
      const until = given.getByTestId('share-until');
      const oneDay = (await until.textContent()) ?? '';
      await given.getByTestId('share-edit').click();
      const dialog = page.locator('.ant-modal').filter({ has: page.getByTestId('share-window') });
      await dialog.getByTestId('share-days-7').click();
      await animationsSettled(page);
      await screenshot(page, `share-${tag}-edit`);
      await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
      await expect.poll(() => until.textContent(), { timeout: 30_000 }).not.toBe(oneDay);
      const days = (Date.parse(`${(await until.textContent())!.replace(' ', 'T')}+08:00`) - Date.parse(`${oneDay.replace(' ', 'T')}+08:00`)) / 86_400_000;
      expect(Math.round(days)).toBe(6);

      // the recipient's console stays open on /device, the tag in its tree (/share's tree shows only what one may share)
      await other.goto(`${setup.server.baseUrl}/device`);
      await treeRow(other, imei).waitFor({ timeout: 60_000 });

      // ---- the owner revokes it after confirmation ----
      await given.getByTestId('share-revoke').click();
      await page.getByTestId('share-revoke-ok').waitFor();
      await animationsSettled(page);
      await screenshot(page, `share-${tag}-revoke-confirm`);
      await page.getByTestId('share-revoke-ok').click();
      await expect.poll(() => page.getByTestId('share-list-given').locator(`tr[data-imei="${imei}"]`).count(), { timeout: 30_000 }).toBe(0);

      // ---- gone from the recipient's open console within seconds (the live stream says so), without navigating ----
      await expect.poll(() => other.getByTestId(`tree-device-${imei}`).count(), { timeout: 15_000 }).toBe(0);

      // ---- and gone from the recipient's tree on a new visit ----
      await other.goto(`${setup.server.baseUrl}/device`);
      await other.getByTestId('tree-search').waitFor({ timeout: 60_000 });
      await other.locator('[role=treeitem]').first().waitFor({ timeout: 60_000 });
      await expect.poll(() => other.getByTestId(`tree-device-${imei}`).count(), { timeout: 30_000 }).toBe(0);
      await animationsSettled(other);
      await screenshot(other, `share-${tag}-recipient-after-revoke`);
    } finally {
      await owner.close();
      await guest.close();
    }
  });
});
