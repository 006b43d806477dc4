import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Feedback sent from the console (§3 Feedback, /api/Advice/Submit): who sent it (user and organisation,
// kept when the user is gone), the e-mail and phone to answer to, the question, the pictures' addresses
// joined by '#', the sender's language and when. Operators read it with `wildtrack list-feedback`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await withId(db.schema.createTable('feedback'), d)
    .addColumn('user_id', big, (c) => c.notNull())
    .addColumn('org_id', big, (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone', 'text', (c) => c.notNull())
    .addColumn('qa', 'text', (c) => c.notNull())
    .addColumn('pictures', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('feedback_created_idx').on('feedback').column('created_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('feedback').execute();
}
