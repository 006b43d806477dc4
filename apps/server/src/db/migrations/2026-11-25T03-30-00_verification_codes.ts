import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Verification codes (issue 17 items 2-4): one live code per purpose and address ('security' and 'bind'
// codes of a user, 'register', 'reset' and 'login' codes of an address), stored as a salted hash, with
// its expiry, the wrong tries so far and when it was sent (a new one is refused inside 60 s).
// security_verifications: until when a session may change its e-mail, phone and password after proving
// its owner. message_outbox: codes the server could not hand to an SMS gateway (none configured) or an
// SMTP relay (SMTP_URL unset), for the operator to read with `wildtrack outbox`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await withId(db.schema.createTable('verification_codes'), d)
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('sent_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint('verification_codes_purpose_target_key', ['purpose', 'target'])
    .execute();
  await db.schema.createIndex('verification_codes_expires_idx').on('verification_codes').column('expires_at').execute();
  await db.schema
    .createTable('security_verifications')
    .addColumn('session_id', big, (c) => c.primaryKey().references('sessions.id').onDelete('cascade'))
    .addColumn('verified_until', big, (c) => c.notNull())
    .execute();
  await withId(db.schema.createTable('message_outbox'), d)
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('message_outbox').execute();
  await db.schema.dropTable('security_verifications').execute();
  await db.schema.dropTable('verification_codes').execute();
}
