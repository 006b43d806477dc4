import type { Kysely } from 'kysely';

// Marks the data source made (Movebank's visible=false and *-outlier=true) live beside the console's:
// a fix the source marked has valid = 0, invalid_by = 0 (no user: INVALID_BY_SOURCE in db/schema.ts)
// and the source's words in invalid_reason, so that a re-import can apply or lift the source's marks
// without touching a user's.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('fixes').addColumn('invalid_reason', 'text').execute();
}
