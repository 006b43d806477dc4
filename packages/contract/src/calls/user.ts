import { z } from 'zod';
import { defineCall, EmptyBody, ZeroOne } from '../call.js';
import { TimeZoneSchema } from '../timezone.js';
import { ImageUrlSchema, NicknameSchema, TdtKeySchema } from '../validation.js';
import { UserSchema } from './auth.js';

export const Exit = defineCall({
  path: '/api/User/Exit',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: z.null(),
  summary: 'Sign out: the session ends on the server.',
});

export const ModifyLcid = defineCall({
  path: '/api/User/ModifyLcid',
  auth: 'session',
  access: 'session',
  body: z.object({
    lcid: z.union([z.literal(2052), z.literal(1033)], { error: 'validation.lcid' }),
  }),
  data: z.null(),
  summary: 'Records the interface language chosen with the toggle (2052 or 1033).',
});

export const AccountSettingSchema = z.object({
  TdtKey: z.string(),
  ReceiveNotification: z.object({ APP: ZeroOne, Email: ZeroOne }),
  TimeZone: z.string(),
});
export type AccountSetting = z.infer<typeof AccountSettingSchema>;

export const GetAccountSetting = defineCall({
  path: '/api/User/GetAccountSetting',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: AccountSettingSchema,
  summary: 'Notification switches, the map-service key and the time zone.',
});

/**
 * The settings form (§2.4 Settings, §3 "User settings form: receiveApp, receiveEmail, key, zone"). The
 * spec's call carries app, email and tdtKey; timeZone is optional so such a body still works, and when
 * given it becomes the zone the server formats times in (as the zone sent at sign-in does). An absent
 * or empty tdtKey means no key.
 */
export const SetAccountSettingBody = z.object({
  app: ZeroOne,
  email: ZeroOne,
  tdtKey: TdtKeySchema.default(''),
  timeZone: TimeZoneSchema.optional(),
});
/** The body as the server reads it: trimmed key (empty for none), the zone as "+08:00" when given. */
export type AccountSettingInput = z.output<typeof SetAccountSettingBody>;

export const SetAccountSetting = defineCall({
  path: '/api/User/SetAccountSetting',
  auth: 'session',
  access: 'session',
  body: SetAccountSettingBody,
  data: z.null(),
  summary: 'Saves the notification switches, the map-service key and (optionally) the time zone.',
});

export const GetUserInfo = defineCall({
  path: '/api/User/GetInfo',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: UserSchema,
  summary: 'The signed-in user, as the shell shows it.',
});

/**
 * The user-info form (§2.4 User info, §7.2 /api/User/ModifyInfo): the nickname (§5: trimmed, not blank)
 * and the avatar, given as the address /api/Image/Upload answered for a picture of the caller's
 * organisation, or '' to keep the avatar as it is. The server makes the avatar's thumbnail (height 100)
 * from that picture and answers the user as it now is, with ImgUrl the thumbnail's address.
 */
export const ModifyInfo = defineCall({
  path: '/api/User/ModifyInfo',
  auth: 'session',
  access: 'session',
  body: z.object({
    nickName: NicknameSchema,
    image: z.union([z.literal(''), ImageUrlSchema]).default(''),
  }),
  data: UserSchema,
  summary: "Changes the nickname and (from an uploaded picture of the caller's organisation) the avatar; answers the user.",
});
