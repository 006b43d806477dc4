import type { Kysely } from 'kysely';
import { dialectOf } from '../../db/dialect.js';
import type { Database } from '../../db/schema.js';
import { recordInstructionEvent } from '../../db/shared-writes.js';

/** An instruction of the history with the names it is shown with. */
export interface InstructionRow {
  id: number;
  device_id: number;
  imei: string;
  caption: string;
  example: number;
  type: string;
  params: string;
  time_zone: string;
  status: string;
  sender_name: string | null;
  send_time: number;
  estimate_execute_time: number | null;
  execute_time: number | null;
  error_message: string | null;
  error_reason: string | null;
  relay_imei: string | null;
  relay_caption: string | null;
}

export interface HistoryQuery {
  deviceIds: number[];
  from: number;
  to: number;
  /** Devices whose instructions are seen only inside a window (a share's): their SendTime bounds. */
  windows?: { deviceId: number; from: number; to: number }[];
  type?: string | undefined;
  status?: string | undefined;
}

export interface NewInstruction {
  deviceId: number;
  type: string;
  params: string;
  timeZone: string;
  senderUserId: number | null;
  estimate: number | null;
  commDeadline: number;
}

const ACTIVE = ['SENT', 'SUCCESSFUL', 'FAILED', 'COMM_ERROR'];

