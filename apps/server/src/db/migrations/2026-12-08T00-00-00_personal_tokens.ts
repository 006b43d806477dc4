import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Personal access tokens (issue 29, "Deliver as well" 3): a user's read-only keys for scripts that read
// the Movebank direct-read API. The secret is 32 random bytes shown once; only its SHA-256 is kept (as
// for QR codes: with that much randomness no salt is needed), and the hash is how a request finds its
// row. `hint` is the secret's last characters, for the list. A revoked token keeps its row (revoked_at)
// so the list can say so; expires_at null: never expires.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await withId(db.schema.createTable('personal_tokens'), d)
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('hint', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big)
    .addColumn('revoked_at', big)
    .addColumn('last_used_at', big)
    .execute();
  await db.schema.createIndex('personal_tokens_user_idx').on('personal_tokens').column('user_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('personal_tokens').execute();
}
