import { z } from 'zod';
import { defineCall } from '../call.js';
import { orderedRange, PageSchema, TimeTextSchema, TimeZoneField } from '../paging.js';

/**
 * The user log (§7.2 UserLog/Record): the console records the pages a user visits and the key actions
 * they take, silently (a refusal is never shown, §8); the organisation's primary user (IsPrimary) reads
 * its members' log, by member and time range. Nobody else reads it.
 */
export const USER_LOG_TYPES = ['visit', 'action'] as const;
export const UserLogTypeSchema = z.enum(USER_LOG_TYPES, { error: 'validation.invalidValue' });
export type UserLogType = z.infer<typeof UserLogTypeSchema>;

/** Most entries one Record call carries (the client sends what it gathered, in batches). */
export const USER_LOG_BATCH_MAX = 50;
/** How old an entry's time may be when it arrives (a tab that slept sends it late), and how far ahead. */
export const USER_LOG_MAX_AGE_MS = 7 * 24 * 3600_000;
export const USER_LOG_MAX_AHEAD_MS = 5 * 60_000;

/** A page's path ('/device') or an action's name ('logout', 'instr.send'): no query, no spaces. */
export const UserLogTargetSchema = z
  .string({ error: 'validation.required' })
  .min(1, { error: 'validation.required' })
  .max(120, { error: 'validation.tooLong' })
  .regex(/^[A-Za-z0-9_\-./:]+$/, { error: 'validation.format' });

export const UserLogEntrySchema = z.object({
  entryType: UserLogTypeSchema,
  target: UserLogTargetSchema,
  /** When it happened, epoch ms (the client's clock). */
  time: z.number({ error: 'validation.invalidValue' }).int({ error: 'validation.invalidValue' }).min(0),
});
export type UserLogEntry = z.infer<typeof UserLogEntrySchema>;

export const RecordUserLog = defineCall({
  path: '/api/UserLog/Record',
  auth: 'session',
  access: 'session',
  body: z.object({
    entries: z.array(UserLogEntrySchema, { error: 'validation.required' }).min(1, { error: 'validation.required' }).max(USER_LOG_BATCH_MAX, { error: 'validation.tooMany' }),
  }),
  data: z.null(),
  summary: 'Records page visits and key actions of the signed-in user (sent in batches; the client never shows a refusal).',
});

export const UserLogMemberSchema = z.object({ UserIdStr: z.string(), UserName: z.string(), NickName: z.string() });

export const UserLogRowSchema = z.object({
  Id: z.string(),
  UserIdStr: z.string(),
  UserName: z.string(),
  NickName: z.string(),
  Type: UserLogTypeSchema,
  Target: z.string(),
  /** In the caller's zone, 'YYYY-MM-DD HH:mm:ss'. */
  Time: z.string(),
});
export type UserLogRow = z.infer<typeof UserLogRowSchema>;

export const GetUserLogList = defineCall({
  path: '/api/UserLog/GetList',
  auth: 'session',
  access: 'primary',
  body: z
    .object({
      /** One member of the caller's organisation ('' or absent: every member). */
      memberId: z.string().trim().regex(/^\d{0,18}$/, { error: 'validation.format' }).optional(),
      startTime: TimeTextSchema,
      endTime: TimeTextSchema,
      timeZone: TimeZoneField,
      ...PageSchema,
    })
    .superRefine(orderedRange),
  data: z.object({
    Total: z.number(),
    List: z.array(UserLogRowSchema),
    /** The organisation's members, for the filter. */
    Members: z.array(UserLogMemberSchema),
  }),
  summary: 'The organisation\'s user log, newest first, by member and time range: for its primary user only.',
});
