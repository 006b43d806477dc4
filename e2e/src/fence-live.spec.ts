import { CreateFence, SetAccountSetting } from '@wildtrack/contract';
import { IngestClient } from '@wildtrack/simulator';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiSignIn, type ApiUser } from './api';
import { animationsSettled, newContext, onScreen, pollUntil, screenshot, serverAndBrowser, signIn } from './harness';
import { smtpSink } from './smtp-sink';

/**
 * A fence crossed, end to end (issue 15: geofences, events, live delivery, e-mail), in both languages, no
 * network beyond the local server and a local SMTP sink. A tag flies east along a parallel; a polygon
 * around part of its route is saved with an enter rule; with /notice's event list open, the tag uploads
 * its next fixes through the simulator's ingest client (the route into and out of the fence): the Fence
 * event arrives in the open list without a reload, and the SMTP sink (the server started with SMTP_URL
 * pointing at it) receives the event mail naming the fence, sent to the user whose e-mail notifications
 * are on. One server for the file.
 */
// Before serverAndBrowser's hooks: the server starts with SMTP_URL pointing at the sink, and its event
// e-mail job claiming a batch every 2 s instead of every minute (EVENT_MAIL_INTERVAL_SECONDS): the mail
// then comes seconds after the crossing, where the default interval kept each test waiting one to two minutes.
const { mails, env } = smtpSink();
const setup = serverAndBrowser({ env: Object.assign(env, { EVENT_MAIL_INTERVAL_SECONDS: '2' }) });

const cases = [
  { locale: 'zh-CN' as const, tag: 'zh', imei: '861500000000301', lat: 39.9, fence: '芦苇荡 zh' },
  { locale: 'en-US' as const, tag: 'en', imei: '861500000000402', lat: 40.3, fence: 'Reed marsh en' },
];
const secrets = new Map<string, string>();
let api: ApiUser;
const MIN = 60_000;

/** Fixes along the parallel `lat` at these longitudes, 10 minutes apart, the last one `end` ms ago. */
function leg(lat: number, lons: number[], end: number) {
  const now = Date.now();
  return { fixes: { t: lons.map((_, i) => now - end - (lons.length - 1 - i) * 10 * MIN), lon: lons, lat: lons.map(() => lat), sats: lons.map(() => 9), hdop: lons.map(() => 1.1) } };
}

beforeAll(async () => {
  api = await apiSignIn(setup.server.baseUrl, setup.server.admin.account, setup.server.admin.password);
  // e-mail notifications on for the signed-in user (off by default)
  await api.call(SetAccountSetting, { app: 1, email: 1, tdtKey: '', timeZone: '+08:00' });
  for (const c of cases) {
    const out = await setup.server.cli('register-device', '--org', 'Wildtrack', '--imei', c.imei, '--caption', `Reed tag ${c.tag}`, '--sensors', 'GNSS', '--species', 'bird');
    secrets.set(c.imei, (JSON.parse(out) as { secret: string }).secret);
  }
});

describe.each(cases)('a fence crossed, live and by e-mail ($locale)', ({ locale, tag, imei, lat, fence }) => {
  it('shows the Fence event in the open event list without a reload, and mails it', { timeout: 300_000 }, async () => {
    const device = new IngestClient(setup.server.baseUrl, { imei, secret: secrets.get(imei)! });
    // a polygon around the middle of the route (116.2-116.3 E), an enter rule judged by the server
    const ring: [number, number][] = [[116.2, lat - 0.05], [116.3, lat - 0.05], [116.3, lat + 0.05], [116.2, lat + 0.05]];
    await api.call(CreateFence, {
      label: fence, shape: { Type: 'Polygon', Coordinates: ring }, inOrOut: 'ENTER', ruleType: 1, imeis: [imei],
      collection: { Mode: 'INTERVAL', IntervalMinutes: 5 }, postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512 }, timeZone: '+08:00',
    });
    // the route's first part, west of the fence: the device's first side in it (outside), no event
    await device.sendBatch(leg(lat, [116.0, 116.05, 116.1, 116.15], 3 * 60 * MIN));

    const context = await newContext(setup.browser, locale);
    const page = await context.newPage();
    try {
      await signIn(page, setup.server.baseUrl, setup.server.admin, '/notice');
      await onScreen(page, '/notice');
      const list = page.getByTestId('event-tab');
      await list.and(page.locator('[data-settled="true"]')).waitFor({ timeout: 30_000 });
      const rows = page.getByTestId('event-table').locator('tbody tr').filter({ hasText: fence });
      expect(await rows.count()).toBe(0);
      const totalBefore = Number(await list.getAttribute('data-total'));
      // the Events tab's unread count (Event/GetCount, viewed 0), loaded before the crossing
      const unread = page.getByTestId('event-unread');
      const unreadBefore = Number(await pollUntil(() => unread.getAttribute('data-unread'), (n) => n !== null && n !== '', 30_000, () => 'the unread count did not load'));
      // a mark on this document: a reload would lose it
      await page.evaluate(() => ((window as unknown as { liveMark: number }).liveMark = 1));
      await animationsSettled(page);
      await screenshot(page, `fence-live-${tag}-before`);

      // ---- the tag flies on: into the fence (116.25) and out of it (116.35) ----
      await device.sendBatch(leg(lat, [116.25, 116.35, 116.4], 60 * MIN));
      await pollUntil(() => list.getAttribute('data-total'), (n) => Number(n) === totalBefore + 1, 60_000, (n) => `events listed ${n}, were ${totalBefore}`);
      await rows.first().waitFor({ timeout: 30_000 });
      expect(await rows.count()).toBe(1);
      // the unread count changes with it, live
      await pollUntil(() => unread.getAttribute('data-unread'), (n) => Number(n) === unreadBefore + 1, 30_000, (n) => `unread ${n}, was ${unreadBefore}`);
      expect(await page.evaluate(() => (window as unknown as { liveMark?: number }).liveMark)).toBe(1);
      await animationsSettled(page);
      await screenshot(page, `fence-live-${tag}-arrived`);
    } finally {
      await context.close();
    }

    // ---- the event mail: the job sends an interval's events (2 s here) as one mail per user ----
    const mail = await pollUntil(
      async () => mails.find((m) => m.text.includes(fence)),
      (m) => m !== undefined,
      60_000,
      () => `no mail naming ${fence}; ${mails.length} mail(s): ${mails.map((m) => m.subject).join(' | ')}`,
    );
    expect(mail!.to).toContain(setup.server.admin.email || '@');
    expect(mail!.text).toContain(`Reed tag ${tag}`);
  });
});
