import type { Kysely } from 'kysely';
import { bigintType, dialectOf } from '../dialect.js';

// A share's data period (issue 28 item 2): what its recipient reads — ALL (every record), FROM (from
// data_from on) or WINDOW (the share's window, what every share read before) — apart from when it is
// valid (effective_time .. failure_time). A share made before keeps WINDOW: nothing widens silently.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const big = bigintType(dialectOf(db));
  await db.schema.alterTable('device_shares').addColumn('data_period', 'text', (c) => c.notNull().defaultTo('WINDOW')).execute();
  await db.schema.alterTable('device_shares').addColumn('data_from', big).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('device_shares').dropColumn('data_from').execute();
  await db.schema.alterTable('device_shares').dropColumn('data_period').execute();
}
