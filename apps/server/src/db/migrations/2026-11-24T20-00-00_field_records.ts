import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Field records that phones send (docs/ingest.md "Field records"): points of interest with their photos
// (file names under $WILDTRACK_DATA/field/<device>/, a JSON array) and behaviour observations, each of a
// motion. Motions are per organisation; the defaults (org_id null, a code whose name is a message) are
// everyone's. A record is the device's once: a POI by its time, an observation by its start and recorder.
const DEFAULT_MOTIONS = ['foraging', 'resting', 'moving', 'vigilance', 'grooming', 'social', 'courtship', 'nesting'];

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await withId(db.schema.createTable('motions'), d)
    .addColumn('org_id', big, (c) => c.references('organisations.id').onDelete('cascade'))
    .addColumn('code', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('motions_org_name_idx').on('motions').columns(['org_id', 'name']).execute();
  await db
    .insertInto('motions')
    .values(DEFAULT_MOTIONS.map((code) => ({ org_id: null, code, name: code, created_at: 0 })))
    .execute();

  await withId(db.schema.createTable('poi_records'), d)
    .addColumn('device_id', big, (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('record_time', big, (c) => c.notNull())
    .addColumn('recorder', big, (c) => c.notNull())
    .addColumn('recorder_name', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('lon', 'real', (c) => c.notNull())
    .addColumn('lat', 'real', (c) => c.notNull())
    .addColumn('alt', 'real')
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('photos', 'text', (c) => c.notNull())
    .addColumn('received_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('poi_records_device_time_idx').on('poi_records').columns(['device_id', 'record_time']).unique().execute();

  await withId(db.schema.createTable('behavior_records'), d)
    .addColumn('device_id', big, (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('start_time', big, (c) => c.notNull())
    .addColumn('end_time', big, (c) => c.notNull())
    .addColumn('recorder', big, (c) => c.notNull())
    .addColumn('recorder_name', 'text', (c) => c.notNull())
    .addColumn('lon', 'real', (c) => c.notNull())
    .addColumn('lat', 'real', (c) => c.notNull())
    .addColumn('motion_id', big, (c) => c.notNull().references('motions.id'))
    .addColumn('received_at', big, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('behavior_records_device_start_idx')
    .on('behavior_records')
    .columns(['device_id', 'start_time', 'recorder'])
    .unique()
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('behavior_records').execute();
  await db.schema.dropTable('poi_records').execute();
  await db.schema.dropTable('motions').execute();
}
