import type { Kysely } from 'kysely';
import { bigintType, dialectOf } from '../dialect.js';

// Events made by detection (issue 15: a device reporting again after a silence, its battery falling below
// the §9 10 % level, a silence longer than its schedule allows) carry a key naming the happening (e.g.
// 'silent:<last heard>'); one event per device and key, so that a batch uploaded twice, batches arriving
// out of order or two server processes never make the same event twice. Events written by people's
// actions (an instruction sent, a status set) have none.
// job_leases: background work that only one server process may do at a time (the live sample fleet), held
// by a process until `until` and renewed while it runs; another process takes it over once it expires.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  await db.schema.alterTable('events').addColumn('dedup_key', 'text').execute();
  await db.schema.createIndex('events_device_dedup_idx').on('events').columns(['device_id', 'dedup_key']).unique().execute();
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('until', bigintType(d), (c) => c.notNull())
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_leases').execute();
  await db.schema.dropIndex('events_device_dedup_idx').execute();
  await db.schema.alterTable('events').dropColumn('dedup_key').execute();
}
