import type { Kysely, Selectable } from 'kysely';
import type { Database, PersonalTokenTable } from '../../db/schema.js';

export type PersonalTokenRow = Selectable<PersonalTokenTable>;

/** A token as a direct-read request finds it by its hash: the token and what its user's caller is built from. */
export interface TokenHolder {
  id: number;
  user_id: number;
  user_name_key: string;
  org_id: number;
  time_zone: string;
  org_name: string;
  expires_at: number | null;
  revoked_at: number | null;
}

/** The personal_tokens table (its module's only reader), and the user columns a token's caller needs. */
export class TokenRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: { user_id: number; name: string; token_hash: string; hint: string; created_at: number; expires_at: number | null }): Promise<number> {
    const r = await this.db.insertInto('personal_tokens').values(row).returning('id').executeTakeFirstOrThrow();
    return Number(r.id);
  }

  list(userId: number): Promise<PersonalTokenRow[]> {
    return this.db.selectFrom('personal_tokens').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  async countActive(userId: number, now: number): Promise<number> {
    const r = await this.db
      .selectFrom('personal_tokens')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', now)]))
      .executeTakeFirst();
    return Number(r?.n ?? 0);
  }

  find(id: number, userId: number): Promise<PersonalTokenRow | undefined> {
    return this.db.selectFrom('personal_tokens').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  }

  async revoke(id: number, now: number): Promise<void> {
    await this.db.updateTable('personal_tokens').set({ revoked_at: now }).where('id', '=', id).where('revoked_at', 'is', null).execute();
  }

  /** The token of this hash with its enabled user (a disabled user's token is none). */
  async byHash(hash: string): Promise<TokenHolder | undefined> {
    const r = await this.db
      .selectFrom('personal_tokens as t')
      .innerJoin('users as u', 'u.id', 't.user_id')
      .innerJoin('user_settings as us', 'us.user_id', 'u.id')
      .innerJoin('organisations as o', 'o.id', 'u.org_id')
      .select(['t.id', 't.user_id', 'u.user_name_key', 'u.org_id', 'us.time_zone', 'o.name as org_name', 't.expires_at', 't.revoked_at'])
      .where('t.token_hash', '=', hash)
      .where('u.enabled', '=', 1)
      .executeTakeFirst();
    if (!r) return undefined;
    return {
      ...r,
      id: Number(r.id),
      user_id: Number(r.user_id),
      org_id: Number(r.org_id),
      expires_at: r.expires_at === null ? null : Number(r.expires_at),
      revoked_at: r.revoked_at === null ? null : Number(r.revoked_at),
    };
  }

  async touch(id: number, now: number): Promise<void> {
    await this.db.updateTable('personal_tokens').set({ last_used_at: now }).where('id', '=', id).execute();
  }
}
