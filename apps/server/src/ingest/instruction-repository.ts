import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Instructions the console sends to a device: queued, delivered with an ingest answer, acknowledged. */
export class InstructionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Instructions sent and not yet answered; the first delivery is recorded. */
  async pending(deviceId: number, now: number) {
    const rows = await this.db
      .selectFrom('instructions')
      .select(['id', 'type', 'params', 'send_time', 'delivered_at'])
      .where('device_id', '=', deviceId)
      .where('status', '=', 'SENT')
      .orderBy('id')
      .execute();
    const undelivered = rows.filter((r) => r.delivered_at === null).map((r) => Number(r.id));
    if (undelivered.length > 0) await this.db.updateTable('instructions').set({ delivered_at: now }).where('id', 'in', undelivered).execute();
    return rows;
  }

  /** Records the device's outcome; false when the instruction isn't this device's or isn't awaiting one. */
  async acknowledge(deviceId: number, id: number, outcome: 'SUCCESSFUL' | 'FAILED', executedAt: number, message: string | null): Promise<boolean> {
    const r = await this.db
      .updateTable('instructions')
      .set({ status: outcome, execute_time: executedAt, error_message: outcome === 'FAILED' ? (message ?? '') : null })
      .where('id', '=', id)
      .where('device_id', '=', deviceId)
      .where('status', '=', 'SENT')
      .executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }

  async create(deviceId: number, type: string, params: unknown, senderUserId: number | null, now: number): Promise<number> {
    const r = await this.db
      .insertInto('instructions')
      .values({ device_id: deviceId, type, params: JSON.stringify(params), status: 'SENT', sender_user_id: senderUserId, send_time: now, estimate_execute_time: null, delivered_at: null, execute_time: null, error_message: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }
}
