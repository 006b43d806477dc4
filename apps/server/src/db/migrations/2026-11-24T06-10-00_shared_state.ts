import type { Kysely } from 'kysely';
import { bigintType, clusteredByKey, dialectOf } from '../dialect.js';

// State that every server process must share and that must outlive a restart, kept in the database
// when no Redis is configured: request codes of signed console calls (claimed by a unique insert, so a
// captured request is refused by any process, before or after a restart) and fixed-window counters
// (sign-in attempts per client address). A job deletes rows past `expires_at`.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await clusteredByKey(
    db.schema
      .createTable('request_codes')
      .addColumn('code', 'text', (c) => c.primaryKey())
      .addColumn('expires_at', big, (c) => c.notNull()),
    d,
  ).execute();
  await db.schema.createIndex('request_codes_expires').on('request_codes').column('expires_at').execute();

  await clusteredByKey(
    db.schema
      .createTable('rate_counters')
      .addColumn('counter_key', 'text', (c) => c.primaryKey())
      .addColumn('hits', 'integer', (c) => c.notNull())
      .addColumn('expires_at', big, (c) => c.notNull()),
    d,
  ).execute();
  await db.schema.createIndex('rate_counters_expires').on('rate_counters').column('expires_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('rate_counters').execute();
  await db.schema.dropTable('request_codes').execute();
}
