import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Remote instructions for real (issue 14): the zone an instruction's hours are written in, the station or
// phone that carried it (relay), the time after which an instruction still waiting is COMM_ERROR
// (comm_deadline, docs/ingest.md "Instructions"), and an index for the history and the daily limit.
// Events (§3 Event): one row per happening of a device (an instruction's status change is type Instr, 2),
// its text kept as a message key's parameters (JSON) so that each reader gets it in their language;
// whether a user has read one is a row of event_views (the event list is a later issue's).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await db.schema.alterTable('instructions').addColumn('time_zone', 'text', (c) => c.notNull().defaultTo('+00:00')).execute();
  await db.schema.alterTable('instructions').addColumn('relay_device_id', big).execute();
  await db.schema.alterTable('instructions').addColumn('comm_deadline', big).execute();
  await db.schema.createIndex('instructions_device_send_idx').on('instructions').columns(['device_id', 'send_time']).execute();
  await db.schema.createIndex('instructions_status_deadline_idx').on('instructions').columns(['status', 'comm_deadline']).execute();

  await withId(db.schema.createTable('events'), d)
    .addColumn('device_id', big, (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('happen_time', big, (c) => c.notNull())
    .addColumn('instruction_id', big)
    .addColumn('content', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('events_device_time_idx').on('events').columns(['device_id', 'happen_time']).execute();

  await db.schema
    .createTable('event_views')
    .addColumn('event_id', big, (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('user_id', big, (c) => c.notNull())
    .addColumn('viewed_at', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('event_views_pk', ['event_id', 'user_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_views').execute();
  await db.schema.dropTable('events').execute();
  await db.schema.dropIndex('instructions_status_deadline_idx').execute();
  await db.schema.dropIndex('instructions_device_send_idx').execute();
  for (const c of ['comm_deadline', 'relay_device_id', 'time_zone']) await db.schema.alterTable('instructions').dropColumn(c).execute();
}
