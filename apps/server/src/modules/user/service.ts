import {
  AccountNameSchema,
  type AccountSetting,
  type AccountSettingInput,
  EmailSchema,
  LanguageId,
  message,
  PasswordSchema,
  PhoneSchema,
  type SafeSetting,
  type User,
} from '@wildtrack/contract';
import argon2 from 'argon2';
import type { Config } from '../../config.js';
import type { UserSettingRow } from '../../db/schema.js';
import type { UserRepository, UserWithOrg } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

function safeSettingOf(row: UserWithOrg): SafeSetting {
  return {
    CountryCode: row.telephone_code,
    Phone: row.phone ?? '',
    Email: row.email ?? '',
    PasswordOnly: !row.phone && !row.email,
  };
}

function toUser(row: UserWithOrg, settings: UserSettingRow): User {
  return {
    UserId: Number(row.id),
    UserIdStr: String(row.id),
    UserName: row.user_name,
    NickName: row.nick_name,
    CustomerId: Number(row.org_id),
    CustomerIdStr: String(row.org_id),
    CustomerName: row.org_name,
    ParentUnit: row.parent_unit,
    IsPrimary: row.is_primary === 1,
    FixTag: row.fix_tag === 'CHANNEL' ? 'CHANNEL' : 'DEFAULT',
    TelephoneCode: row.telephone_code,
    Phone: row.phone ?? '',
    EMail: row.email ?? '',
    ImgUrl: row.img_url,
    ExperienceFunc: settings.experience_func === 1 ? 1 : 0,
    Company: row.org_name,
    Lcid: settings.lcid === LanguageId.en ? LanguageId.en : LanguageId.zh,
    TimeZone: settings.time_zone,
    SafeSetting: safeSettingOf(row),
  };
}

export interface NewUserInput {
  orgName: string;
  userName: string;
  password: string;
  email?: string | undefined;
  phone?: string | undefined;
  nickName?: string | undefined;
  isPrimary?: boolean;
  lcid?: number;
}

export class UserInputError extends Error {}

/** What a sign-in checks of an account. */
export interface Credentials {
  userId: number;
  passwordHash: string;
  enabled: boolean;
  mustChangePassword: boolean;
}

function credentialsOf(row: UserWithOrg | undefined): Credentials | undefined {
  return row && { userId: Number(row.id), passwordHash: row.password_hash, enabled: Number(row.enabled) === 1, mustChangePassword: Number(row.must_change_password) === 1 };
}

export class UserService {
  constructor(private readonly users: UserRepository) {}

  /** No user at all yet: the first start (organisations alone, e.g. made by the CLI, don't count). */
  async isEmpty(): Promise<boolean> {
    return (await this.users.countUsers()) === 0;
  }

  /** The user signing in by name or e-mail (`accountKey` lower-cased), with the hash their password is checked against. */
  async credentials(accountKey: string): Promise<Credentials | undefined> {
    return credentialsOf(await this.users.findByAccount(accountKey));
  }

  /** The same for an account already named by its id (a phone-code sign-in). */
  async credentialsById(userId: number): Promise<Credentials | undefined> {
    return credentialsOf(await this.users.findById(userId));
  }

  async recordSignIn(userId: number, now: number): Promise<void> {
    await this.users.recordSignIn(userId, now);
  }

  async getUser(userId: number): Promise<User> {
    const row = await this.users.findById(userId);
    if (!row) throw new Error(`user ${userId} vanished`);
    return toUser(row, await this.users.settings(userId));
  }

  async safeSetting(userId: number): Promise<SafeSetting> {
    const row = await this.users.findById(userId);
    if (!row) throw new Error(`user ${userId} vanished`);
    return safeSettingOf(row);
  }

  async accountSetting(userId: number): Promise<AccountSetting> {
    const s = await this.users.settings(userId);
    return {
      TdtKey: s.tdt_key,
      ReceiveNotification: { APP: s.receive_app === 1 ? 1 : 0, Email: s.receive_email === 1 ? 1 : 0 },
      TimeZone: s.time_zone,
    };
  }

