import { formatTime, langFromId, message } from '@wildtrack/contract';
import { createMailer, type Mailer } from './mail-transport.js';
import { mayReadRecord } from '../modules/device/access.js';
import { describeEvent } from '../modules/event/service.js';
import type { EventFilter } from '../live/hub.js';
import type { MailRepository, MailEventRow } from './event-mail-repository.js';
import { now as clockNow } from '../lib/clock.js';

/** Most events listed in one mail; the rest are counted. */
const LISTED_MAX = 50;

/**
 * Event e-mail (issue 15 item 5): every interval (EVENT_MAIL_INTERVAL_SECONDS, a minute by default) one process claims the events written since
 * the last batch (MailRepository.claimBatch: one conditional update, so two servers never mail a batch
 * twice) and sends each user whose ReceiveNotification.Email is on one mail listing the batch's events of the
 * devices they may read now by the read rule of every call (modules/device/access.ts mayReadRecord: their
 * organisation's, a share open now with the event inside its window; sample devices are not mailed) and
 * subscribe to (EventSubscribe), in their language and time zone. Off without SMTP_URL.
 */
export class EventMailer {
  constructor(
    private readonly repo: MailRepository,
    private readonly mailer: Mailer,
    private readonly wants: EventFilter,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {}

  get enabled(): boolean {
    return this.mailer.enabled;
  }

  /** One pass: claims a batch and mails it; returns how many mails were sent. */
  async tick(now = clockNow()): Promise<number> {
    if (!this.mailer.enabled) return 0;
    const batch = await this.repo.claimBatch('events');
    if (!batch) return 0;
    const events = await this.repo.events(batch.after, batch.upTo);
    if (events.length === 0) return 0;
    const orgIds = [...new Set(events.map((e) => e.orgId))];
    const deviceIds = [...new Set(events.map((e) => e.deviceId))];
    let sent = 0;
    for (const user of await this.repo.recipients(orgIds, deviceIds, now)) {
      const theirs: MailEventRow[] = [];
      for (const e of events) {
        // The read rule of every call (the examples are not mailed: the batch holds none of them).
        if (!mayReadRecord({ deviceId: e.deviceId, orgId: e.orgId, samples: false }, { orgId: user.orgId, experience: false, shares: user.shares }, now, e.happenTime)) continue;
        if (await this.wants(user.userId, e.deviceId, e.type)) theirs.push(e);
      }
      if (theirs.length === 0) continue;
      const lang = langFromId(user.lcid);
      const lines = theirs.slice(0, LISTED_MAX).map((e) => {
        const d = describeEvent(e.type, e.content, e.caption || e.imei, lang, user.zone);
        return `${formatTime(e.happenTime, user.zone)}  ${d.Title}\n    ${d.Content.replace(/\n/g, '\n    ')}`;
      });
      if (theirs.length > LISTED_MAX) lines.push(message(lang, 'mail.events.more', { count: theirs.length - LISTED_MAX }));
      const text = [message(lang, 'mail.events.intro', { count: theirs.length }), '', ...lines, '', message(lang, 'mail.events.footer')].join('\n');
      try {
        await this.mailer.send({ to: user.email, subject: message(lang, 'mail.events.subject', { count: theirs.length }), text });
        sent++;
      } catch (err) {
        this.log.warn({ err, userId: user.userId }, 'event e-mail not sent');
      }
    }
    return sent;
  }
}

/**
 * The event e-mailer on the app's configuration (SMTP_URL, MAIL_FROM), with the one start log line when it is
 * off; its job (every EVENT_MAIL_INTERVAL_SECONDS) is an entry of jobs/index.ts `serverJobs`.
 */
export function eventMailer(
  config: Parameters<typeof createMailer>[0],
  repo: MailRepository,
  wants: EventFilter,
  log: { warn(obj: object, msg: string): void; info(msg: string): void },
): EventMailer {
  const mailer = new EventMailer(repo, createMailer(config), wants, log);
  if (!mailer.enabled) log.info('event e-mail is off: SMTP_URL is not set');
  return mailer;
}
