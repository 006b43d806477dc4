import type { Kysely } from 'kysely';
import { bigintType, dialectOf } from '../dialect.js';

// A shapefile import's fences written ahead of being switched on (issue 26 H4): FenceRepository.stage writes
// the fences of an import a few at a time, each chunk in its own short transaction, with a row here for each;
// every read of fences leaves out those listed here, and one short transaction switches the whole import on
// (deletes its rows here and inserts its rules), so the import is all or nothing and no transaction holds
// the database for the ~9 MB of rings a large file brings. A failed import deletes its fences; what a stopped
// server left is deleted by the next import once staged_at is an hour old.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const big = bigintType(dialectOf(db));
  await db.schema
    .createTable('fence_staging')
    .addColumn('fence_id', big, (c) => c.primaryKey().references('fences.id').onDelete('cascade'))
    .addColumn('staged_at', big, (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('fence_staging').execute();
}
