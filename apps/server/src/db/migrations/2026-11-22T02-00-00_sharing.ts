import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Per-user names for devices, and device shares: a device shared by one user with another for a time
// window with chosen rights (§6). The share calls come later; the tree and every device call read them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);

  // Bumped whenever a device's tree fields or folder change, so a server can keep the tree's rows.
  await db.schema.alterTable('organisations').addColumn('tree_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('device_remarks')
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('device_id', big, (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('remark_name', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_remarks_pk', ['user_id', 'device_id'])
    .execute();

  await withId(db.schema.createTable('device_shares'), d)
    .addColumn('device_id', big, (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('owner_user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('recipient_user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('edit_device', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('remote_instr', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('download_data', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('effective_time', big, (c) => c.notNull())
    .addColumn('failure_time', big, (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('device_shares_recipient_idx').on('device_shares').columns(['recipient_user_id', 'failure_time']).execute();
  await db.schema.createIndex('device_shares_device_idx').on('device_shares').column('device_id').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_shares').execute();
  await db.schema.dropTable('device_remarks').execute();
  await db.schema.alterTable('organisations').dropColumn('tree_version').execute();
}
