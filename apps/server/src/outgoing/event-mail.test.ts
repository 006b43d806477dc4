import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DeviceType, EventType, LanguageId } from '@wildtrack/contract';
import { recordInstructionEvent } from '../db/shared-writes.js';
import { createTestApp, DIALECTS, type TestApp } from '../test/helper.js';
import { NOW } from '../test/fixed-time.js';
import { useFixedClock } from '../test/clock.js';
import { EventMailer } from './event-mail.js';
import { MailRepository } from './event-mail-repository.js';
import { createMailer } from './mail-transport.js';

interface Received {
  to: string[];
  subject: string;
  text: string;
}

/** A local SMTP sink: every message it accepts, parsed. */
async function smtpSink(): Promise<{ port: number; mails: Received[]; close(): Promise<void> }> {
  const mails: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((m) => {
          const to = (Array.isArray(m.to) ? m.to : m.to ? [m.to] : []).flatMap((a) => a.value.map((v) => v.address ?? ''));
          mails.push({ to, subject: m.subject ?? '', text: m.text ?? '' });
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { port, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/**
 * Event e-mail (issue 15 item 5) through a real SMTP exchange with a local sink: one mail per user per batch
 * (a burst of events is one mail), in the user's language and zone, only to users with e-mail on who may read
 * the device now (their organisation's, a share open now), each batch mailed once even by two servers.
 */
describe.each(DIALECTS)('event e-mail on %s', (dialect) => {
  let t: TestApp;
  // Who may read the device is read on the server's clock (a share open now): fixed at NOW.
  useFixedClock(NOW);
  let sink: Awaited<ReturnType<typeof smtpSink>>;
  let dev: { id: number; imei: string };
  const userIdOf = async (name: string) => Number((await t.database.db.selectFrom('users').select('id').where('user_name', '=', name).executeTakeFirstOrThrow()).id);
  const setMail = async (name: string, on: boolean, lang: 'zh' | 'en') =>
    t.database.db.updateTable('user_settings').set({ receive_email: on ? 1 : 0, lcid: LanguageId[lang], time_zone: '+08:00' }).where('user_id', '=', await userIdOf(name)).execute();

  beforeAll(async () => {
    sink = await smtpSink();
    t = await createTestApp(dialect, { SMTP_URL: `smtp://127.0.0.1:${sink.port}?ignoreTLS=1`, MAIL_FROM: 'Wildtrack <noreply@wildtrack.test>' });
    await t.services.users.createUser({ orgName: 'Mail Owner', userName: 'egret01', password: 'Field-Station-1', email: 'egret@example.org' });
    await t.services.users.createUser({ orgName: 'Mail Owner', userName: 'heron01', password: 'Field-Station-1', email: 'heron@example.org' });
    await t.services.users.createUser({ orgName: 'Mail Owner', userName: 'ibis01', password: 'Field-Station-1', email: 'ibis@example.org' });
    await t.services.users.createUser({ orgName: 'Mail Stranger', userName: 'stork01', password: 'Field-Station-1', email: 'stork@example.org' });
    await t.services.users.createUser({ orgName: 'Mail Lapsed', userName: 'crane01', password: 'Field-Station-1', email: 'crane@example.org' });
    await t.services.users.createUser({ orgName: 'Mail Recipient', userName: 'avocet01', password: 'Field-Station-1', email: 'avocet@example.org' });
    await t.services.users.createUser({ orgName: 'Mail Owner', userName: 'plover01', password: 'Field-Station-1', email: 'plover@example.org' });
    await setMail('egret01', true, 'zh');
    await setMail('heron01', true, 'en');
    await setMail('ibis01', false, 'en');
    await setMail('stork01', true, 'en');
    await setMail('crane01', true, 'en');
    await setMail('avocet01', true, 'en');
    await setMail('plover01', true, 'en');
    // A member of the owner's organisation whose account is disabled: they can't sign in to read anything.
    await t.database.db.updateTable('users').set({ enabled: 0 }).where('id', '=', await userIdOf('plover01')).execute();
    const org = await t.services.devices.orgIdByName('Mail Owner');
    dev = await t.services.devices.register({ orgId: org, imei: '862000000000001', type: DeviceType.Tracker, caption: 'Egret 7' });
    // A share that has ended: its recipient gets nothing.
    await t.database.db
      .insertInto('device_shares')
      .values({ device_id: dev.id, owner_user_id: await userIdOf('egret01'), recipient_user_id: await userIdOf('crane01'), edit_device: 0, remote_instr: 0, download_data: 0, effective_time: NOW - 2 * 86_400_000, failure_time: NOW - 86_400_000, created_at: NOW })
      .execute();
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it('mails a burst of events as one mail per user, in their language, to those with e-mail on who may read the device; a batch once', async () => {
    const mail = t.services.eventMail;
    expect(await mail.tick()).toBe(0); // the first pass starts from now: no mail about history
    const at = Date.UTC(2026, 10, 25, 2, 30); // 10:30 at +08:00
    for (const status of ['SENT', 'SUCCESSFUL', 'FAILED']) {
      await recordInstructionEvent(t.database.db, { deviceId: dev.id, instructionId: 1, type: 'SetWork', status, error: status === 'FAILED' ? 'flash busy' : null, at });
    }
    expect(await mail.tick()).toBe(0); // the burst is seen; it is mailed on the next pass, once committed everywhere
    // Two servers racing on the batch: one claims it.
    const other = new EventMailer(new MailRepository(t.database.db), createMailer({ smtpUrl: `smtp://127.0.0.1:${sink.port}?ignoreTLS=1`, mailFrom: 'x@wildtrack.test' }), async () => true, { warn: () => {} });
    const [a, b] = await Promise.all([mail.tick(), other.tick()]);
    expect(a + b).toBe(2);
    await expect.poll(() => sink.mails.length, { timeout: 10_000 }).toBe(2);
    expect(await mail.tick()).toBe(0);

    const byTo = new Map(sink.mails.map((m) => [m.to[0], m]));
    expect([...byTo.keys()].sort()).toEqual(['egret@example.org', 'heron@example.org']);
    const zh = byTo.get('egret@example.org')!;
    expect(zh.subject).toBe('Wildtrack：3 条新事件');
    expect(zh.text).toContain('您的设备有 3 条新事件');
    expect(zh.text).toContain('Egret 7');
    expect(zh.text).toContain('2026-11-25 10:30');
    expect(zh.text).toContain('flash busy');
    const en = byTo.get('heron@example.org')!;
    expect(en.subject).toBe('Wildtrack: 3 new events');
    expect(en.text).toContain('Your devices have 3 new events');
    expect(en.text).toContain('Egret 7');
  });

  it('leaves out events a user unsubscribed from (EventSubscribe), and mails nothing when nothing is left', async () => {
    const mail = t.services.eventMail;
    const heron = await userIdOf('heron01');
    const egret = await userIdOf('egret01');
    for (const userId of [heron, egret]) {
      await t.database.db.insertInto('event_subscriptions').values({ user_id: userId, device_id: dev.id, fence_event: 1, instr_event: 0, fix_update_event: 1 }).execute();
    }
    const before = sink.mails.length;
    await recordInstructionEvent(t.database.db, { deviceId: dev.id, instructionId: 2, type: 'SetWork', status: 'SENT', at: NOW });
    await mail.tick();
    expect(await mail.tick()).toBe(0);
    await t.database.db.insertInto('events').values({ device_id: dev.id, type: EventType.Device, happen_time: NOW, content: JSON.stringify({ key: 'batteryLow', percent: 8 }) }).execute();
    await mail.tick();
    expect(await mail.tick()).toBe(2);
    await expect.poll(() => sink.mails.length, { timeout: 10_000 }).toBe(before + 2);
    for (const m of sink.mails.slice(before)) expect(m.subject).toMatch(/^Wildtrack(：1 条新事件|: 1 new events)$/);
  });

  it("mails a share's recipient the events its window covers, as the event list answers them (the one read rule), and no disabled account", async () => {
    const mail = t.services.eventMail;
    const now = NOW;
    const effective = now - 3600_000;
    await t.database.db
      .insertInto('device_shares')
      .values({ device_id: dev.id, owner_user_id: await userIdOf('egret01'), recipient_user_id: await userIdOf('avocet01'), edit_device: 0, remote_instr: 0, download_data: 0, effective_time: effective, failure_time: now + 86_400_000, created_at: now })
      .execute();
    const before = sink.mails.length;
    // A battery report the device uploads late, taken before the share began, and one inside the window.
    for (const at of [effective - 3600_000, effective + 60_000]) {
      await t.database.db.insertInto('events').values({ device_id: dev.id, type: EventType.Device, happen_time: at, content: JSON.stringify({ key: 'batteryLow', percent: 8 }) }).execute();
    }
    await mail.tick();
    expect(await mail.tick()).toBe(3);
    await expect.poll(() => sink.mails.length, { timeout: 10_000 }).toBe(before + 3);
    const byTo = new Map(sink.mails.slice(before).map((m) => [m.to[0], m]));
    expect([...byTo.keys()].sort()).toEqual(['avocet@example.org', 'egret@example.org', 'heron@example.org']);
    expect(byTo.get('heron@example.org')!.subject).toBe('Wildtrack: 2 new events');
    expect(byTo.get('avocet@example.org')!.subject).toBe('Wildtrack: 1 new events');
  });

  it('writes times in the zone saved in Settings, which a later sign-in from another zone does not change (issue 28 item 3)', async () => {
    const mail = t.services.eventMail;
    const desk = await t.login('heron01', 'Field-Station-1', 'en', '+08:00');
    expect((await t.call(calls.SetAccountSetting.path, { app: 1, email: 1, tdtKey: '', timeZone: '-03:00' }, { token: desk.credential! })).body.Code).toBe(Code.Success);
    // The same account on a phone in New York.
    expect((await t.login('heron01', 'Field-Station-1', 'en', '-05:00')).body.Code).toBe(Code.Success);
    const before = sink.mails.length;
    await t.database.db.insertInto('events').values({ device_id: dev.id, type: EventType.Device, happen_time: Date.UTC(2026, 10, 25, 2, 30), content: JSON.stringify({ key: 'batteryLow', percent: 8 }) }).execute();
    await mail.tick();
    await mail.tick();
    await expect.poll(() => sink.mails.slice(before).some((m) => m.to[0] === 'heron@example.org'), { timeout: 10_000 }).toBe(true);
    const heron = sink.mails.slice(before).find((m) => m.to[0] === 'heron@example.org')!;
    expect(heron.text).toContain('2026-11-24 23:30'); // 02:30 UTC at -03:00
    expect(heron.text).not.toContain('21:30');
  });
});
