import { commWindowMs, readWorkStatus, applyInstruction, type InstructionFailureReason, InstructionParamsSchema, WorkSettingsSchema, type WorkStatusReport } from '@wildtrack/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { recordInstructionEvent, storeWorkStatus, workStatusRow } from '../db/shared-writes.js';

/**
 * Instructions on the device's side (docs/ingest.md "Instructions"): handed over with each answer while
 * SENT, acknowledged SUCCESSFUL or FAILED; a SUCCESSFUL one becomes the device's work status. And the
 * device's own work-status reports.
 */
export class InstructionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Instructions sent and not yet answered. Each delivery records the first delivery time and the relay
   * that carried it, and moves the COMM_ERROR deadline to a window from now: the device owes its
   * acknowledgement by its next contact.
   */
  async pending(deviceId: number, now: number, relayId: number | null = null) {
    const rows = await this.db
      .selectFrom('instructions')
      .select(['id', 'type', 'params', 'time_zone', 'send_time', 'delivered_at'])
      .where('device_id', '=', deviceId)
      .where('status', '=', 'SENT')
      .orderBy('id')
      .execute();
    if (rows.length > 0) {
      const doc = readWorkStatus((await workStatusRow(this.db, deviceId))?.settings);
      const ids = rows.map((r) => Number(r.id));
      await this.db
        .updateTable('instructions')
        .set((eb) => ({
          delivered_at: eb.fn.coalesce('delivered_at', eb.val(now)),
          comm_deadline: now + commWindowMs(doc),
          ...(relayId === null ? {} : { relay_device_id: relayId }),
        }))
        .where('id', 'in', ids)
        .where('status', '=', 'SENT')
        .execute();
    }
    return rows;
  }

  /**
   * Records the device's outcome, with its event; a SUCCESSFUL one updates the device's work status from
   * the params (when it is known: an acknowledgement tells only the part it changed). False when the
   * instruction isn't this device's or isn't awaiting an answer.
   */
  async acknowledge(deviceId: number, id: number, outcome: 'SUCCESSFUL' | 'FAILED', executedAt: number, message: string | null, relayId: number | null, now: number, reason?: InstructionFailureReason): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx.selectFrom('instructions').select(['type', 'params', 'time_zone']).where('id', '=', id).where('device_id', '=', deviceId).where('status', '=', 'SENT').executeTakeFirst();
      if (!row) return false;
      const error = outcome === 'FAILED' ? (message ?? '') : null;
      const r = await tx
        .updateTable('instructions')
        .set({ status: outcome, execute_time: executedAt, error_message: error, error_reason: outcome === 'FAILED' ? (reason ?? null) : null, comm_deadline: null, ...(relayId === null ? {} : { relay_device_id: relayId }) })
        .where('id', '=', id)
        .where('status', '=', 'SENT')
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return false;
      if (outcome === 'SUCCESSFUL') {
        const stored = await workStatusRow(tx, deviceId);
        const before = readWorkStatus(stored?.settings);
        const params = InstructionParamsSchema.safeParse(JSON.parse(row.params));
        if (before && params.success) await storeWorkStatus(tx, deviceId, JSON.stringify(applyInstruction(before, params.data, row.time_zone)), executedAt);
      }
      await recordInstructionEvent(tx, { deviceId, instructionId: id, type: row.type, status: outcome, error, ...(outcome === 'FAILED' && reason ? { reason } : {}), at: now });
      return true;
    });
  }

  /** The device's own report of its work status (kept unless a newer one is stored). */
  async reportWorkStatus(deviceId: number, report: WorkStatusReport): Promise<void> {
    await storeWorkStatus(this.db, deviceId, JSON.stringify(WorkSettingsSchema.parse(report.settings)), report.at);
  }

  async create(deviceId: number, type: string, params: unknown, senderUserId: number | null, now: number, timeZone = '+00:00'): Promise<number> {
    const r = await this.db
      .insertInto('instructions')
      .values({
        device_id: deviceId, type, params: JSON.stringify(params), status: 'SENT', sender_user_id: senderUserId, send_time: now, estimate_execute_time: null,
        delivered_at: null, execute_time: null, error_message: null, error_reason: null, time_zone: timeZone, relay_device_id: null, comm_deadline: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }
}
