import type { Kysely } from 'kysely';
import { bigintType, dialectOf } from '../dialect.js';

// Event e-mail (issue 15 item 5): where the mail job has got to in the events table. One row per job name:
// events up to last_event_id are done; seen_max_id is the newest id seen at the previous pass, the end of
// the next batch (an id written by a transaction still open then has committed by the next pass). A
// process claims a batch by moving both in one conditional update, so two servers never mail it twice.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const big = bigintType(dialectOf(db));
  await db.schema
    .createTable('event_mail_cursor')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('last_event_id', big, (c) => c.notNull())
    .addColumn('seen_max_id', big, (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_mail_cursor').execute();
}
