import AxeBuilder from '@axe-core/playwright';
import { SendInstruction, InstrSupportFlag } from '@wildtrack/contract';
import { IngestClient } from '@wildtrack/simulator';
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSignIn, type ApiUser } from './api';
import { animationsSettled, catalogue, lookup, newContext, onScreen, screenshot, serverAndBrowser } from './harness';

/**
 * Remote instructions on /instr (issue 14) in both languages, no network beyond the local server: two
 * devices checked in the tree, one already at today's limit (two instructions sent through the API in
 * set-up) is unchecked with the reason; "a fix every 10 minutes" with acceleration at 25 Hz is sent to the
 * other after the summary and shows SENT; the device fetches it with its next batch and acknowledges it,
 * as a tag does, and the history says SUCCESSFUL and the device details the new work status; a fresh
 * instruction is withdrawn; an instruction older than 2 minutes (its send time moved back in the database)
 * is refused with the spec's message.
 */
const setup = serverAndBrowser();

const ALL_SUPPORT = Object.values(InstrSupportFlag).reduce((m, b) => m | b, 0);

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', texts: catalogue('zh-CN.json'), collection: '采集频率', a: '861400000000101', b: '861400000000102', tooLate: '超过 2 分钟的指令不能撤回。' },
  { locale: 'en-US' as const, tag: 'en', texts: catalogue('en-US.json'), collection: 'Collection schedule', a: '861400000000201', b: '861400000000202', tooLate: 'Instructions older than 2 minutes cannot be withdrawn.' },
];

const secrets = new Map<string, string>();
let api: ApiUser;

beforeAll(async () => {
  for (const c of cases) {
    for (const [imei, caption] of [
      [c.a, `Crane ${c.tag} A`],
      [c.b, `Crane ${c.tag} B`],
    ] as const) {
      const out = await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', imei, '--caption', caption, '--sensors', 'GNSS,Acceleration', '--species', 'bird', '--battery', 'li');
      secrets.set(imei, (JSON.parse(out) as { secret: string }).secret);
    }
  }
  // what these tags can be told (§3 InstrSupport): the operator's tool does not set it
  const db = new Database(setup.server.databaseFile);
  try {
    db.prepare(`update devices set instr_support = ? where imei in (${cases.flatMap((c) => [c.a, c.b]).map(() => '?').join(',')})`).run(ALL_SUPPORT, ...cases.flatMap((c) => [c.a, c.b]));
  } finally {
    db.close();
  }
  // A of each language reports how it works (a fix an hour, no acceleration), as a tag does in its batches
  for (const c of cases) {
    await new IngestClient(setup.server.baseUrl, { imei: c.a, secret: secrets.get(c.a)! }).sendBatch({
      workStatus: {
        at: Date.now(),
        settings: {
          GNSSCollectionMode: 0,
          NormalType: 'INTERVAL',
          CustomHours: [],
          IntervalMinutes: 60,
          HighFrequencyIntervals: { High: 10, Medium: 30, Low: 60 },
          LowFrequencyHours: { High: [0, 12], Medium: [0], Low: [0] },
          DataPostbackMode: 'HOUR',
          PostbackHours: [0, 6, 12, 18],
          Realtime: false,
          PacketCount: null,
          PacketSize: null,
          AccEnabled: false,
          AccFollowGNSS: false,
          AccFrequencyHz: null,
          AccIntervalMinutes: null,
        },
      },
    });
  }
  // B of each language has reported a fix (a device never heard from takes no instruction) ...
  for (const c of cases) {
    await new IngestClient(setup.server.baseUrl, { imei: c.b, secret: secrets.get(c.b)! }).sendBatch({ fixes: { t: [Date.now() - 120_000], lon: [116.4], lat: [39.9] } });
  }
  // ... and has had its two collection instructions today (§9: 2 per device per day per type)
  api = await apiSignIn(setup.server.baseUrl, setup.server.admin.account, setup.server.admin.password);
  for (const c of cases) {
    for (const minutes of [60, 120]) {
      await api.call(SendInstruction, { imeis: [c.b], params: { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: minutes } }, timeZone: '+08:00' });
    }
  }
});

/** The tree's row of a device and its checkbox. */
const treeRow = (page: Page, imei: string): Locator => page.locator('[role=treeitem]', { has: page.getByTestId(`tree-device-${imei}`) });
const historyRow = (page: Page, id: string): Locator => page.getByTestId('instr-history').getByTestId(`instr-row-${id}`);

/** Serious or critical axe-core violations on /instr (the chosen devices, the form, the history). */
async function violations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).include('[data-testid=instr-page]').analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} [${v.impact}] ${v.help} -> ${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')}`);
}

