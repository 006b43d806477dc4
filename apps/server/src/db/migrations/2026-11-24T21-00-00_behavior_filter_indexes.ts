import type { Kysely } from 'kysely';

// The behaviour list's filters (bench/field: a year of 50,000 observations): a count or page of one motion
// or one recorder reads its own index range instead of every observation of the phone's range, and the
// recorders of a phone are read off the recorder index.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('behavior_records_device_motion_idx').on('behavior_records').columns(['device_id', 'motion_id', 'start_time']).execute();
  await db.schema.createIndex('behavior_records_device_recorder_idx').on('behavior_records').columns(['device_id', 'recorder', 'start_time']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('behavior_records_device_recorder_idx').execute();
  await db.schema.dropIndex('behavior_records_device_motion_idx').execute();
}
