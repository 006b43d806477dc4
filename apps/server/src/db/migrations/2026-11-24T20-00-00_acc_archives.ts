import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Daily ACC archive files (§3 ArchiveRecord, §9 Archive): one row per device and UTC day, written by the
// archive job after the day closes (jobs/archives.ts). The row is claimed first (status 0, claimed_at)
// so that two server processes never build the same file; status 1 once the file is on disk with its
// sample count and size. Rows and files older than the kept days are deleted by the same job.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await withId(db.schema.createTable('acc_archives'), d)
    .addColumn('device_id', big, (c) => c.notNull())
    // floor(UTC day start / 86 400 000)
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('file', 'text', (c) => c.notNull())
    .addColumn('record_count', big, (c) => c.notNull())
    .addColumn('file_size', big, (c) => c.notNull())
    .addColumn('claimed_at', big, (c) => c.notNull())
    .addColumn('created_at', big)
    .execute();
  await db.schema.createIndex('acc_archives_device_day').unique().on('acc_archives').columns(['device_id', 'day']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('acc_archives').execute();
}
