import { z } from 'zod';
import { defineCall, EmptyBody, ZeroOne } from '../call.js';
import { UserSchema } from './auth.js';

export const Exit = defineCall({
  path: '/api/User/Exit',
  auth: 'session',
  body: EmptyBody,
  data: z.null(),
  summary: 'Sign out: the session ends on the server.',
});

export const ModifyLcid = defineCall({
  path: '/api/User/ModifyLcid',
  auth: 'session',
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
  body: EmptyBody,
  data: AccountSettingSchema,
  summary: 'Notification switches, the map-service key and the time zone.',
});

export const GetUserInfo = defineCall({
  path: '/api/User/GetInfo',
  auth: 'session',
  body: EmptyBody,
  data: UserSchema,
  summary: 'The signed-in user, as the shell shows it.',
});
