import { z } from 'zod';
import { defineCall, ZeroOne } from '../call.js';
import { TimeZoneField } from '../paging.js';
import { AccountNameSchema, EmailSchema, freeText, NicknameSchema, PasswordSchema, PhoneSchema, required } from '../validation.js';
import { Exit, GetUserInfo, ModifyLcid } from './user.js';
import { GetPublicKey, Heartbeat } from './auth.js';
import { RecordUserLog } from './userlog.js';

/**
 * Organisation members (issue 17 item 5): the organisation's primary user (IsPrimary) lists its accounts,
 * creates one, disables and re-enables one, and resets one's password. A created or reset account gets a
 * temporary password, which its owner must change at the next sign-in (LoginResult.MustChangePassword)
 * before any other call is served. The primary user's browser makes it (temporaryPassword over
 * crypto.getRandomValues) and sends it sealed like any password (§7.1): no answer carries it. Nobody
 * but the primary user manages members, and only their own organisation's (another organisation's
 * member doesn't exist, 1002).
 */

/** A member named by its id text (UserIdStr). */
export const MemberIdSchema = z.string(required).trim().min(1, required).regex(/^\d{1,18}$/, { error: 'validation.format' });

export const MemberSchema = z.object({
  UserIdStr: z.string(),
  UserName: z.string(),
  NickName: z.string(),
  EMail: z.string(),
  Phone: z.string(),
  IsPrimary: z.boolean(),
  /** 1: may sign in; 0: disabled. */
  Enabled: ZeroOne,
  /** The temporary password the primary user set has not been changed yet. */
  MustChangePassword: z.boolean(),
  /** The last sign-in in the caller's zone, 'YYYY-MM-DD HH:mm:ss'; '' before the first. */
  LastLoginTime: z.string(),
  CreateTime: z.string(),
});
export type Member = z.infer<typeof MemberSchema>;

/**
 * The temporary password the primary user's browser made (temporaryPassword), sealed to the server key
 * and opened before the body is checked, so §5's rule applies; the browser shows it once to the primary
 * user, who hands it on. No answer carries it back.
 */
const TempPasswordField = PasswordSchema;

/** The account a create or a reset changed, as the list shows it; never its password. */
export const MemberChangedSchema = z.object({ Member: MemberSchema });

export const GetMemberList = defineCall({
  path: '/api/User/GetMemberList',
  auth: 'session',
  access: 'primary',
  body: z.object({ timeZone: TimeZoneField }).nullish(),
  data: z.object({ List: z.array(MemberSchema) }),
  summary: "The caller's organisation's accounts, the primary user first (primary user only).",
});

export const CreateMemberBody = z.object({
  userName: AccountNameSchema,
  nickName: NicknameSchema,
  /** Optional: '' or absent for none. */
  emailAddress: z.union([z.literal(''), EmailSchema]).default(''),
  phone: z.union([z.literal(''), PhoneSchema]).default(''),
  tempPwd: TempPasswordField,
  timeZone: TimeZoneField,
});
export type CreateMemberInput = z.output<typeof CreateMemberBody>;

export const CreateMember = defineCall({
  path: '/api/User/CreateMember',
  auth: 'session',
  access: 'primary',
  body: CreateMemberBody,
  data: MemberChangedSchema,
  sealed: ['tempPwd'],
  summary: "Creates an account in the caller's organisation with the temporary password the browser made (sealed) (primary user only).",
});

export const SetMemberEnabled = defineCall({
  path: '/api/User/SetMemberEnabled',
  auth: 'session',
  access: 'primary',
  body: z.object({ memberId: MemberIdSchema, enabled: ZeroOne, timeZone: TimeZoneField }),
  data: MemberSchema,
  summary: "Disables (its sessions end, it can't sign in) or re-enables a member of the caller's organisation (primary user only).",
});

export const ResetMemberPassword = defineCall({
  path: '/api/User/ResetMemberPassword',
  auth: 'session',
  access: 'primary',
  body: z.object({ memberId: MemberIdSchema, tempPwd: TempPasswordField, timeZone: TimeZoneField }),
  data: MemberChangedSchema,
  sealed: ['tempPwd'],
  summary: "Gives a member the new temporary password the browser made (sealed); their sessions end and the next sign-in must change it (primary user only).",
});

/**
 * The change a temporary password asks for at sign-in: the temporary (original) password and the new
 * one, both sealed to the server key like the sign-in password; the new one follows §5 and differs from
 * the temporary one. Refused (1001) when the caller has no temporary password to change.
 */
export const ModifyTemporaryPassword = defineCall({
  path: '/api/Auth/ModifyTemporaryPassword',
  auth: 'session',
  access: 'session',
  body: z.object({
    originalPwd: freeText(required).min(1, required).max(1024, { error: 'validation.tooLong' }),
    newPwd: PasswordSchema,
  }),
  data: z.null(),
  sealed: ['originalPwd', 'newPwd'],
  summary: 'Changes the temporary password a primary user set, as the next sign-in must before anything else.',
});

/** The calls a session whose password must be changed may make; the server refuses the others (1003). */
export const CALLS_WHILE_PASSWORD_CHANGE_DUE: ReadonlySet<string> = new Set(
  [GetPublicKey, Heartbeat, Exit, GetUserInfo, ModifyLcid, RecordUserLog, ModifyTemporaryPassword].map((c) => c.path),
);

/** Characters of a temporary password: no 0/O, 1/l/I, so it is read out and typed without doubt. */
const TEMP_LOWER = 'abcdefghijkmnpqrstuvwxyz';
const TEMP_UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const TEMP_DIGITS = '23456789';

/** A temporary password of 12 characters meeting §5 (a lower-case letter, an upper-case letter and a digit at least). */
export function temporaryPassword(random: (n: number) => number): string {
  const all = TEMP_LOWER + TEMP_UPPER + TEMP_DIGITS;
  const chars = [TEMP_LOWER, TEMP_UPPER, TEMP_DIGITS].map((set) => set[random(set.length)]!);
  while (chars.length < 12) chars.push(all[random(all.length)]!);
  for (let i = chars.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join('');
}
