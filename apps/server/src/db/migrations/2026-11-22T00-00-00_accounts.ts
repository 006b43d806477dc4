import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Organisations, users, their settings, sessions, sign-in throttling and the server's sealing key.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);

  await withId(db.schema.createTable('organisations'), d)
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('parent_unit', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('users'), d)
    .addColumn('org_id', big, (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('user_name', 'text', (c) => c.notNull())
    .addColumn('user_name_key', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('email_key', 'text', (c) => c.unique())
    .addColumn('phone', 'text')
    .addColumn('telephone_code', 'text', (c) => c.notNull().defaultTo('86'))
    .addColumn('nick_name', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('is_primary', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('img_url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('fix_tag', 'text', (c) => c.notNull().defaultTo('DEFAULT'))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('updated_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('users_org_idx').on('users').column('org_id').execute();

  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', big, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('lcid', 'integer', (c) => c.notNull().defaultTo(2052))
    .addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('+08:00'))
    .addColumn('tdt_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('receive_app', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('receive_email', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('experience_func', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await withId(db.schema.createTable('sessions'), d)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('last_seen_at', big, (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_last_seen_idx').on('sessions').column('last_seen_at').execute();

  await db.schema
    .createTable('sign_in_failures')
    .addColumn('account_key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', big, (c) => c.notNull())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('locked_until', big, (c) => c.notNull().defaultTo(0))
    .execute();

  await withId(db.schema.createTable('server_keys'), d)
    .addColumn('purpose', 'text', (c) => c.notNull().unique())
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('secret_key', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['server_keys', 'sign_in_failures', 'sessions', 'user_settings', 'users', 'organisations']) {
    await db.schema.dropTable(t).execute();
  }
}
