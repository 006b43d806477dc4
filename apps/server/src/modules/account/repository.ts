import type { Kysely, Selectable } from 'kysely';
import type { Database, VerificationCodeTable } from '../../db/schema.js';

export type CodeRow = Selectable<VerificationCodeTable>;

/** The account of an address or a user, as the security flow needs it. */
export interface AccountRow {
  id: number;
  user_name: string;
  email: string | null;
  phone: string | null;
  telephone_code: string;
  password_hash: string;
}

const ACCOUNT_COLUMNS = ['id', 'user_name', 'email', 'phone', 'telephone_code', 'password_hash'] as const;

/** Verification codes, session verifications, and the account fields the security flow changes. */
export class AccountRepository {
  constructor(private readonly db: Kysely<Database>) {}

  getCode(purpose: string, target: string): Promise<CodeRow | undefined> {
    return this.db.selectFrom('verification_codes').selectAll().where('purpose', '=', purpose).where('target', '=', target).executeTakeFirst();
  }

  /** The one live code of a purpose and target, replacing any before it (its tries start again at 0). */
  async putCode(purpose: string, target: string, codeHash: string, now: number, expiresAt: number): Promise<void> {
    await this.db
      .insertInto('verification_codes')
      .values({ purpose, target, code_hash: codeHash, sent_at: now, expires_at: expiresAt, tries: 0 })
      .onConflict((oc) => oc.columns(['purpose', 'target']).doUpdateSet({ code_hash: codeHash, sent_at: now, expires_at: expiresAt, tries: 0 }))
      .execute();
  }

  /** When the newest code of the purposes and targets was sent (epoch ms), undefined when none is kept. */
  async lastSentAt(purposes: string[], targets: string[]): Promise<number | undefined> {
    if (targets.length === 0) return undefined;
    const row = await this.db
      .selectFrom('verification_codes')
      .select((eb) => eb.fn.max('sent_at').as('last'))
      .where('purpose', 'in', purposes)
      .where('target', 'in', targets)
      .executeTakeFirst();
    return row?.last === null || row?.last === undefined ? undefined : Number(row.last);
  }

  /** A write that changes nothing, as heavy as an outbox insert (see AccountService.sendNothing). */
  async touchCode(purpose: string, target: string): Promise<void> {
    await this.db
      .updateTable('verification_codes')
      .set((eb) => ({ tries: eb.ref('tries') }))
      .where('purpose', '=', purpose)
      .where('target', '=', target)
      .execute();
  }

  /** Counts a wrong try; returns the tries so far. */
  async addTry(id: number): Promise<number> {
    const row = await this.db
      .updateTable('verification_codes')
      .set((eb) => ({ tries: eb('tries', '+', 1) }))
      .where('id', '=', id)
      .returning('tries')
      .executeTakeFirst();
    return Number(row?.tries ?? Number.MAX_SAFE_INTEGER);
  }

  /** Deletes the code when it is still this one: true for the one caller that used it (single use). */
  async takeCode(id: number, codeHash: string): Promise<boolean> {
    const r = await this.db.deleteFrom('verification_codes').where('id', '=', id).where('code_hash', '=', codeHash).executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }


  async deleteExpiredCodes(now: number): Promise<number> {
    const r = await this.db.deleteFrom('verification_codes').where('expires_at', '<', now).executeTakeFirst();
    return Number(r.numDeletedRows);
  }

  async verifiedUntil(sessionId: number): Promise<number> {
    const row = await this.db.selectFrom('security_verifications').select('verified_until').where('session_id', '=', sessionId).executeTakeFirst();
    return row ? Number(row.verified_until) : 0;
  }

  async setVerified(sessionId: number, until: number): Promise<void> {
    await this.db
      .insertInto('security_verifications')
      .values({ session_id: sessionId, verified_until: until })
      .onConflict((oc) => oc.column('session_id').doUpdateSet({ verified_until: until }))
      .execute();
  }

  userById(id: number): Promise<AccountRow | undefined> {
    return this.db.selectFrom('users').select(ACCOUNT_COLUMNS).where('id', '=', id).executeTakeFirst();
  }

  userByEmail(emailKey: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('users').select(ACCOUNT_COLUMNS).where('email_key', '=', emailKey).executeTakeFirst();
  }

  userByPhone(phone: string): Promise<AccountRow | undefined> {
    return this.db.selectFrom('users').select(ACCOUNT_COLUMNS).where('phone', '=', phone).executeTakeFirst();
  }

  /** The user's language setting (Lcid), undefined when none is stored. */
  async lcidOf(userId: number): Promise<number | undefined> {
    const row = await this.db.selectFrom('user_settings').select('lcid').where('user_id', '=', userId).executeTakeFirst();
    return row ? Number(row.lcid) : undefined;
  }

  async userNameTaken(userNameKey: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('users')
      .select('id')
      .where((eb) => eb.or([eb('user_name_key', '=', userNameKey), eb('email_key', '=', userNameKey)]))
      .executeTakeFirst();
    return row !== undefined;
  }

  async organisationExists(name: string): Promise<boolean> {
    return (await this.db.selectFrom('organisations').select('id').where('name', '=', name).executeTakeFirst()) !== undefined;
  }

  async setEmail(userId: number, email: string, now: number): Promise<void> {
    await this.db.updateTable('users').set({ email, email_key: email.toLowerCase(), updated_at: now }).where('id', '=', userId).execute();
  }

  async setPhone(userId: number, countryCode: string, phone: string, now: number): Promise<void> {
    await this.db.updateTable('users').set({ phone, telephone_code: countryCode, updated_at: now }).where('id', '=', userId).execute();
  }

  async setPasswordHash(userId: number, hash: string, now: number): Promise<void> {
    await this.db.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', userId).execute();
  }

  /** Ends the user's sessions but `keep` (the one that changed the password); returns their ids. */
  async endSessions(userId: number, keep?: number): Promise<number[]> {
    let q = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (keep !== undefined) q = q.where('id', '!=', keep);
    const rows = await q.returning('id').execute();
    return rows.map((r) => Number(r.id));
  }

  /** Lifts the sign-in lock of the account (a reset proves its owner). */
  async clearSignInFailures(userId: number): Promise<void> {
    await this.db.deleteFrom('sign_in_failures').where('account_key', '=', `user:${userId}`).execute();
  }
}