  /**
   * The settings form (SetAccountSetting): the zone stays as it is when the body has none; a zone given
   * here is the user's choice, which later sign-ins (setSignInTimeZone) no longer replace.
   */
  async saveAccountSetting(userId: number, setting: AccountSettingInput): Promise<void> {
    await this.users.updateSettings(userId, {
      receive_app: setting.app,
      receive_email: setting.email,
      tdt_key: setting.tdtKey,
      ...(setting.timeZone === undefined ? {} : { time_zone: setting.timeZone, time_zone_chosen: 1 }),
    });
  }

  /** User/ModifyInfo: the nickname (trimmed by the contract) and, when made, the avatar thumbnail's address. */
  async modifyInfo(userId: number, nickName: string, imgUrl: string | undefined): Promise<User> {
    await this.users.updateProfile(userId, imgUrl === undefined ? { nick_name: nickName } : { nick_name: nickName, img_url: imgUrl }, clockNow());
    return this.getUser(userId);
  }

  async setLcid(userId: number, lcid: number): Promise<void> {
    await this.users.updateSettings(userId, { lcid });
  }

  /**
   * The zone a sign-in (or a registration) came with: the user's zone until they save one in Settings,
   * then ignored, so signing in on a phone in another zone leaves the desktop's zone and the e-mail's as
   * they were (issue 28 item 3).
   */
  async setSignInTimeZone(userId: number, timeZone: string): Promise<void> {
    await this.users.updateUnchosenTimeZone(userId, timeZone);
  }

  /** Operator path (CLI, first start): validated by the same rules as the forms. */
  async createUser(input: NewUserInput): Promise<number> {
    const check = <T>(label: string, r: { success: true; data: T } | { success: false; error: { issues: { message: string }[] } }): T => {
      if (!r.success) throw new UserInputError(`${label}: ${r.error.issues.map((i) => message('en', i.message)).join(', ')}`);
      return r.data;
    };
    const userName = check('user name', AccountNameSchema.safeParse(input.userName));
    const password = check('password', PasswordSchema.safeParse(input.password));
    const email = input.email ? check('e-mail', EmailSchema.safeParse(input.email)) : null;
    const phone = input.phone ? check('phone', PhoneSchema.safeParse(input.phone)) : null;
    if (!input.orgName.trim()) throw new UserInputError('organisation: required');
    if (await this.users.findByAccount(userName.toLowerCase())) throw new UserInputError(`user name: ${userName} is taken`);
    if (email && (await this.users.findByAccount(email.toLowerCase()))) throw new UserInputError(`e-mail: ${email} is taken`);
    const now = clockNow();
    return this.users.createUser(
      input.orgName.trim(),
      {
        user_name: userName,
        user_name_key: userName.toLowerCase(),
        email,
        email_key: email?.toLowerCase() ?? null,
        phone,
        telephone_code: '86',
        nick_name: input.nickName?.trim() || userName,
        password_hash: await hashPassword(password),
        is_primary: input.isPrimary ? 1 : 0,
        img_url: '',
        fix_tag: 'DEFAULT',
        created_at: now,
        updated_at: now,
      },
      { lcid: input.lcid ?? LanguageId.zh, time_zone: '+08:00' },
    );
  }
}

/** argon2id's memory cost (KiB) for the passwords this process hashes; usePasswordHashing sets it. */
let hashMemoryKib = 65536;

/**
 * Sets, for this process, the memory cost of the passwords hashed from now on (PASSWORD_HASH_MEMORY_KIB): the
 * server and the CLI call it once at start, the tests' apps with a low one. Hashes already stored keep their
 * own cost (argon2.verify reads it from the hash).
 */
export function usePasswordHashing(config: Pick<Config, 'passwordHashMemoryKib'>): void {
  hashMemoryKib = config.passwordHashMemoryKib;
}

/** argon2id with the library's defaults (t = 3, p = 4) and m = PASSWORD_HASH_MEMORY_KIB (64 MiB by default). */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id, memoryCost: hashMemoryKib });
}
