import { type Kysely, sql } from 'kysely';
import { bigintType, clusteredByKey, dialectOf } from '../dialect.js';

// Fewer pages written per fence crossing at ingest (issue 15 item 2, bench/fence-ingest):
// - events' dedup index holds only the events that have a key (detected ones). Fence and Instr events have
//   none, and every one of them still wrote a (device, null) entry into the unique index that no query reads.
//   The index keeps its name and its uniqueness for keyed events; an upsert names it with the same predicate.
// - SQLite: fence_states clustered by (device_id, fence_id) (WITHOUT ROWID): a crossing updates one b-tree
//   and a first side inserts into two (the table and its fence index) instead of three. The rows are copied.
//   PostgreSQL keeps its table (a heap has no such option).

const DEDUP = 'events_device_dedup_idx';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function dedupIndex(db: Kysely<any>, partial: boolean): Promise<void> {
  await db.schema.dropIndex(DEDUP).execute();
  const index = db.schema.createIndex(DEDUP).on('events').columns(['device_id', 'dedup_key']).unique();
  await (partial ? index.where(sql.ref('dedup_key'), 'is not', null) : index).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function rebuildStates(db: Kysely<any>, clustered: boolean): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  const table = db.schema
    .createTable('fence_states_next')
    .addColumn('fence_id', big, (c) => c.notNull().references('fences.id').onDelete('cascade'))
    .addColumn('device_id', big, (c) => c.notNull().references('devices.id').onDelete('cascade'))
    .addColumn('inside', 'integer', (c) => c.notNull())
    .addColumn('fix_time', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('fence_states_pk', ['device_id', 'fence_id']);
  await (clustered ? clusteredByKey(table, d) : table).execute();
  await sql`insert into fence_states_next (fence_id, device_id, inside, fix_time) select fence_id, device_id, inside, fix_time from fence_states`.execute(db);
  await db.schema.dropIndex('fence_states_fence_idx').execute();
  await db.schema.dropTable('fence_states').execute();
  await db.schema.alterTable('fence_states_next').renameTo('fence_states').execute();
  await db.schema.createIndex('fence_states_fence_idx').on('fence_states').columns(['fence_id']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await dedupIndex(db, true);
  if (dialectOf(db) === 'sqlite') await rebuildStates(db, true);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'sqlite') await rebuildStates(db, false);
  await dedupIndex(db, false);
}