/** The instructions table for the console (ingest has its own view: ingest/instruction-repository.ts). */
export class InstructionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private history(q: HistoryQuery) {
    let s = this.db
      .selectFrom('instructions as i')
      .where('i.device_id', 'in', q.deviceIds)
      .where('i.send_time', '>=', q.from)
      .where('i.send_time', '<=', q.to);
    const windows = q.windows ?? [];
    if (windows.length > 0) {
      const bounded = windows.map((w) => w.deviceId);
      s = s.where((eb) =>
        eb.or([
          eb('i.device_id', 'not in', bounded),
          ...windows.map((w) => eb.and([eb('i.device_id', '=', w.deviceId), eb('i.send_time', '>=', w.from), eb('i.send_time', '<=', w.to)])),
        ]),
      );
    }
    if (q.type) s = s.where('i.type', '=', q.type);
    if (q.status) s = s.where('i.status', '=', q.status);
    return s;
  }

  async count(q: HistoryQuery): Promise<number> {
    if (q.deviceIds.length === 0) return 0;
    const r = await this.history(q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  private withNames(s: ReturnType<InstructionRepository['history']>) {
    return s
      .innerJoin('devices as d', 'd.id', 'i.device_id')
      .innerJoin('organisations as o', 'o.id', 'd.org_id')
      .leftJoin('users as u', 'u.id', 'i.sender_user_id')
      .leftJoin('devices as r', 'r.id', 'i.relay_device_id')
      .select([
        'i.id', 'i.device_id', 'd.imei', 'd.caption', 'o.is_samples as example', 'i.type', 'i.params', 'i.time_zone', 'i.status', 'u.nick_name as sender_name',
        'i.send_time', 'i.estimate_execute_time', 'i.execute_time', 'i.error_message', 'i.error_reason', 'r.imei as relay_imei', 'r.caption as relay_caption',
      ]);
  }

  /** One page of the history, newest first. */
  async page(q: HistoryQuery, offset: number, limit: number): Promise<InstructionRow[]> {
    if (q.deviceIds.length === 0) return [];
    const rows = await this.withNames(this.history(q)).orderBy('i.send_time', 'desc').orderBy('i.id', 'desc').offset(offset).limit(limit).execute();
    return rows.map(normalise);
  }

  async byIds(ids: number[]): Promise<InstructionRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.withNames(this.db.selectFrom('instructions as i').where('i.id', 'in', ids)).orderBy('i.id').execute();
    return rows.map(normalise);
  }

  /** Instructions of a type each device got in [from, to) that count against the daily limit (withdrawn ones don't). */
  async countsSince(deviceIds: number[], type: string, from: number, to: number, db: Kysely<Database> = this.db): Promise<Map<number, number>> {
    if (deviceIds.length === 0) return new Map();
    const rows = await db
      .selectFrom('instructions')
      .select((eb) => ['device_id', eb.fn.countAll<number>().as('n')])
      .where('device_id', 'in', deviceIds)
      .where('type', '=', type)
      .where('status', 'in', ACTIVE)
      .where('send_time', '>=', from)
      .where('send_time', '<', to)
      .groupBy('device_id')
      .execute();
    return new Map(rows.map((r) => [Number(r.device_id), Number(r.n)]));
  }

  /**
   * Stores one instruction per device, all or none, unless a device already has `limit` of the type in
   * [dayFrom, dayTo): then nothing is stored and the devices at the limit are answered. Sends racing for the
   * same devices are serialised: SQLite transactions take the write lock as they begin, PostgreSQL locks
   * the devices' rows (in id order) before counting.
   */
  async sendAll(rows: NewInstruction[], type: string, dayFrom: number, dayTo: number, limit: number, now: number): Promise<{ ids: number[] } | { atLimit: number[] }> {
    return this.db.transaction().execute(async (tx) => {
      const deviceIds = [...new Set(rows.map((r) => r.deviceId))].sort((a, b) => a - b);
      if (dialectOf(tx) === 'postgres') await tx.selectFrom('devices').select('id').where('id', 'in', deviceIds).orderBy('id').forUpdate().execute();
      const counts = await this.countsSince(deviceIds, type, dayFrom, dayTo, tx);
      const atLimit = deviceIds.filter((id) => (counts.get(id) ?? 0) >= limit);
      if (atLimit.length > 0) return { atLimit };
      const ids: number[] = [];
      for (const r of rows) {
        const inserted = await tx
          .insertInto('instructions')
          .values({
            device_id: r.deviceId, type: r.type, params: r.params, time_zone: r.timeZone, status: 'SENT', sender_user_id: r.senderUserId, send_time: now,
            estimate_execute_time: r.estimate, delivered_at: null, execute_time: null, error_message: null, error_reason: null, relay_device_id: null, comm_deadline: r.commDeadline,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        const id = Number(inserted.id);
        ids.push(id);
        await recordInstructionEvent(tx, { deviceId: r.deviceId, instructionId: id, type: r.type, status: 'SENT', at: now });
      }
      return { ids };
    });
  }

  async get(id: number, deviceId: number): Promise<InstructionRow | undefined> {
    const [row] = await this.byIds([id]);
    return row && row.device_id === deviceId ? row : undefined;
  }

  /** SENT → WITHDRAWN if it was sent at or after `sentSince`; false when it was not (any more). */
  async withdraw(id: number, deviceId: number, sentSince: number, now: number): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const r = await tx
        .updateTable('instructions')
        .set({ status: 'WITHDRAWN', comm_deadline: null })
        .where('id', '=', id)
        .where('device_id', '=', deviceId)
        .where('status', '=', 'SENT')
        .where('send_time', '>=', sentSince)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return false;
      const row = await tx.selectFrom('instructions').select('type').where('id', '=', id).executeTakeFirstOrThrow();
      await recordInstructionEvent(tx, { deviceId, instructionId: id, type: row.type, status: 'WITHDRAWN', at: now });
      return true;
    });
  }

  /**
   * Instructions still SENT past their deadline become COMM_ERROR, each claimed by a conditional update
   * (two server processes never mark one twice), with its event. Returns how many were marked.
   */
  async markCommErrors(now: number, batch = 500): Promise<number> {
    const due = await this.db
      .selectFrom('instructions')
      .select(['id', 'device_id', 'type'])
      .where('status', '=', 'SENT')
      .where('comm_deadline', '<=', now)
      .orderBy('comm_deadline')
      .limit(batch)
      .execute();
    let marked = 0;
    for (const d of due) {
      const done = await this.db.transaction().execute(async (tx) => {
        const r = await tx.updateTable('instructions').set({ status: 'COMM_ERROR' }).where('id', '=', d.id).where('status', '=', 'SENT').executeTakeFirst();
        if (Number(r.numUpdatedRows) === 0) return false;
        await recordInstructionEvent(tx, { deviceId: Number(d.device_id), instructionId: Number(d.id), type: d.type, status: 'COMM_ERROR', at: now });
        return true;
      });
      if (done) marked += 1;
    }
    return marked;
  }

  /** Stores a finished instruction as it happened (the sample history); with its events. */
  async insertHistory(r: NewInstruction & { status: string; sendTime: number; executeTime: number | null; error: string | null; reason?: string | undefined }): Promise<number> {
    return this.db.transaction().execute(async (tx) => {
      const inserted = await tx
        .insertInto('instructions')
        .values({
          device_id: r.deviceId, type: r.type, params: r.params, time_zone: r.timeZone, status: r.status, sender_user_id: r.senderUserId, send_time: r.sendTime,
          estimate_execute_time: r.estimate, delivered_at: r.executeTime, execute_time: r.executeTime, error_message: r.error, error_reason: r.status === 'FAILED' ? (r.reason ?? null) : null, relay_device_id: null, comm_deadline: r.commDeadline,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const id = Number(inserted.id);
      await recordInstructionEvent(tx, { deviceId: r.deviceId, instructionId: id, type: r.type, status: 'SENT', at: r.sendTime });
      if (r.status !== 'SENT') await recordInstructionEvent(tx, { deviceId: r.deviceId, instructionId: id, type: r.type, status: r.status, error: r.error, reason: r.reason, at: r.executeTime ?? r.commDeadline });
      return id;
    });
  }

  /** What a fence rule's instructions are checked against (InstructionService.sendForRule). */
  async deviceForRule(deviceId: number): Promise<{ id: number; imei: string; caption: string; type: number; status: number; instr_support: number; sensors: number; last_work_time: number | null } | undefined> {
    const r = await this.db.selectFrom('devices').select(['id', 'imei', 'caption', 'type', 'status', 'instr_support', 'sensors', 'last_work_time']).where('id', '=', deviceId).executeTakeFirst();
    return r ? { ...r, id: Number(r.id), type: Number(r.type), status: Number(r.status), instr_support: Number(r.instr_support), sensors: Number(r.sensors), last_work_time: r.last_work_time === null ? null : Number(r.last_work_time) } : undefined;
  }

  async hasHistory(deviceIds: number[]): Promise<boolean> {
    if (deviceIds.length === 0) return false;
    const r = await this.db.selectFrom('instructions').select('id').where('device_id', 'in', deviceIds).limit(1).executeTakeFirst();
    return r !== undefined;
  }
}

function normalise(r: {
  id: number; device_id: number; imei: string; caption: string; example: number; type: string; params: string; time_zone: string; status: string; sender_name: string | null;
  send_time: number; estimate_execute_time: number | null; execute_time: number | null; error_message: string | null; error_reason: string | null; relay_imei: string | null; relay_caption: string | null;
}): InstructionRow {
  return {
    ...r,
    id: Number(r.id),
    device_id: Number(r.device_id),
    example: Number(r.example),
    send_time: Number(r.send_time),
    estimate_execute_time: r.estimate_execute_time === null ? null : Number(r.estimate_execute_time),
    execute_time: r.execute_time === null ? null : Number(r.execute_time),
  };
}
