import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface NewLogEntry {
  type: string;
  target: string;
  time: number;
}

export interface LogQuery {
  orgId: number;
  userId: number | undefined;
  from: number;
  to: number;
  offset: number;
  limit: number;
}

/** The user log's table; it reads the users table only for the names the log shows. */
export class UserLogRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async record(orgId: number, userId: number, entries: readonly NewLogEntry[], now: number): Promise<void> {
    if (entries.length === 0) return;
    await this.db
      .insertInto('user_log')
      .values(entries.map((e) => ({ org_id: orgId, user_id: userId, type: e.type, target: e.target, time: e.time, received_at: now })))
      .execute();
  }

  /** Whether the user is their organisation's primary user. */
  async isPrimary(userId: number, orgId: number): Promise<boolean> {
    const row = await this.db.selectFrom('users').select('is_primary').where('id', '=', userId).where('org_id', '=', orgId).executeTakeFirst();
    return row?.is_primary === 1;
  }

  members(orgId: number) {
    return this.db.selectFrom('users').select(['id', 'user_name', 'nick_name']).where('org_id', '=', orgId).orderBy('user_name').execute();
  }

  private filtered(q: LogQuery) {
    let query = this.db.selectFrom('user_log').where('user_log.org_id', '=', q.orgId).where('user_log.time', '>=', q.from).where('user_log.time', '<=', q.to);
    if (q.userId !== undefined) query = query.where('user_log.user_id', '=', q.userId);
    return query;
  }

  async count(q: LogQuery): Promise<number> {
    const row = await this.filtered(q).select((eb) => eb.fn.countAll<string | number>().as('n')).executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  page(q: LogQuery) {
    return this.filtered(q)
      .innerJoin('users', 'users.id', 'user_log.user_id')
      .select(['user_log.id', 'user_log.user_id', 'users.user_name', 'users.nick_name', 'user_log.type', 'user_log.target', 'user_log.time'])
      .orderBy('user_log.time', 'desc')
      .orderBy('user_log.id', 'desc')
      .offset(q.offset)
      .limit(q.limit)
      .execute();
  }
}
