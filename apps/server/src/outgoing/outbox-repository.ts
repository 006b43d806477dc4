import type { Kysely } from 'kysely';
import type { Database, MessageOutboxTable } from '../db/schema.js';
import type { Selectable } from 'kysely';

export type OutboxRow = Selectable<MessageOutboxTable>;

/** Messages no gateway took, for the operator (`wildtrack outbox`). */
export class OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(row: { channel: 'sms' | 'email'; address: string; subject: string; text: string; created_at: number }): Promise<void> {
    await this.db.insertInto('message_outbox').values(row).execute();
  }

  /** The newest first. */
  list(limit: number): Promise<OutboxRow[]> {
    return this.db.selectFrom('message_outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
  }

  /** Forgets messages older than `before` (codes in them died long ago). */
  async deleteBefore(before: number): Promise<number> {
    const r = await this.db.deleteFrom('message_outbox').where('created_at', '<', before).executeTakeFirst();
    return Number(r.numDeletedRows);
  }
}
