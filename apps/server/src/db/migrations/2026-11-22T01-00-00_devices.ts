import type { Kysely } from 'kysely';
import { bigintType, blobType, clusteredByKey, dialectOf, withId } from '../dialect.js';

// Folders, devices and everything devices send. The time-series tables (fixes, sensor_records,
// acc_bursts, media_records) are keyed by (device, [kind,] time): one device's range is one contiguous
// scan on SQLite (WITHOUT ROWID) and an index range on PostgreSQL, where the key already holds the
// time column a later range partitioning needs. They carry device_id on every row and have no foreign
// keys, so a move to PostgreSQL distributed by device (Citus) needs no schema change.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  const real = 'double precision';

  await db.schema.alterTable('organisations').addColumn('is_samples', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await withId(db.schema.createTable('folders'), d)
    .addColumn('org_id', big, (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('parent_id', big, (c) => c.references('folders.id').onDelete('restrict'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('folders_org_parent_idx').on('folders').columns(['org_id', 'parent_id']).execute();

  await withId(db.schema.createTable('devices'), d)
    .addColumn('org_id', big, (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('folder_id', big, (c) => c.references('folders.id').onDelete('restrict'))
    .addColumn('imei', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('model', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('species_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('battery_type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sensors', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('instr_support', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('caption', 'text', (c) => c.notNull())
    .addColumn('remark_name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('image', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('second_level_fix', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('example', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('effective_time', big)
    .addColumn('failure_time', big)
    .addColumn('last_work_time', big)
    .addColumn('last_voltage', real)
    .addColumn('attributes', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('devices_org_folder_idx').on('devices').columns(['org_id', 'folder_id']).execute();

  await clusteredByKey(
    db.schema
      .createTable('fixes')
      .addColumn('device_id', big, (c) => c.notNull())
      .addColumn('pick_time', big, (c) => c.notNull())
      // null when the tag recorded an attempt without a position (kept, counted, never valid)
      .addColumn('lon', real)
      .addColumn('lat', real)
      .addColumn('alt', real)
      .addColumn('speed', real)
      .addColumn('course', real)
      .addColumn('temperature', real)
      .addColumn('activity', real)
      .addColumn('voltage', real)
      .addColumn('channel', 'integer')
      .addColumn('satellites', 'integer')
      .addColumn('hdop', real)
      .addColumn('vdop', real)
      .addColumn('grade', 'integer')
      .addColumn('valid', 'integer', (c) => c.notNull())
      .addColumn('tx_time', big)
      .addColumn('received_at', big, (c) => c.notNull())
      .addColumn('invalid_by', big)
      .addColumn('invalid_at', big)
      .addColumn('extra', 'text')
      .addPrimaryKeyConstraint('fixes_pk', ['device_id', 'pick_time']),
    d,
  ).execute();

  await clusteredByKey(
    db.schema
      .createTable('sensor_records')
      .addColumn('device_id', big, (c) => c.notNull())
      .addColumn('kind', 'integer', (c) => c.notNull())
      .addColumn('time', big, (c) => c.notNull())
      .addColumn('v1', real, (c) => c.notNull())
      .addColumn('v2', real)
      .addColumn('v3', real)
      .addColumn('v4', real)
      .addColumn('received_at', big, (c) => c.notNull())
      .addPrimaryKeyConstraint('sensor_records_pk', ['device_id', 'kind', 'time']),
    d,
  ).execute();

  await clusteredByKey(
    db.schema
      .createTable('acc_bursts')
      .addColumn('device_id', big, (c) => c.notNull())
      .addColumn('start_time', big, (c) => c.notNull())
      .addColumn('hz', real, (c) => c.notNull())
      .addColumn('axes', 'text', (c) => c.notNull())
      .addColumn('sample_count', 'integer', (c) => c.notNull())
      // little-endian int16, interleaved by axis: 2 bytes per axis-sample
      .addColumn('samples', blobType(d), (c) => c.notNull())
      // little-endian uint16 ODBA per sample in milli-g, computed at write time
      .addColumn('odba', blobType(d), (c) => c.notNull())
      .addColumn('mean_odba', real, (c) => c.notNull())
      // JSON {scale: number[], offset: number[]} per axis: g = (raw - offset) * scale
      .addColumn('calibration', 'text', (c) => c.notNull())
      .addColumn('received_at', big, (c) => c.notNull())
      .addColumn('extra', 'text')
      .addPrimaryKeyConstraint('acc_bursts_pk', ['device_id', 'start_time']),
    d,
  ).execute();

  await clusteredByKey(
    db.schema
      .createTable('media_records')
      .addColumn('device_id', big, (c) => c.notNull())
      .addColumn('kind', 'integer', (c) => c.notNull())
      .addColumn('pick_time', big, (c) => c.notNull())
      .addColumn('file', 'text', (c) => c.notNull())
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('size', 'integer', (c) => c.notNull())
      .addColumn('lon', real)
      .addColumn('lat', real)
      .addColumn('alt', real)
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('duration', real)
      .addColumn('rate', 'integer')
      .addColumn('bit_depth', 'integer')
      .addColumn('track', 'integer')
      .addColumn('received_at', big, (c) => c.notNull())
      .addPrimaryKeyConstraint('media_records_pk', ['device_id', 'kind', 'pick_time']),
    d,
  ).execute();

  await db.schema
    .createTable('device_work_status')
    .addColumn('device_id', big, (c) => c.primaryKey())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', big, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('mount_info')
    .addColumn('device_id', big, (c) => c.primaryKey())
    .addColumn('info', 'text', (c) => c.notNull())
    .addColumn('updated_at', big, (c) => c.notNull())
    .execute();

  await withId(db.schema.createTable('instructions'), d)
    .addColumn('device_id', big, (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('sender_user_id', big)
    .addColumn('send_time', big, (c) => c.notNull())
    .addColumn('estimate_execute_time', big)
    .addColumn('delivered_at', big)
    .addColumn('execute_time', big)
    .addColumn('error_message', 'text')
    .execute();
  await db.schema.createIndex('instructions_device_status_idx').on('instructions').columns(['device_id', 'status']).execute();

  await clusteredByKey(
    db.schema
      .createTable('ingest_nonces')
      .addColumn('device_id', big, (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('received_at', big, (c) => c.notNull())
      .addPrimaryKeyConstraint('ingest_nonces_pk', ['device_id', 'nonce']),
    d,
  ).execute();
  await db.schema.createIndex('ingest_nonces_received_idx').on('ingest_nonces').column('received_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['ingest_nonces', 'instructions', 'mount_info', 'device_work_status', 'media_records', 'acc_bursts', 'sensor_records', 'fixes', 'devices', 'folders']) {
    await db.schema.dropTable(t).execute();
  }
  await db.schema.alterTable('organisations').dropColumn('is_samples').execute();
}
