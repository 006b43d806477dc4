import type { Kysely } from 'kysely';
import { bigintType, dialectOf } from '../dialect.js';

// Download tasks: the rows the task's files will hold, counted when a server claims it (0: not counted yet),
// so that progress is rows written / rows total and not files done / files total (issue 16).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('download_tasks').addColumn('rows_total', bigintType(dialectOf(db)), (c) => c.notNull().defaultTo(0)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('download_tasks').dropColumn('rows_total').execute();
}
