import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface NoticeRow {
  id: number;
  title: string;
  body: string;
  website: string;
  send_time: number;
  viewed_at: number | null;
}

/** Most notices one GetList answers (the newest). */
const LIST_MAX = 500;

/** Notices and each user's read / delete of them. */
export class NoticeRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async orgIdByName(name: string): Promise<number | undefined> {
    const r = await this.db.selectFrom('organisations').select('id').where('name', '=', name).executeTakeFirst();
    return r ? Number(r.id) : undefined;
  }

  async create(n: { orgId: number | null; title: string; body: string; website: string; sendTime: number }): Promise<number> {
    const r = await this.db
      .insertInto('notices')
      .values({ org_id: n.orgId, title: n.title, body: n.body, website: n.website, send_time: n.sendTime })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  /** The user's notices (their organisation's and those to all) they have not deleted. */
  private mine(userId: number, orgId: number) {
    return this.db
      .selectFrom('notices as n')
      .leftJoin('notice_states as s', (j) => j.onRef('s.notice_id', '=', 'n.id').on('s.user_id', '=', userId))
      .where((eb) => eb.or([eb('n.org_id', 'is', null), eb('n.org_id', '=', orgId)]))
      .where('s.deleted_at', 'is', null);
  }

  async list(userId: number, orgId: number): Promise<NoticeRow[]> {
    const rows = await this.mine(userId, orgId)
      .select(['n.id', 'n.title', 'n.body', 'n.website', 'n.send_time', 's.viewed_at'])
      .orderBy('n.send_time', 'desc')
      .orderBy('n.id', 'desc')
      .limit(LIST_MAX)
      .execute();
    return rows.map(normalise);
  }

  async one(userId: number, orgId: number, id: number): Promise<NoticeRow | undefined> {
    const r = await this.mine(userId, orgId).select(['n.id', 'n.title', 'n.body', 'n.website', 'n.send_time', 's.viewed_at']).where('n.id', '=', id).executeTakeFirst();
    return r && normalise(r);
  }

  async unreadCount(userId: number, orgId: number): Promise<number> {
    const r = await this.mine(userId, orgId).where('s.viewed_at', 'is', null).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(r.n);
  }

  /** Marks read (the first time only: the earliest read stays). */
  async markViewed(userId: number, id: number, now: number): Promise<void> {
    await this.db
      .insertInto('notice_states')
      .values({ notice_id: id, user_id: userId, viewed_at: now, deleted_at: null })
      .onConflict((oc) => oc.columns(['notice_id', 'user_id']).doUpdateSet({ viewed_at: now }).where('notice_states.viewed_at', 'is', null))
      .execute();
  }

  async markDeleted(userId: number, id: number, now: number): Promise<void> {
    await this.db
      .insertInto('notice_states')
      .values({ notice_id: id, user_id: userId, viewed_at: null, deleted_at: now })
      .onConflict((oc) => oc.columns(['notice_id', 'user_id']).doUpdateSet({ deleted_at: now }))
      .execute();
  }
}

function normalise(r: { id: number; title: string; body: string; website: string; send_time: number; viewed_at: number | null }): NoticeRow {
  return { ...r, id: Number(r.id), send_time: Number(r.send_time), viewed_at: r.viewed_at === null ? null : Number(r.viewed_at) };
}
