import type { Kysely } from 'kysely';
import { bigintType, clusteredByKey, dialectOf } from '../dialect.js';

// Thumbnails made ahead (jobs/thumbnails.ts): a row per image record whose thumbnail a server process
// claimed (status 0, claimed_at), made (1) or could not make (2: the file is no image sharp reads; not tried
// again). An image record without a row here has no thumbnail yet: the job finds those and claims each
// with an insert, so two server processes never make the same one. The thumbnail itself is a file under
// <data>/thumbs. media_records gets an index on (kind, received_at) so that the job looks only at the
// images that arrived since its last look, not at every record.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  const big = bigintType(d);
  await clusteredByKey(
    db.schema
      .createTable('media_thumbs')
      .addColumn('device_id', big, (c) => c.notNull())
      .addColumn('pick_time', big, (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('claimed_at', big, (c) => c.notNull())
      .addPrimaryKeyConstraint('media_thumbs_pk', ['device_id', 'pick_time']),
    d,
  ).execute();
  await db.schema.createIndex('media_records_kind_received_idx').on('media_records').columns(['kind', 'received_at']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('media_records_kind_received_idx').execute();
  await db.schema.dropTable('media_thumbs').execute();
}
