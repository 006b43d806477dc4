import type { Kysely } from 'kysely';
import { claimNonce } from '../db/shared-writes.js';
import type { Database } from '../db/schema.js';
import { Replayed } from './errors.js';

/** Who sent a device request (the device its IMEI names) and whether its nonce is new. */
export class RequestRepository {
  constructor(private readonly db: Kysely<Database>) {}

  findDevice(imei: string) {
    return this.db.selectFrom('devices').select(['id', 'org_id', 'secret', 'status', 'type']).where('imei', '=', imei).executeTakeFirst();
  }

  deviceById(id: number) {
    return this.db.selectFrom('devices').select(['id', 'org_id']).where('id', '=', id).executeTakeFirst();
  }

  /** Claims the nonce of a request that writes nothing else (an acknowledgement); throws Replayed if used before. */
  async claimNonce(deviceId: number, nonce: string, now: number): Promise<void> {
    if (!(await claimNonce(this.db, deviceId, nonce, now))) throw new Replayed();
  }

  /** Forgets nonces older than the replay window: a request that old is refused by its time already. */
  async sweepNonces(before: number): Promise<void> {
    await this.db.deleteFrom('ingest_nonces').where('received_at', '<', before).execute();
  }
}
