import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

/** Which events a query reads: devices seen whole, devices seen inside a window (a share's), and the filter. */
export interface EventQuery {
  userId: number;
  deviceIds: number[];
  windows: { deviceId: number; from: number; to: number }[];
  type?: number | undefined;
  from?: number | undefined;
  to?: number | undefined;
  viewed?: 0 | 1 | undefined;
}

export interface EventRow {
  id: number;
  device_id: number;
  type: number;
  happen_time: number;
  content: string;
  viewed: number;
}

export interface SubscriptionRow {
  device_id: number;
  fence_event: number;
  instr_event: number;
  fix_update_event: number;
}

/** Events for their readers: the events table (written by others), each user's reads and subscriptions. */
export class EventRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private filtered(q: EventQuery) {
    let s = this.db
      .selectFrom('events as e')
      .leftJoin('event_views as v', (j) => j.onRef('v.event_id', '=', 'e.id').on('v.user_id', '=', q.userId))
      .where((eb) =>
        eb.or([
          ...(q.deviceIds.length > 0 ? [eb('e.device_id', 'in', q.deviceIds)] : []),
          ...q.windows.map((w) => eb.and([eb('e.device_id', '=', w.deviceId), eb('e.happen_time', '>=', w.from), eb('e.happen_time', '<=', w.to)])),
        ]),
      );
    if (q.type !== undefined) s = s.where('e.type', '=', q.type);
    if (q.from !== undefined) s = s.where('e.happen_time', '>=', q.from);
    if (q.to !== undefined) s = s.where('e.happen_time', '<=', q.to);
    if (q.viewed === 0) s = s.where('v.event_id', 'is', null);
    if (q.viewed === 1) s = s.where('v.event_id', 'is not', null);
    return s;
  }

  private empty(q: EventQuery): boolean {
    return q.deviceIds.length === 0 && q.windows.length === 0;
  }

  async count(q: EventQuery): Promise<number> {
    if (this.empty(q)) return 0;
    const r = await this.filtered(q).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** One page, newest first. */
  async page(q: EventQuery, offset: number, limit: number): Promise<EventRow[]> {
    if (this.empty(q)) return [];
    const rows = await this.filtered(q)
      .select(['e.id', 'e.device_id', 'e.type', 'e.happen_time', 'e.content', 'v.event_id as viewed'])
      .orderBy('e.happen_time', 'desc')
      .orderBy('e.id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
    return rows.map((r) => ({ id: Number(r.id), device_id: Number(r.device_id), type: Number(r.type), happen_time: Number(r.happen_time), content: r.content, viewed: r.viewed === null ? 0 : 1 }));
  }

  /** Of these event ids, the ones the query reads. */
  async readableIds(q: EventQuery, ids: number[]): Promise<number[]> {
    if (this.empty(q) || ids.length === 0) return [];
    const rows = await this.filtered(q).select('e.id').where('e.id', 'in', ids).execute();
    return rows.map((r) => Number(r.id));
  }

  async markViewed(userId: number, ids: number[], now: number): Promise<void> {
    if (ids.length === 0) return;
    await this.db
      .insertInto('event_views')
      .values(ids.map((id) => ({ event_id: id, user_id: userId, viewed_at: now })))
      .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
      .execute();
  }

  /** Marks read every unread event the query reads; answers how many. */
  async markAllViewed(q: EventQuery, now: number): Promise<number> {
    if (this.empty(q)) return 0;
    const unread = this.filtered({ ...q, viewed: 0 }).select((eb) => ['e.id', eb.val(q.userId).as('user_id'), eb.val(now).as('viewed_at')]);
    const r = await this.db
      .insertInto('event_views')
      .columns(['event_id', 'user_id', 'viewed_at'])
      .expression(unread)
      .onConflict((oc) => oc.columns(['event_id', 'user_id']).doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0);
  }

  async subscriptions(userId: number, deviceIds: number[]): Promise<Map<number, SubscriptionRow>> {
    if (deviceIds.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('event_subscriptions')
      .select(['device_id', 'fence_event', 'instr_event', 'fix_update_event'])
      .where('user_id', '=', userId)
      .where('device_id', 'in', deviceIds)
      .execute();
    return new Map(rows.map((r) => [Number(r.device_id), { ...r, device_id: Number(r.device_id) }]));
  }

  async subscribe(userId: number, s: SubscriptionRow): Promise<void> {
    const set = { fence_event: s.fence_event, instr_event: s.instr_event, fix_update_event: s.fix_update_event };
    await this.db
      .insertInto('event_subscriptions')
      .values({ user_id: userId, device_id: s.device_id, ...set })
      .onConflict((oc) => oc.columns(['user_id', 'device_id']).doUpdateSet(set))
      .execute();
  }
}
