import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// QR sign-in (issue 17 item 4): one row per code a sign-in page asked for, in the database so that any
// server process can answer its poll and its confirmation. The code (in the QR) and the ticket (kept by
// the page) are stored as SHA-256 hashes: they are 32 random bytes each, so no salt is needed, and the
// code's hash is how the row is found. status: waiting → scanned → confirmed (user_id set) → used, or
// declined; rows are swept a while after expires_at.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await withId(db.schema.createTable('qr_logins'), d)
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('ticket_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('user_id', big, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('qr_logins_expires_idx').on('qr_logins').column('expires_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('qr_logins').execute();
}