/** Moves an instruction's send time back, as if it had been sent `ms` earlier. */
function sentEarlier(id: string, ms: number): void {
  const db = new Database(setup.server.databaseFile);
  try {
    db.prepare('update instructions set send_time = send_time - ? where id = ?').run(ms, Number(id));
  } finally {
    db.close();
  }
}

describe.each(cases)('remote instructions ($tag)', ({ locale, tag, texts, collection, a, b, tooLate }) => {
  const t = (key: string, vars?: Record<string, string | number>) => lookup(texts, key, vars);

  it(
    'unchecks the device at its limit, sends every 10 minutes with ACC 25 Hz, follows it to SUCCESSFUL and the new work status, withdraws a fresh one and not an old one',
    { timeout: 300_000 },
    async () => {
      // only the local server answers: every other host fails, as on a field laptop without a network
      const context = await newContext(setup.browser, locale, { offline: setup.server.baseUrl });
      const page = await context.newPage();
      try {
        // ---- sign in from /instr's own URL ----
        await page.goto(`${setup.server.baseUrl}/instr`);
        await page.locator('#account').waitFor({ timeout: 90_000 });
        await page.locator('#account').fill(setup.server.admin.account);
        await page.locator('#pwd').fill(setup.server.admin.password);
        await page.locator('button[type=submit]').click();
        await onScreen(page, '/instr', 90_000);
        await page.getByTestId('instr-page').waitFor({ timeout: 60_000 });
        await page.getByTestId('instr-no-devices').waitFor();

        // ---- check both cranes in the tree (found by name) ----
        await page.getByTestId('tree-search').locator('input').fill(`Crane ${tag}`);
        await treeRow(page, a).waitFor();
        await treeRow(page, a).getByRole('checkbox').click();
        await treeRow(page, b).getByRole('checkbox').click();

        // B is at today's limit: unchecked, with the reason
        const note = page.getByTestId('instr-unchecked');
        await note.waitFor({ timeout: 30_000 });
        expect(await note.textContent()).toContain(t('instr.uncheckedReason', { device: `Crane ${tag} B`, count: 2, limit: 2, type: collection }));
        await expect.poll(() => treeRow(page, b).getByRole('checkbox').getAttribute('aria-checked')).toBe('false');
        expect(await treeRow(page, a).getByRole('checkbox').getAttribute('aria-checked')).toBe('true');
        await page.getByTestId(`instr-device-${a}`).waitFor();
        expect(await page.getByTestId(`instr-device-${b}`).count()).toBe(0);

        // ---- a fix every 10 minutes, acceleration with each fix at 25 Hz ----
        await page.locator('input[data-testid=gnss-interval], [data-testid=gnss-interval] input').fill('10');
        await page.getByTestId('instr-sections').getByText(t('instr.section.acc'), { exact: true }).click();
        await page.getByTestId('acc-follow').click();
        await page.getByTestId('acc-hz').click();
        await page.locator('.ant-select-item-option', { hasText: '25 Hz' }).click();
        await animationsSettled(page);
        await screenshot(page, `instr-${tag}-form`);
        // the adaptive low-frequency mode's three hour lists (§9 caps 12, 8, 6), then back to the interval
        await page.getByTestId('gnss-mode').getByText(t('work.gnssMode.129'), { exact: true }).click();
        await page.getByTestId('gnss-low-Low').waitFor();
        await page.getByTestId('gnss-low-High').scrollIntoViewIfNeeded();
        await animationsSettled(page);
        await screenshot(page, `instr-${tag}-adaptive-low`);
        expect(await violations(page)).toEqual([]);
        await page.getByTestId('gnss-mode').getByText(t('work.gnssMode.0'), { exact: true }).click();
        expect(await page.locator('input[data-testid=gnss-interval], [data-testid=gnss-interval] input').inputValue()).toBe('10');

        // the summary: what the device will receive
        await page.getByTestId('instr-send').click();
        const summary = page.getByTestId(`summary-${a}`);
        await summary.waitFor();
        expect(await summary.textContent()).toContain(t('instr.say.gnssInterval', { count: 10 }));
        expect(await summary.textContent()).toContain(t('instr.say.accFollow', { hz: t('instr.say.hz', { hz: 25 }) }));
        await animationsSettled(page);
        await screenshot(page, `instr-${tag}-summary`);
        // the dialog's OK is Send (antd spaces a two-character Chinese label: "发 送")
        await page.locator('.ant-modal-confirm .ant-modal-confirm-btns .ant-btn-primary').click();

        // SENT, beside the device and in the history
        const result = page.getByTestId(`instr-device-${a}`).getByTestId('instr-result');
        await expect.poll(() => result.getByTestId('instr-status').getAttribute('data-status'), { timeout: 30_000 }).toBe('SENT');
        const sentRow = page.getByTestId('instr-history').locator(`[data-imei="${a}"][data-status="SENT"]`);
        await sentRow.first().waitFor({ timeout: 30_000 });
        const sentId = ((await sentRow.first().getAttribute('data-testid')) ?? '').replace('instr-row-', '');
        expect(sentId).toMatch(/^\d+$/);
        await sentRow.first().scrollIntoViewIfNeeded();
        await animationsSettled(page);
        await screenshot(page, `instr-${tag}-sent`);
        expect(await violations(page)).toEqual([]);

        // ---- the tag's next batch fetches it; it applies it and acknowledges, as a tag does ----
        const device = new IngestClient(setup.server.baseUrl, { imei: a, secret: secrets.get(a)! });
        const answer = await device.sendBatch({ fixes: { t: [Date.now() - 60_000], lon: [116.39], lat: [39.91], voltage: [3.95], sats: [9], hdop: [1.1], grade: [1] } });
        const fetched = answer.instructions.find((i) => String(i.id) === sentId);
        expect(fetched, JSON.stringify(answer.instructions)).toBeTruthy();
        await device.ack({ id: fetched!.id, outcome: 'SUCCESSFUL', executedAt: Date.now() });
        // the history reads again while an instruction waits (HISTORY_REFRESH_MS): SUCCESSFUL without a reload
        await expect.poll(() => historyRow(page, sentId).getAttribute('data-status'), { timeout: 60_000 }).toBe('SUCCESSFUL');
        await historyRow(page, sentId).scrollIntoViewIfNeeded();
        await animationsSettled(page);
        await screenshot(page, `instr-${tag}-successful`);

        // ---- the device details: the new work status, and the same history ----
        await page.goto(`${setup.server.baseUrl}/device?device=${a}&tab=work`);
        const work = page.getByTestId('work-status');
        await work.waitFor({ timeout: 60_000 });
        // it reported a fix an hour and no acceleration; it applied a fix every 10 minutes and ACC with each fix at 25 Hz
        await expect.poll(() => work.textContent(), { timeout: 30_000 }).toContain(t('work.minutes', { count: 10 }));
        expect(await work.textContent()).not.toContain(t('work.minutes', { count: 60 }));
        expect(await work.textContent()).toContain('25 Hz');
        await work.getByTestId('gnss-mode').scrollIntoViewIfNeeded();
        await animationsSettled(page);
        await screenshot(page, `instr-${tag}-work-status`);
        await page.getByTestId('device-details').getByRole('tab', { name: t('device.tab.instr') }).click();
        const detailsRow = page.getByTestId('device-details').getByTestId(`instr-row-${sentId}`);
        await expect.poll(() => detailsRow.getAttribute('data-status'), { timeout: 30_000 }).toBe('SUCCESSFUL');

        // ---- withdraw a fresh instruction (sent through the API a moment ago) ----
        const fresh = await api.call(SendInstruction, { imeis: [a], params: { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: 20, PacketSize: 512, Realtime: false } }, timeZone: '+08:00' });
        const freshId = fresh.List[0]!.IdStr;
        await page.goto(`${setup.server.baseUrl}/instr`);
        await page.getByTestId('instr-page').waitFor({ timeout: 60_000 });
        const freshRow = historyRow(page, freshId);
        await freshRow.waitFor({ timeout: 30_000 });
        expect(Number(await freshRow.getByTestId('instr-withdraw').getAttribute('data-left'))).toBeGreaterThan(0);
        await freshRow.getByTestId('instr-withdraw').click();
        await expect.poll(() => freshRow.getAttribute('data-status'), { timeout: 30_000 }).toBe('WITHDRAWN');
        expect(await freshRow.getByTestId('instr-withdraw').count()).toBe(0);

        // ---- an instruction sent over 2 minutes ago can't be withdrawn: the spec's message on its row ----
        const old = await api.call(SendInstruction, { imeis: [a], params: { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: 30, PacketSize: 512, Realtime: true } }, timeZone: '+08:00' });
        const oldId = old.List[0]!.IdStr;
        sentEarlier(oldId, 3 * 60_000);
        await page.reload();
        const oldRow = historyRow(page, oldId);
        await oldRow.waitFor({ timeout: 60_000 });
        expect(await oldRow.getAttribute('data-status')).toBe('SENT');
        await oldRow.getByTestId('instr-withdraw').click();
        const refusal = oldRow.getByTestId('instr-withdraw-refusal');
        await refusal.waitFor({ timeout: 30_000 });
        expect(await refusal.textContent()).toContain(tooLate);
        expect(await oldRow.getAttribute('data-status')).toBe('SENT');
        await oldRow.scrollIntoViewIfNeeded();
        await animationsSettled(page);
        await screenshot(page, `instr-${tag}-withdraw-refused`);
      } catch (e) {
        await screenshot(page, `instr-${tag}-failure`).catch(() => undefined);
        throw e;
      } finally {
        await context.close();
      }
    },
  );
});
