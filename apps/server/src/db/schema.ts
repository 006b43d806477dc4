import type { Generated, Insertable, Selectable, Updateable } from 'kysely';

/** Times are epoch milliseconds in every table (integer on SQLite, bigint on PostgreSQL). */
export interface OrganisationTable {
  id: Generated<number>;
  name: string;
  parent_unit: string;
  created_at: number;
}

export interface UserTable {
  id: Generated<number>;
  org_id: number;
  user_name: string;
  /** Lower-cased user name, unique: sign-in is case-insensitive. */
  user_name_key: string;
  email: string | null;
  /** Lower-cased e-mail, unique when present. */
  email_key: string | null;
  phone: string | null;
  telephone_code: string;
  nick_name: string;
  password_hash: string;
  is_primary: number;
  img_url: string;
  fix_tag: string;
  created_at: number;
  updated_at: number;
}

export interface UserSettingTable {
  user_id: number;
  lcid: number;
  time_zone: string;
  tdt_key: Generated<string>;
  receive_app: Generated<number>;
  receive_email: Generated<number>;
  experience_func: Generated<number>;
}

export interface SessionTable {
  id: Generated<number>;
  /** SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  ip: string;
  user_agent: string;
}

export interface SignInFailureTable {
  /** Lower-cased account as typed, so that unknown accounts lock the same way known ones do. */
  account_key: string;
  window_start: number;
  failures: number;
  locked_until: number;
}

export interface ServerKeyTable {
  id: Generated<number>;
  purpose: string;
  public_key: string;
  secret_key: string;
  created_at: number;
}

export interface Database {
  organisations: OrganisationTable;
  users: UserTable;
  user_settings: UserSettingTable;
  sessions: SessionTable;
  sign_in_failures: SignInFailureTable;
  server_keys: ServerKeyTable;
}

export type UserRow = Selectable<UserTable>;
export type NewUser = Insertable<UserTable>;
export type UserUpdate = Updateable<UserTable>;
export type UserSettingRow = Selectable<UserSettingTable>;
export type SessionRow = Selectable<SessionTable>;
export type OrganisationRow = Selectable<OrganisationTable>;
