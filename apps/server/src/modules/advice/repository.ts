import type { Kysely } from 'kysely';
import type { Database, FeedbackTable } from '../../db/schema.js';
import type { Insertable, Selectable } from 'kysely';

export type FeedbackRow = Selectable<FeedbackTable> & { user_name: string | null; org_name: string | null };

/** The feedback table's only user. */
export class AdviceRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<FeedbackTable>): Promise<void> {
    await this.db.insertInto('feedback').values(row).execute();
  }

  /** The newest first, with the sender's account and organisation names when they still exist. */
  list(limit: number, since?: number): Promise<FeedbackRow[]> {
    let q = this.db
      .selectFrom('feedback')
      .leftJoin('users', 'users.id', 'feedback.user_id')
      .leftJoin('organisations', 'organisations.id', 'feedback.org_id')
      .selectAll('feedback')
      .select(['users.user_name as user_name', 'organisations.name as org_name']);
    if (since !== undefined) q = q.where('feedback.created_at', '>=', since);
    return q.orderBy('feedback.created_at', 'desc').orderBy('feedback.id', 'desc').limit(limit).execute();
  }
}
