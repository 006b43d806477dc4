import type { Kysely } from 'kysely';
import { claimNonce, touchLastWork } from '../db/shared-writes.js';
import type { Database, MediaRecordTable } from '../db/schema.js';
import { Replayed } from './errors.js';

export type MediaRow = Omit<MediaRecordTable, 'device_id' | 'received_at'>;

/** The records of the files devices upload (the files themselves are on disk, see IngestService.storeMedia). */
export class MediaRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores the media row with the request's nonce; false when the same record exists already. */
  async insert(deviceId: number, row: MediaRow, nonce: string, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await claimNonce(trx, deviceId, nonce, now))) throw new Replayed();
      const r = await trx.insertInto('media_records').values({ device_id: deviceId, received_at: now, ...row }).onConflict((oc) => oc.doNothing()).executeTakeFirst();
      await touchLastWork(trx, deviceId, row.pick_time);
      return Number(r.numInsertedOrUpdatedRows ?? 0) > 0;
    });
  }
}
