import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ShareGrant } from '../modules/device/access.js';

/** A stored event with what deciding its readers needs: its device's IMEI and organisation. */
export interface EventRow {
  id: number;
  deviceId: number;
  type: number;
  happenTime: number;
  imei: string;
  orgId: number;
  samples: boolean;
}

/** What a device's live messages are routed by. */
export interface DeviceInfo {
  imei: string;
  orgId: number;
  samples: boolean;
}

/** What decides which live messages a signed-in console gets, read when it connects and every refresh. */
export interface ReaderState {
  alive: boolean;
  experience: boolean;
  /** The shares to the user not yet over: their device and window (the rule, modules/device/access.ts, reads no rights here). */
  shares: ShareGrant[];
}

/** The reads behind live delivery: new events (the events table is the live log of events), devices, readers. */
export class LiveRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private eventSelect() {
    return this.db
      .selectFrom('events as e')
      .innerJoin('devices as d', 'd.id', 'e.device_id')
      .innerJoin('organisations as o', 'o.id', 'd.org_id')
      .select(['e.id', 'e.device_id', 'e.type', 'e.happen_time', 'd.imei', 'd.org_id', 'o.is_samples']);
  }

  /** Events with an id above `afterId`, oldest first, at most `limit`. */
  async eventsAfter(afterId: number, limit: number): Promise<EventRow[]> {
    const rows = await this.eventSelect().where('e.id', '>', afterId).orderBy('e.id').limit(limit).execute();
    return rows.map(toEvent);
  }

  async eventsByIds(ids: readonly number[]): Promise<EventRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.eventSelect().where('e.id', 'in', [...ids]).orderBy('e.id').execute();
    return rows.map(toEvent);
  }

  async maxEventId(): Promise<number> {
    const r = await this.db.selectFrom('events').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst();
    return Number(r?.m ?? 0);
  }

  /** Notices with an id above `afterId`, oldest first: their organisation (null: to every organisation) and user (null: every user of it). */
  async noticesAfter(afterId: number, limit: number): Promise<{ id: number; orgId: number | null; userId: number | null }[]> {
    const rows = await this.db.selectFrom('notices').select(['id', 'org_id', 'user_id']).where('id', '>', afterId).orderBy('id').limit(limit).execute();
    return rows.map((r) => ({ id: Number(r.id), orgId: r.org_id === null ? null : Number(r.org_id), userId: r.user_id === null ? null : Number(r.user_id) }));
  }

  async maxNoticeId(): Promise<number> {
    const r = await this.db.selectFrom('notices').select((eb) => eb.fn.max('id').as('m')).executeTakeFirst();
    return Number(r?.m ?? 0);
  }

  async device(deviceId: number): Promise<DeviceInfo | undefined> {
    const r = await this.db
      .selectFrom('devices as d')
      .innerJoin('organisations as o', 'o.id', 'd.org_id')
      .select(['d.imei', 'd.org_id', 'o.is_samples'])
      .where('d.id', '=', deviceId)
      .executeTakeFirst();
    return r && { imei: r.imei, orgId: Number(r.org_id), samples: Number(r.is_samples) === 1 };
  }

  /** The session's state: whether it still exists, the user's experience switch, the shares to the user not yet over. */
  async reader(sessionId: number, userId: number, now: number): Promise<ReaderState> {
    const session = await this.db.selectFrom('sessions').select('id').where('id', '=', sessionId).executeTakeFirst();
    if (!session) return { alive: false, experience: false, shares: [] };
    const setting = await this.db.selectFrom('user_settings').select('experience_func').where('user_id', '=', userId).executeTakeFirst();
    const shares = await this.db
      .selectFrom('device_shares')
      .select(['device_id', 'effective_time', 'failure_time', 'data_period', 'data_from'])
      .where('recipient_user_id', '=', userId)
      .where('failure_time', '>', now)
      .execute();
    return {
      alive: true,
      experience: Number(setting?.experience_func ?? 0) === 1,
      shares: shares.map((s) => ({
        deviceId: Number(s.device_id), effective: Number(s.effective_time), failure: Number(s.failure_time),
        dataPeriod: s.data_period, dataFrom: s.data_from === null ? null : Number(s.data_from),
      })),
    };
  }
}

function toEvent(r: { id: number; device_id: number; type: number; happen_time: number; imei: string; org_id: number; is_samples: number }): EventRow {
  return {
    id: Number(r.id),
    deviceId: Number(r.device_id),
    type: Number(r.type),
    happenTime: Number(r.happen_time),
    imei: r.imei,
    orgId: Number(r.org_id),
    samples: Number(r.is_samples) === 1,
  };
}
