import type { Kysely } from 'kysely';
import type { AccArchiveTable, Database } from '../../db/schema.js';

export type ArchiveRow = Pick<AccArchiveTable, 'day' | 'file' | 'record_count' | 'file_size' | 'created_at'> & { id: number };

/** Daily ACC archive rows (acc_archives) and the devices the archive job looks at. */
export class ArchiveRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Devices whose sensor flags include any of `mask` (acceleration, new or old). */
  async devicesWithSensors(mask: number): Promise<{ id: number; imei: string }[]> {
    const rows = await this.db.selectFrom('devices').select(['id', 'imei', 'sensors']).execute();
    return rows.filter((r) => (Number(r.sensors) & mask) !== 0).map((r) => ({ id: Number(r.id), imei: r.imei }));
  }

  /** The device's days in [fromDay, toDay] that have a row, ready or being built. */
  async days(deviceId: number, fromDay: number, toDay: number): Promise<Set<number>> {
    const rows = await this.db.selectFrom('acc_archives').select('day').where('device_id', '=', deviceId).where('day', '>=', fromDay).where('day', '<=', toDay).execute();
    return new Set(rows.map((r) => Number(r.day)));
  }

  /** Claims a day to build: true when this process inserted the row (another has it otherwise). */
  async claim(deviceId: number, day: number, file: string, now: number): Promise<boolean> {
    const r = await this.db
      .insertInto('acc_archives')
      .values({ device_id: deviceId, day, status: 0, file, record_count: 0, file_size: 0, claimed_at: now, created_at: null })
      .onConflict((oc) => oc.columns(['device_id', 'day']).doNothing())
      .returning('id')
      .executeTakeFirst();
    return r !== undefined;
  }

  async finish(deviceId: number, day: number, recordCount: number, fileSize: number, now: number): Promise<void> {
    await this.db
      .updateTable('acc_archives')
      .set({ status: 1, record_count: recordCount, file_size: fileSize, created_at: now })
      .where('device_id', '=', deviceId)
      .where('day', '=', day)
      .execute();
  }

  /** Claims that never finished (the process stopped) before `before`, and every row of a day before `oldestDay`: deleted, their files named. */
  async expire(oldestDay: number, staleBefore: number): Promise<{ device_id: number; file: string }[]> {
    const gone = await this.db
      .deleteFrom('acc_archives')
      .where((eb) => eb.or([eb('day', '<', oldestDay), eb.and([eb('status', '=', 0), eb('claimed_at', '<', staleBefore)])]))
      .returning(['device_id', 'file'])
      .execute();
    return gone.map((r) => ({ device_id: Number(r.device_id), file: r.file }));
  }

  async count(deviceId: number, fromDay: number, toDay: number): Promise<number> {
    const r = await this.db
      .selectFrom('acc_archives')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('device_id', '=', deviceId)
      .where('status', '=', 1)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  async page(deviceId: number, fromDay: number, toDay: number, limit: number, offset: number): Promise<ArchiveRow[]> {
    const rows = await this.db
      .selectFrom('acc_archives')
      .select(['id', 'day', 'file', 'record_count', 'file_size', 'created_at'])
      .where('device_id', '=', deviceId)
      .where('status', '=', 1)
      .where('day', '>=', fromDay)
      .where('day', '<=', toDay)
      .orderBy('day', 'desc')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map((r) => ({ id: Number(r.id), day: Number(r.day), file: r.file, record_count: Number(r.record_count), file_size: Number(r.file_size), created_at: r.created_at === null ? null : Number(r.created_at) }));
  }

  async ready(deviceId: number, day: number): Promise<ArchiveRow | undefined> {
    const rows = await this.page(deviceId, day, day, 1, 0);
    return rows[0];
  }
}
