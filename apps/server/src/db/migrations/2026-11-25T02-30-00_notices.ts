import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Notices (§3 Notice, §4 Notice): a message from an operator (the CLI's send-notice) or the system to every
// organisation (org_id null) or one. Each user's read and delete of a notice is a row of notice_states (a
// notice one user deleted stays for the others). Event subscriptions (§3 EventSubscribe): a user's choice of
// which events of a device are delivered to them (live, e-mail); no row means all on.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await withId(db.schema.createTable('notices'), d)
    .addColumn('org_id', big, (c) => c.references('organisations.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('website', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('send_time', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('notices_org_time_idx').on('notices').columns(['org_id', 'send_time']).execute();

  await db.schema
    .createTable('notice_states')
    .addColumn('notice_id', big, (c) => c.notNull().references('notices.id').onDelete('cascade'))
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('viewed_at', big)
    .addColumn('deleted_at', big)
    .addPrimaryKeyConstraint('notice_states_pk', ['notice_id', 'user_id'])
    .execute();
  await db.schema.createIndex('notice_states_user_idx').on('notice_states').columns(['user_id', 'notice_id']).execute();

  await db.schema
    .createTable('event_subscriptions')
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', big, (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('fence_event', 'integer', (c) => c.notNull())
    .addColumn('instr_event', 'integer', (c) => c.notNull())
    .addColumn('fix_update_event', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_subscriptions_pk', ['user_id', 'device_id'])
    .execute();
  await db.schema.createIndex('event_views_user_idx').on('event_views').columns(['user_id', 'event_id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('event_views_user_idx').execute();
  await db.schema.dropTable('event_subscriptions').execute();
  await db.schema.dropTable('notice_states').execute();
  await db.schema.dropTable('notices').execute();
}
