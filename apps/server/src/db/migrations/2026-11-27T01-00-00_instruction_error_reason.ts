import type { Kysely } from 'kysely';

// The reason a device gave with a FAILED acknowledgement (badParams, unsupported, outOfRange, batteryLow):
// kept on the instruction as well as in its event, so the instruction history says it in the reader's
// language as the event list does; error_message stays the device's own text.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('instructions').addColumn('error_reason', 'text').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('instructions').dropColumn('error_reason').execute();
}
