import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Download tasks (/download): one row per request of a user, claimed by one server process (status
// WAITING -> DOWNLOADING; on PostgreSQL with FOR UPDATE SKIP LOCKED), its progress written as it goes
// (heartbeat_at: a DOWNLOADING row whose heartbeat stopped belonged to a server that stopped and is taken
// up again or failed), its file kept until expires_at. The devices and kinds are JSON arrays as asked:
// the row outlives a device deleted afterwards; the file's name is the server's own (the row's id).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await withId(db.schema.createTable('download_tasks'), d)
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('imeis', 'text', (c) => c.notNull())
    .addColumn('kinds', 'text', (c) => c.notNull())
    .addColumn('file_type', 'text', (c) => c.notNull())
    .addColumn('start_time', big, (c) => c.notNull())
    .addColumn('end_time', big, (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('rows', big, (c) => c.notNull().defaultTo(0))
    .addColumn('files_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('files_total', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('file_size', big, (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('started_at', big)
    .addColumn('heartbeat_at', big)
    .addColumn('finished_at', big)
    .addColumn('expires_at', big)
    .execute();
  await db.schema.createIndex('download_tasks_user_idx').on('download_tasks').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('download_tasks_status_idx').on('download_tasks').columns(['status', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('download_tasks').execute();
}
