import { Code, formatTime, isPlainText, type Lang, message, type MessageKey, type Notice, NOTICE_BODY_MAX, NOTICE_TITLE_MAX, NOTICE_WEBSITE_MAX } from '@wildtrack/contract';
import type { Caller } from '../../http/caller.js';
import { AppError } from '../../http/errors.js';
import { announceCreated } from '../../domain/event-bus.js';
import type { NoticeRepository, NoticeRow } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

/** A notice the operator (or the system) wants to send refused before anything is stored. */
export class NoticeInputError extends Error {}

/** A message of the catalogue and its parameters; a parameter is text, a number, a time (epoch ms, shown in the reader's zone) or another message. */
export interface NoticeText {
  key: MessageKey;
  params?: Record<string, string | number | { time: number } | NoticeText>;
}

/** A system notice's title and body, stored as messages and rendered in the reader's language and zone when read. */
export interface NoticeTemplate {
  title: NoticeText;
  body: NoticeText;
}

function render(t: NoticeText, lang: Lang, zone: string): string {
  const params: Record<string, string | number> = {};
  for (const [name, v] of Object.entries(t.params ?? {})) {
    params[name] = typeof v === 'object' ? ('time' in v ? formatTime(v.time, zone) : render(v, lang, zone)) : v;
  }
  return message(lang, t.key, params);
}

const noticeNotFound = () => new AppError(Code.NotFound, 'notice.notFound');

/**
 * Notices (§2.4, §3 Notice, §4 Notice): sent by the operator's CLI or the system to one organisation or to
 * all; each user reads them (their organisation's and those to all), marks them read and deletes them for
 * themselves. Title and Body are stored as given (plain text; clients never render them as HTML).
 */
export class NoticeService {
  constructor(private readonly repo: NoticeRepository) {}

  /** Sends a notice to the organisation named (all organisations when none); answers its id. */
  async send(n: { title: string; body: string; website?: string | undefined; orgName?: string | undefined }, now = clockNow()): Promise<number> {
    const title = n.title.trim();
    const body = n.body.replace(/\r\n?/g, '\n');
    const website = (n.website ?? '').trim();
    if (!title) throw new NoticeInputError('a notice needs a title (--title)');
    if (title.length > NOTICE_TITLE_MAX) throw new NoticeInputError(`the title can be at most ${NOTICE_TITLE_MAX} characters`);
    if (!isPlainText(title)) throw new NoticeInputError('the title must not hold control, invisible or text-direction characters');
    if (!body.trim()) throw new NoticeInputError('a notice needs a body (--body)');
    if (body.length > NOTICE_BODY_MAX) throw new NoticeInputError(`the body can be at most ${NOTICE_BODY_MAX} characters`);
    if (website.length > NOTICE_WEBSITE_MAX) throw new NoticeInputError(`the website can be at most ${NOTICE_WEBSITE_MAX} characters`);
    let orgId: number | null = null;
    if (n.orgName !== undefined) {
      const found = await this.repo.orgIdByName(n.orgName.trim());
      if (found === undefined) throw new NoticeInputError(`no organisation named ${n.orgName}`);
      orgId = found;
    }
    const id = await this.repo.create({ orgId, title, body, website, sendTime: now });
    announceCreated({ kind: 'notice', noticeId: id, orgId, userId: null });
    return id;
  }

  /**
   * A system notice to one user only (their organisation's other users never see it), its text rendered in
   * the reader's language at read time; the English text is stored as title and body too. Answers its id.
   */
  async sendToUser(userId: number, template: NoticeTemplate, now = clockNow()): Promise<number> {
    const orgId = await this.repo.orgIdOfUser(userId);
    if (orgId === undefined) throw new NoticeInputError(`no user ${userId}`);
    const id = await this.repo.create({
      orgId,
      userId,
      title: render(template.title, 'en', 'UTC'),
      body: render(template.body, 'en', 'UTC'),
      website: '',
      template: JSON.stringify(template),
      sendTime: now,
    });
    announceCreated({ kind: 'notice', noticeId: id, orgId, userId });
    return id;
  }

  private record(r: NoticeRow, lang: Lang, zone: string): Notice {
    const template = r.template === null ? null : (JSON.parse(r.template) as NoticeTemplate);
    return {
      Id: r.id,
      NoticeId: r.id,
      IdStr: String(r.id),
      NoticeIdStr: String(r.id),
      Title: template ? render(template.title, lang, zone) : r.title,
      Body: template ? render(template.body, lang, zone) : r.body,
      SendTime: formatTime(r.send_time, zone),
      Viewed: r.viewed_at === null ? 0 : 1,
      Website: r.website,
    };
  }

  unreadCount(caller: Caller): Promise<number> {
    return this.repo.unreadCount(caller.session.userId, caller.session.orgId);
  }

  async list(caller: Caller): Promise<Notice[]> {
    return (await this.repo.list(caller.session.userId, caller.session.orgId)).map((r) => this.record(r, caller.lang, caller.zone));
  }

  private async mine(caller: Caller, idStr: string): Promise<NoticeRow> {
    const r = await this.repo.one(caller.session.userId, caller.session.orgId, Number(idStr));
    if (!r) throw noticeNotFound();
    return r;
  }

  async get(caller: Caller, idStr: string): Promise<Notice> {
    return this.record(await this.mine(caller, idStr), caller.lang, caller.zone);
  }

  async viewed(caller: Caller, idStr: string, now = clockNow()): Promise<void> {
    const r = await this.mine(caller, idStr);
    await this.repo.markViewed(caller.session.userId, r.id, now);
  }

  async delete(caller: Caller, idStr: string, now = clockNow()): Promise<void> {
    const r = await this.mine(caller, idStr);
    await this.repo.markDeleted(caller.session.userId, r.id, now);
  }
}
