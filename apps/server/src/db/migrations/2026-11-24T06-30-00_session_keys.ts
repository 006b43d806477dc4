import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// The transport of docs/api.md ("Sessions and signing"): a request names its session by a random,
// non-secret id (x-session) and is signed with a key derived from the token, so the server keeps that
// key with the session instead of the token's hash (a hash can't check an HMAC). Sessions of the old
// transport have no key, so the table is made again: everyone signs in once more after the upgrade.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await db.schema.dropTable('sessions').execute();
  await withId(db.schema.createTable('sessions'), d)
    .addColumn('public_id', 'text', (c) => c.notNull().unique())
    .addColumn('signing_key', 'text', (c) => c.notNull())
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('last_seen_at', big, (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_last_seen_idx').on('sessions').column('last_seen_at').execute();
}
