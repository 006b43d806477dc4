import type { Kysely } from 'kysely';
import { bigintType, blobType, clusteredByKey, dialectOf } from '../dialect.js';

// The averaged fix table of a second-level device, a UTC day at a time: the day's rows (runs of 1 s
// fixes and single fixes) summarised as float64 records (span, shown time, the mean of each sortable
// column; modules/fix/averaging.ts), so that a month's page reads 30 blobs instead of 432,000 keys
// (bench/tracks 3). Stored only for days that have fixes; a write to a day's fixes deletes its row in
// the same transaction (db/shared-writes.ts, with the day's track segment).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  await clusteredByKey(
    db.schema
      .createTable('fix_group_days')
      .addColumn('device_id', bigintType(d), (c) => c.notNull())
      // floor(pick_time / 86 400 000)
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('group_count', 'integer', (c) => c.notNull())
      .addColumn('data', blobType(d), (c) => c.notNull())
      .addPrimaryKeyConstraint('fix_group_days_pk', ['device_id', 'day']),
    d,
  ).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fix_group_days').execute();
}
