import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Movebank imports started from the console: one row per uploaded file, claimed by one server process
// (status queued -> running), its progress written as it reads (updated_at is its heartbeat: a running
// row whose heartbeat stopped belonged to a server that stopped, and is marked interrupted), its report
// kept once it ends. The folder is not a foreign key: the row outlives a folder deleted afterwards.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await withId(db.schema.createTable('movebank_imports'), d)
    .addColumn('org_id', big, (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('user_id', big, (c) => c.references('users.id').onDelete('set null'))
    .addColumn('folder_id', big)
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('reference_name', 'text')
    .addColumn('data_path', 'text', (c) => c.notNull())
    .addColumn('reference_path', 'text')
    .addColumn('size', big, (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('cancel_requested', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_read', big, (c) => c.notNull().defaultTo(0))
    .addColumn('rows', big, (c) => c.notNull().defaultTo(0))
    .addColumn('stored', big, (c) => c.notNull().defaultTo(0))
    .addColumn('seconds', 'real', (c) => c.notNull().defaultTo(0))
    .addColumn('report', 'text')
    .addColumn('error', 'text')
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('started_at', big)
    .addColumn('updated_at', big, (c) => c.notNull())
    .addColumn('finished_at', big)
    .execute();
  await db.schema.createIndex('movebank_imports_org_idx').on('movebank_imports').columns(['org_id', 'id']).execute();
  await db.schema.createIndex('movebank_imports_status_idx').on('movebank_imports').columns(['status', 'id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('movebank_imports').execute();
}
