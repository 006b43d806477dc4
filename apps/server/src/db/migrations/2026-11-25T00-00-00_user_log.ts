import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// The user log (§7.2 UserLog/Record): a row per page a user visited or key action they took, as their
// console reported it (type 'visit' or 'action', target the page's path or the action's name, time the
// client's, received_at the server's). The organisation's primary user reads it by member and range, so
// it is indexed by organisation and time, and by user and time.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await withId(db.schema.createTable('user_log'), d)
    .addColumn('org_id', big, (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('time', big, (c) => c.notNull())
    .addColumn('received_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('user_log_org_time_idx').on('user_log').columns(['org_id', 'time']).execute();
  await db.schema.createIndex('user_log_user_time_idx').on('user_log').columns(['user_id', 'time']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_log').execute();
}
