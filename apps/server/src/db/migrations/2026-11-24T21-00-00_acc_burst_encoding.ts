import type { Kysely } from 'kysely';

// How a burst's samples are stored (acc_bursts.encoding): 0, the first form, little-endian int16 counts
// interleaved by axis with a uint16 milli-g ODBA per sample in `odba`; 1, the counts packed as varint
// differences per axis (contract acceleration-codec.ts packBurstCounts) and no stored ODBA (computed on
// read): ~1.3 bytes an axis-sample against 2.67, and small enough for SQLite to keep a burst's row in its
// page instead of an overflow chain (bench/sensors acceleration: storage per axis-sample). Rows written
// before keep 0 and are read as they are.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('acc_bursts').addColumn('encoding', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('acc_bursts').dropColumn('encoding').execute();
}
