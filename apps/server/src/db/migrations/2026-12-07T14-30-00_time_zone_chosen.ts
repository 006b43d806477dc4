import type { Kysely } from 'kysely';

// Issue 28 item 3: a zone the user saved in Settings (time_zone_chosen = 1) is theirs and a sign-in from
// another device no longer overwrites it; until one is saved, time_zone follows the zone of the last
// sign-in as before. Existing rows start as not chosen: which of them were picked in Settings is not known.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_settings').addColumn('time_zone_chosen', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_settings').dropColumn('time_zone_chosen').execute();
}
