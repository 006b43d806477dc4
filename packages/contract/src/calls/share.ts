import { z } from 'zod';
import { defineCall, EmptyBody } from '../call.js';
import { PageSchema, timeKey, TimeZoneField } from '../paging.js';
import { EMAIL_MAX } from '../constants.js';
import { ImeiSchema as imei, plainText, required } from '../validation.js';
import { TimeTextSchema } from './fix.js';

/**
 * Device sharing (§2.1 /share, §3 Sharing record, §5 Sharing, §6 ShareDevice, §7.2 DeviceShare): a user
 * lends devices of their organisation to an account of another organisation for a time window
 * (EffectiveTime .. FailureTime, in the caller's zone) with the rights they choose among EditDevice,
 * RemoteInstr and DownloadData (never EditFix nor ShareDevice: a share is not passed on). The recipient
 * sees the devices in their tree under the sharer's folder while the window is open; every device call
 * applies the share's rights (docs/api.md "Access rules").
 *
 * A share is one row per device and recipient; sharing a device again with the same account replaces
 * the window and rights of the share the caller already gave. Only the sharer changes or revokes it.
 */

/** Most devices one share may name. */
export const SHARE_MAX_DEVICES = 500;

/** The account a share goes to: its user name or e-mail (§5: "Account (username or e-mail) required"). */
export const ShareAccountSchema = z
  .string(required)
  .trim()
  .min(1, required)
  .max(EMAIL_MAX, { error: 'validation.tooLong' })
  .refine(plainText.check, { error: plainText.error });

/** A share's IdStr. */
const shareId = z.string(required).regex(/^\d{1,18}$/, { error: 'validation.format' });

/**
 * Whether a window ends after it starts, for forms; the server checks the same on the parsed times (601
 * naming failureTime, 'validation.shareWindow'). Not a refinement of the bodies: the access harness sends
 * the smallest body a schema accepts, one time text for both.
 */
export function windowOrdered(effectiveTime: string, failureTime: string): boolean {
  return timeKey(failureTime) > timeKey(effectiveTime);
}

/**
 * The data a share lets its recipient read (issue 28), apart from when the share is valid (its window):
 * - ALL:    every record of the device, all of its history;
 * - FROM:   the records taken from `dataFrom` on (a time in the body's zone);
 * - WINDOW: only the records taken inside the share's window (what every share did before issue 28).
 * The window alone decides whether the share is valid now; the data period only what the recipient reads
 * while it is. A create that names none gets WINDOW (an older caller's share reads what it always read);
 * an update that names none keeps the share's. The console sends ALL unless its user chooses otherwise.
 */
export const SHARE_DATA_PERIODS = ['ALL', 'FROM', 'WINDOW'] as const;
export const ShareDataPeriodSchema = z.enum(SHARE_DATA_PERIODS, { error: 'validation.shareDataPeriod' });
export type ShareDataPeriod = z.infer<typeof ShareDataPeriodSchema>;

/** FROM names its first time: 601 naming dataFrom otherwise (a refinement: the fields alone cannot say it). */
export function dataFromRequired(body: { dataPeriod?: ShareDataPeriod | undefined; dataFrom?: string | undefined }, ctx: z.RefinementCtx): void {
  if (body.dataPeriod === 'FROM' && body.dataFrom === undefined) ctx.addIssue({ code: 'custom', path: ['dataFrom'], message: 'validation.shareDataFrom' });
}

/** The window and rights of a share, as a create or an update sends them; times in the body's (or caller's) zone. */
const terms = {
  dataPeriod: ShareDataPeriodSchema.optional(),
  /** The first time FROM lets the recipient read; ignored for ALL and WINDOW. */
  dataFrom: TimeTextSchema.optional(),
  effectiveTime: TimeTextSchema,
  failureTime: TimeTextSchema,
  canEditDevice: z.boolean().default(false),
  canRemoteInstr: z.boolean().default(false),
  canDownloadData: z.boolean().default(false),
  timeZone: TimeZoneField,
};

/**
 * One share as its sharer or its recipient sees it (§3 "Shared-device info"): the device, the other
 * party (the recipient in "what I shared", the sharer in "shared with me": their nickname only), the
 * window in the caller's zone, the rights, when it was made, and whether the window is open now.
 */
