import type { Kysely } from 'kysely';
import { bigintType, dialectOf, withId } from '../dialect.js';

// Geofences (issue 15 item 1, §3 Fence / FenceRule). A fence is an organisation's: its shape as JSON (a
// closed polygon ring or a circle, contract FenceShape), the shape's bounding box (min/max lng/lat, for the
// spatial index of ingest's evaluation), its geodesic area, and the settings its form edits for all its
// devices (in_or_out, rule_type, allow_send_instr, the schedule put on the device when a rule fires as the
// instruction params JSON, and the zone of their hours). `version` counts changes (a device rule is
// acknowledged for one version).
// fence_rules: one per device of a fence, with the device-side sync state (synchronized, and the version the
// device acknowledged). fence_states: the device's last known side of the fence and the time of the fix that
// decided it, so that only a newer fix can change it (out-of-order fixes) and the change is told once.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  const real = d === 'postgres' ? 'double precision' : 'real';
  await withId(db.schema.createTable('fences'), d)
    .addColumn('org_id', big, (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('shape', 'text', (c) => c.notNull())
    .addColumn('min_lng', real, (c) => c.notNull())
    .addColumn('min_lat', real, (c) => c.notNull())
    .addColumn('max_lng', real, (c) => c.notNull())
    .addColumn('max_lat', real, (c) => c.notNull())
    .addColumn('area', real, (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('in_or_out', 'text', (c) => c.notNull())
    .addColumn('rule_type', 'integer', (c) => c.notNull())
    .addColumn('allow_send_instr', 'integer', (c) => c.notNull())
    .addColumn('instrs', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', big)
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('updated_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fences_org_idx').on('fences').columns(['org_id', 'id']).execute();
  // Ingest's index asks every few seconds whether fences changed: answered from this index, not the shapes.
  await db.schema.createIndex('fences_generation_idx').on('fences').columns(['updated_at', 'version']).execute();

  await withId(db.schema.createTable('fence_rules'), d)
    .addColumn('fence_id', big, (c) => c.notNull().references('fences.id').onDelete('cascade'))
    .addColumn('device_id', big, (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('synchronized', 'integer', (c) => c.notNull())
    .addColumn('synced_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', big, (c) => c.notNull())
    .addUniqueConstraint('fence_rules_fence_device_uq', ['fence_id', 'device_id'])
    .execute();
  await db.schema.createIndex('fence_rules_device_idx').on('fence_rules').columns(['device_id']).execute();

  // A device rule withdrawn (fence deleted, switched off, device taken out) waits here until the device
  // acknowledges dropping it.
  await withId(db.schema.createTable('fence_removals'), d)
    .addColumn('fence_id', big, (c) => c.notNull())
    .addColumn('device_id', big, (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('shape', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fence_removals_device_idx').on('fence_removals').columns(['device_id']).execute();

  await db.schema
    .createTable('fence_states')
    .addColumn('fence_id', big, (c) => c.notNull().references('fences.id').onDelete('cascade'))
    .addColumn('device_id', big, (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('inside', 'integer', (c) => c.notNull())
    .addColumn('fix_time', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('fence_states_pk', ['device_id', 'fence_id'])
    .execute();
  await db.schema.createIndex('fence_states_fence_idx').on('fence_states').columns(['fence_id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('fence_states_fence_idx').execute();
  await db.schema.dropTable('fence_states').execute();
  await db.schema.dropTable('fence_removals').execute();
  await db.schema.dropTable('fence_rules').execute();
  await db.schema.dropTable('fences').execute();
}
