import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';

export interface MemberRow {
  id: number;
  user_name: string;
  nick_name: string;
  email: string | null;
  phone: string | null;
  is_primary: number;
  enabled: number;
  must_change_password: number;
  last_sign_in_at: number | null;
  created_at: number;
}

const COLUMNS = ['id', 'user_name', 'nick_name', 'email', 'phone', 'is_primary', 'enabled', 'must_change_password', 'last_sign_in_at', 'created_at'] as const;

/** An organisation's accounts, as its primary user manages them. */
export class MemberRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The organisation's accounts, the primary user first, then by creation. */
  list(orgId: number): Promise<MemberRow[]> {
    return this.db.selectFrom('users').select(COLUMNS).where('org_id', '=', orgId).orderBy('is_primary', 'desc').orderBy('id').execute();
  }

  /** One account of the organisation; undefined for another organisation's or none. */
  find(orgId: number, userId: number): Promise<MemberRow | undefined> {
    return this.db.selectFrom('users').select(COLUMNS).where('org_id', '=', orgId).where('id', '=', userId).executeTakeFirst();
  }

  /** Whether a name or e-mail (lower-cased) already names an account, of any organisation. */
  async accountTaken(key: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb.or([eb('user_name_key', '=', key), eb('email_key', '=', key)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  /** A new account of the organisation with its settings (language and zone of its creator), in one transaction. */
  create(
    orgId: number,
    user: { user_name: string; nick_name: string; email: string | null; phone: string | null; password_hash: string; now: number },
    settings: { lcid: number; time_zone: string },
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('users')
        .values({
          org_id: orgId,
          user_name: user.user_name,
          user_name_key: user.user_name.toLowerCase(),
          email: user.email,
          email_key: user.email?.toLowerCase() ?? null,
          phone: user.phone,
          telephone_code: '86',
          nick_name: user.nick_name,
          password_hash: user.password_hash,
          is_primary: 0,
          img_url: '',
          fix_tag: 'DEFAULT',
          enabled: 1,
          must_change_password: 1,
          last_sign_in_at: null,
          created_at: user.now,
          updated_at: user.now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('user_settings').values({ user_id: Number(id), ...settings }).execute();
      return Number(id);
    });
  }

  async setEnabled(userId: number, enabled: 0 | 1, now: number): Promise<void> {
    await this.db.updateTable('users').set({ enabled, updated_at: now }).where('id', '=', userId).execute();
  }

  /** A new password hash; `mustChange` 1 for a temporary password, 0 once its owner chose their own. */
  async setPassword(userId: number, passwordHash: string, mustChange: 0 | 1, now: number): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: passwordHash, must_change_password: mustChange, updated_at: now }).where('id', '=', userId).execute();
  }

  passwordState(userId: number): Promise<{ password_hash: string; must_change_password: number } | undefined> {
    return this.db.selectFrom('users').select(['password_hash', 'must_change_password']).where('id', '=', userId).executeTakeFirst();
  }

  settingsOf(userId: number): Promise<{ lcid: number; time_zone: string } | undefined> {
    return this.db.selectFrom('user_settings').select(['lcid', 'time_zone']).where('user_id', '=', userId).executeTakeFirst();
  }
}
