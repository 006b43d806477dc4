import type { Kysely } from 'kysely';
import { bigintType, dialectOf } from '../dialect.js';

// Notices to one user (a system notice such as "your download is ready"): user_id names the only user who
// lists, counts, reads and deletes it (null: every user of org_id, or of every organisation). A system
// notice's text is stored as message keys and their parameters (template, JSON) and rendered in the reader's
// language when read; title and body then hold the English text (for the CLI and anything reading the table).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const big = bigintType(dialectOf(db));
  await db.schema.alterTable('notices').addColumn('user_id', big, (c) => c.references('users.id').onDelete('cascade')).execute();
  await db.schema.alterTable('notices').addColumn('template', 'text').execute();
  await db.schema.createIndex('notices_user_idx').on('notices').columns(['user_id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('notices_user_idx').execute();
  await db.schema.alterTable('notices').dropColumn('template').execute();
  await db.schema.alterTable('notices').dropColumn('user_id').execute();
}
