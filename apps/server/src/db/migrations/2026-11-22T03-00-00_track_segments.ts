import type { Kysely } from 'kysely';
import { bigintType, blobType, clusteredByKey, dialectOf } from '../dialect.js';

// Track segments: a device's positions of one UTC day, kept encoded as the protobuf Track message the
// bulk fix calls send (packages/contract/src/track-codec.ts). A long track is then read as a few hundred
// blobs instead of a million rows (bench/tracks). Every write to a day's fixes deletes that day's
// segment in the same transaction and notes the day as dirty; a background pass (or the next read)
// builds it again.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const d = dialectOf(db);
  await clusteredByKey(
    db.schema
      .createTable('track_segments')
      .addColumn('device_id', bigintType(d), (c) => c.notNull())
      // floor(pick_time / 86 400 000)
      .addColumn('day', 'integer', (c) => c.notNull())
      .addColumn('point_count', 'integer', (c) => c.notNull())
      .addColumn('data', blobType(d), (c) => c.notNull())
      .addPrimaryKeyConstraint('track_segments_pk', ['device_id', 'day']),
    d,
  ).execute();
  // Days whose segment a write made stale: a background pass builds them again before anyone asks.
  await clusteredByKey(
    db.schema
      .createTable('track_segment_dirty')
      .addColumn('device_id', bigintType(d), (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('track_segment_dirty_pk', ['device_id', 'day']),
    d,
  ).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('track_segment_dirty').execute();
  await db.schema.dropTable('track_segments').execute();
}
