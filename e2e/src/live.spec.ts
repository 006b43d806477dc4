import { IngestClient } from '@wildtrack/simulator';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { newContext, onScreen, pollUntil, screenshot, serverAndBrowser, signIn } from './harness';

/**
 * Live delivery in the console (issue 15 item 5), one context per language, no network beyond the local
 * server: with /map2d open on a device, a fix uploaded through the ingest API moves the device's marker (its
 * legend row's last fix) without a reload; a notice sent by the operator's CLI (another process) lights the
 * avatar's unread dot at once; while the stream can't be reached the header says so, and the console
 * reconnects by itself once it can. Reconnect and catch-up after a restart are covered by apps/server live.test.ts.
 */
const setup = serverAndBrowser();

const cases = [
  { locale: 'zh-CN' as const, imei: '861500000000101', caption: 'Live crane zh', down: '实时更新已中断' },
  { locale: 'en-US' as const, imei: '861500000000202', caption: 'Live crane en', down: 'Live updates paused' },
];
const secrets = new Map<string, string>();
const HOUR = 3600_000;

beforeAll(async () => {
  for (const c of cases) {
    const out = await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', c.imei, '--caption', c.caption, '--sensors', 'GNSS', '--species', 'bird');
    secrets.set(c.imei, (JSON.parse(out) as { secret: string }).secret);
  }
});

interface Row {
  imei: string;
  count: number;
  fixTime: number | null;
}

async function legendRow(page: Page, imei: string): Promise<Row | undefined> {
  const rows = await page.locator('[data-testid="map2d-legend"] .wt-map-legend-row').evaluateAll((els) =>
    els.map((r) => {
      const el = r as HTMLElement;
      return { imei: el.dataset.imei ?? '', count: Number(el.dataset.count), fixTime: el.dataset.fixTime ? Number(el.dataset.fixTime) : null };
    }),
  );
  return rows.find((r) => r.imei === imei);
}

describe.each(cases)('live updates ($locale)', ({ locale, imei, down }) => {
  it('moves the marker of a device when it uploads a fix and lights the unread dot when a notice is sent, without a reload', async () => {
    const device = new IngestClient(setup.server.baseUrl, { imei, secret: secrets.get(imei)! });
    const first = Date.now() - 2 * HOUR;
    await device.sendBatch({ fixes: { t: [first], lon: [116.3], lat: [39.9], alt: [50] } });

    const context = await newContext(setup.browser, locale);
    const page = await context.newPage();
    try {
      // The live stream can't be reached at first: the header says so, and the console reconnects by itself once it can.
      const stream = '**/prod-api/api/Live/Stream*';
      await context.route(stream, (route) => route.abort('connectionrefused'));
      await signIn(page, setup.server.baseUrl, setup.server.admin, `/map2d?devices=${imei}`);
      await onScreen(page, '/map2d');
      await page.getByTestId('map').and(page.locator('[data-state="ready"]')).waitFor({ timeout: 30_000 });
      await page.getByTestId('live-down').getByText(down).waitFor();
      await screenshot(page, `live-${locale}-down`);
      await context.unroute(stream);
      await page.getByTestId('live-down').waitFor({ state: 'detached', timeout: 60_000 });
      const before = await pollUntil(() => legendRow(page, imei), (r) => r !== undefined && r.count === 1, 30_000, (r) => `legend row ${JSON.stringify(r)}`);
      expect(before!.fixTime).toBe(first);
      // A mark on this document: a reload would lose it.
      await page.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));
      // The unread count as read at load (the other language's case may have left a notice unread).
      const dot = page.getByTestId('unread-dot');
      const unreadBefore = Number(await dot.getAttribute('data-unread'));

      // ---- the device reports a new fix: the marker moves to it ----
      const second = Date.now() - HOUR;
      await device.sendBatch({ fixes: { t: [second], lon: [116.8], lat: [40.2], alt: [50] } });
      const after = await pollUntil(() => legendRow(page, imei), (r) => r?.count === 2, 30_000, (r) => `legend row after the upload ${JSON.stringify(r)}`);
      expect(after!.fixTime).toBe(second);
      expect(await page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark)).toBe(1);
      await page.getByTestId('live-down').waitFor({ state: 'detached' });

      // ---- the operator sends a notice (the CLI: another process): the unread dot lights ----
      await setup.server.cli('send-notice', '--title', `Live ${locale}`, '--body', 'Counted live.', '--org', 'Wildtrack');
      await pollUntil(() => dot.getAttribute('data-unread'), (n) => Number(n) === unreadBefore + 1, 30_000, (n) => `unread ${n}, was ${unreadBefore}`);
      expect(await page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark)).toBe(1);
      await screenshot(page, `live-${locale}-moved-and-notice`);
    } finally {
      await context.close();
    }
  });
});
