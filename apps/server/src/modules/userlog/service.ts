import {
  Code,
  formatTime,
  USER_LOG_MAX_AGE_MS,
  USER_LOG_MAX_AHEAD_MS,
  type calls,
  type UserLogEntry,
  type UserLogRow,
  type UserLogType,
} from '@wildtrack/contract';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.js';
import { checkedRange } from '../../http/range.js';
import { AppError, FieldRefusal, forbidden } from '../../http/errors.js';
import type { UserLogRepository } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

type ListBody = z.output<typeof calls.GetUserLogList.body>;
export type UserLogList = { Total: number; List: UserLogRow[]; Members: { UserIdStr: string; UserName: string; NickName: string }[] };

/** The user log: what a console reports of its user, read by the organisation's primary user only. */
export class UserLogService {
  constructor(private readonly log: UserLogRepository) {}

  /** Stores the caller's entries; an entry's time must be within the last 7 days and not ahead of the server (601 naming it). */
  async record(caller: Caller, entries: readonly UserLogEntry[], now = clockNow()): Promise<void> {
    entries.forEach((e, i) => {
      if (e.time < now - USER_LOG_MAX_AGE_MS || e.time > now + USER_LOG_MAX_AHEAD_MS) throw new FieldRefusal(['entries', i, 'time'], 'validation.invalidValue');
    });
    await this.log.record(caller.session.orgId, caller.session.userId, entries.map((e) => ({ type: e.entryType, target: e.target, time: e.time })), now);
  }

  async list(caller: Caller, body: ListBody): Promise<UserLogList> {
    const { orgId, userId } = caller.session;
    if (!(await this.log.isPrimary(userId, orgId))) throw forbidden();
    const members = await this.log.members(orgId);
    let memberId: number | undefined;
    if (body.memberId) {
      memberId = Number(body.memberId);
      // Another organisation's user is answered like one that does not exist.
      if (!members.some((m) => Number(m.id) === memberId)) throw new AppError(Code.NotFound, 'error.noSuchMember');
    }
    const { from, to } = checkedRange(caller, body);
    const q = { orgId, userId: memberId, from, to, offset: (body.currentPage - 1) * body.pageSize, limit: body.pageSize };
    const [total, rows] = await Promise.all([this.log.count(q), this.log.page(q)]);
    return {
      Total: total,
      List: rows.map((r) => ({
        Id: String(r.id),
        UserIdStr: String(r.user_id),
        UserName: r.user_name,
        NickName: r.nick_name,
        Type: r.type as UserLogType,
        Target: r.target,
        Time: formatTime(Number(r.time), caller.zone),
      })),
      Members: members.map((m) => ({ UserIdStr: String(m.id), UserName: m.user_name, NickName: m.nick_name })),
    };
  }
}
