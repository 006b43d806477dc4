import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface NoticeRow {
  id: number;
  title: string;
  body: string;
  website: string;
  send_time: number;
  viewed_at: number | null;
  /** A system notice's text as message keys (JSON), rendered in the reader's language; null: title and body as stored. */
  template: string | null;
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

  /** The organisation of a user (a notice to one user is also to their organisation). */
  async orgIdOfUser(userId: number): Promise<number | undefined> {
    const r = await this.db.selectFrom('users').select('org_id').where('id', '=', userId).executeTakeFirst();
    return r ? Number(r.org_id) : undefined;
  }

  async create(n: { orgId: number | null; userId?: number; title: string; body: string; website: string; template?: string; sendTime: number }): Promise<number> {
    const r = await this.db
      .insertInto('notices')
      .values({ org_id: n.orgId, user_id: n.userId ?? null, title: n.title, body: n.body, website: n.website, template: n.template ?? null, send_time: n.sendTime })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(r.id);
  }

  /** The user's notices (their organisation's, those to all, and those to them alone) they have not deleted. */
  private mine(userId: number, orgId: number) {
    return this.db
      .selectFrom('notices as n')
      .leftJoin('notice_states as s', (j) => j.onRef('s.notice_id', '=', 'n.id').on('s.user_id', '=', userId))
      .where((eb) => eb.or([eb('n.org_id', 'is', null), eb('n.org_id', '=', orgId)]))
      .where((eb) => eb.or([eb('n.user_id', 'is', null), eb('n.user_id', '=', userId)]))
      .where('s.deleted_at', 'is', null);
  }

  async list(userId: number, orgId: number): Promise<NoticeRow[]> {
    const rows = await this.mine(userId, orgId)
      .select(['n.id', 'n.title', 'n.body', 'n.website', 'n.send_time', 'n.template', 's.viewed_at'])
      .orderBy('n.send_time', 'desc')
      .orderBy('n.id', 'desc')
      .limit(LIST_MAX)
      .execute();
    return rows.map(normalise);
  }

  async one(userId: number, orgId: number, id: number): Promise<NoticeRow | undefined> {
    const r = await this.mine(userId, orgId).select(['n.id', 'n.title', 'n.body', 'n.website', 'n.send_time', 'n.template', 's.viewed_at']).where('n.id', '=', id).executeTakeFirst();
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

function normalise(r: NoticeRow): NoticeRow {
  return { ...r, id: Number(r.id), send_time: Number(r.send_time), viewed_at: r.viewed_at === null ? null : Number(r.viewed_at) };
}