export const ShareRecordSchema = z.object({
  IdStr: z.string(),
  IMEI: z.string(),
  Caption: z.string(),
  UserIdStr: z.string(),
  NickName: z.string(),
  EffectiveTime: z.string(),
  FailureTime: z.string(),
  CanEditDevice: z.boolean(),
  CanRemoteInstr: z.boolean(),
  CanDownloadData: z.boolean(),
  CreateTime: z.string(),
  /** Who made the share: an account of the device's organisation (the other party in the received list). */
  SharerIdStr: z.string(),
  SharerName: z.string(),
  /** PENDING: the window has not begun; ACTIVE: open now; EXPIRED: over. */
  State: z.enum(['PENDING', 'ACTIVE', 'EXPIRED']),
  /** What the recipient reads while the share is valid (SHARE_DATA_PERIODS). */
  DataPeriod: ShareDataPeriodSchema,
  /** FROM's first time in the caller's zone; '' for ALL and WINDOW. */
  DataFrom: z.string(),
});
export type ShareRecord = z.infer<typeof ShareRecordSchema>;

/** The account a share would go to, as far as the sharer needs: whether there is one and its nickname. */
export const ShareRecipientSchema = z.object({ Exists: z.boolean(), NickName: z.string() });
export type ShareRecipient = z.infer<typeof ShareRecipientSchema>;

export const GetShareRecipient = defineCall({
  path: '/api/DeviceShare/GetRecipient',
  auth: 'session',
  access: 'session',
  body: z.object({ account: ShareAccountSchema }),
  data: ShareRecipientSchema,
  summary: 'Whether an account has this user name or e-mail, and its nickname (nothing else), to show whom a share goes to.',
});

export const CreateShare = defineCall({
  path: '/api/DeviceShare/Create',
  auth: 'session',
  access: 'device right ShareDevice',
  body: z.object({
    imeis: z.array(imei).min(1, { error: 'validation.imeis.empty' }).max(SHARE_MAX_DEVICES),
    account: ShareAccountSchema,
    ...terms,
  }).superRefine(dataFromRequired),
  data: z.object({ Count: z.number().int() }),
  summary: 'Shares the devices with an account for a window with the chosen rights and data period (omitted: WINDOW), all or none (one transaction); a device already shared with it gets the new terms.',
});

export const GetSharedCount = defineCall({
  path: '/api/DeviceShare/GetSharedCount',
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: z.object({ Count: z.number().int() }),
  summary: "How many shares the caller has given (every state); for the organisation's primary user, every share its accounts have given.",
});

/** A page of shares: the body and the answer of both lists. */
const ShareListBody = z.object({ ...PageSchema, timeZone: TimeZoneField });
const ShareListData = z.object({
  List: z.array(ShareRecordSchema),
  Total: z.number().int(),
  /** The given list holds every share of the caller's organisation (the caller is its primary user), not only the caller's own. */
  Organisation: z.boolean(),
});

export const GetSharedListByPage = defineCall({
  path: '/api/DeviceShare/GetSharedListByPage',
  auth: 'session',
  access: 'session',
  body: ShareListBody,
  data: ShareListData,
  summary: "One page of the shares the caller has given (the primary user: every share of the organisation's accounts, each with its sharer), newest first: device, recipient, sharer, window, rights.",
});

export const GetReceivedListByPage = defineCall({
  path: '/api/DeviceShare/GetReceivedListByPage',
  auth: 'session',
  access: 'session',
  body: ShareListBody,
  data: ShareListData,
  summary: 'One page of the shares given to the caller, newest first: device, sharer, window, rights.',
});

export const UpdateShare = defineCall({
  path: '/api/DeviceShare/Update',
  auth: 'session',
  access: 'session',
  body: z.object({ shareId, ...terms }).superRefine(dataFromRequired),
  data: ShareRecordSchema,
  summary: "Changes the window, rights and data period (omitted: unchanged) of a share the caller gave (the primary user: any of the organisation's).",
});

export const RevokeShare = defineCall({
  path: '/api/DeviceShare/Revoke',
  auth: 'session',
  access: 'session',
  body: z.object({ shareIds: z.array(shareId).min(1, { error: 'validation.required' }).max(SHARE_MAX_DEVICES) }),
  data: z.object({ Count: z.number().int() }),
  summary: "Ends shares the caller gave (the primary user: any of the organisation's), all or none: the devices leave the recipient's tree at once, and the recipient's fence rules on them are withdrawn.",
});
