import type { Kysely } from 'kysely';
import type { Database, NewUser, OrganisationRow, UserRow, UserSettingRow } from '../../db/schema.js';

export type UserWithOrg = UserRow & { org_name: string; parent_unit: string };

export class UserRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private withOrg() {
    return this.db
      .selectFrom('users')
      .innerJoin('organisations', 'organisations.id', 'users.org_id')
      .selectAll('users')
      .select(['organisations.name as org_name', 'organisations.parent_unit']);
  }

  /** The user whose name or e-mail is `accountKey` (lower-cased). */
  findByAccount(accountKey: string): Promise<UserWithOrg | undefined> {
    return this.withOrg()
      .where((eb) => eb.or([eb('users.user_name_key', '=', accountKey), eb('users.email_key', '=', accountKey)]))
      .executeTakeFirst();
  }

  findById(id: number): Promise<UserWithOrg | undefined> {
    return this.withOrg().where('users.id', '=', id).executeTakeFirst();
  }

  async settings(userId: number): Promise<UserSettingRow> {
    const row = await this.db.selectFrom('user_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw new Error(`user ${userId} has no settings row`);
    return row;
  }

  async updateSettings(userId: number, values: Partial<Omit<UserSettingRow, 'user_id'>>): Promise<void> {
    await this.db.updateTable('user_settings').set(values).where('user_id', '=', userId).execute();
  }

  /** The zone of a sign-in, kept only while the user has not saved one in Settings. */
  async updateUnchosenTimeZone(userId: number, timeZone: string): Promise<void> {
    await this.db.updateTable('user_settings').set({ time_zone: timeZone }).where('user_id', '=', userId).where('time_zone_chosen', '=', 0).execute();
  }

  /** The nickname and, when given, the avatar's address (User/ModifyInfo). */
  async updateProfile(userId: number, values: { nick_name: string; img_url?: string }, now: number): Promise<void> {
    await this.db.updateTable('users').set({ ...values, updated_at: now }).where('id', '=', userId).execute();
  }

  async recordSignIn(userId: number, now: number): Promise<void> {
    await this.db.updateTable('users').set({ last_sign_in_at: now }).where('id', '=', userId).execute();
  }

  findOrganisationByName(name: string): Promise<OrganisationRow | undefined> {
    return this.db.selectFrom('organisations').selectAll().where('name', '=', name).executeTakeFirst();
  }

  async countUsers(): Promise<number> {
    const row = await this.db.selectFrom('users').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Creates the organisation when `orgName` is new, then the user and their settings, in one transaction. */
  createUser(orgName: string, user: Omit<NewUser, 'org_id'>, settings: { lcid: number; time_zone: string }): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      let org = await trx.selectFrom('organisations').select('id').where('name', '=', orgName).executeTakeFirst();
      if (!org) {
        org = await trx
          .insertInto('organisations')
          .values({ name: orgName, parent_unit: '', created_at: user.created_at })
          .returning('id')
          .executeTakeFirstOrThrow();
      }
      const { id } = await trx
        .insertInto('users')
        .values({ ...user, org_id: Number(org.id) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx.insertInto('user_settings').values({ user_id: Number(id), ...settings }).execute();
      return Number(id);
    });
  }
}
