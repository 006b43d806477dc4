import { z } from 'zod';
import { defineCall } from '../call.js';
import { TimeZoneField } from '../paging.js';
import { required } from '../validation.js';

/**
 * Notices (§2.3 unread dot, §2.4 Notice list, §3 Notice, §4 Notice, §7.2 Notice/*): messages to users from the
 * operators (the CLI's send-notice, to every organisation or one) and from the system. A notice is read by the
 * users of its organisation (or of every organisation); each user has their own read state and may delete it
 * for themselves (the others keep it). Body and Title are plain text: clients render them as text, never HTML.
 */

/** Longest title and body the server stores (the CLI refuses longer ones). */
export const NOTICE_TITLE_MAX = 200;
export const NOTICE_BODY_MAX = 20_000;
export const NOTICE_WEBSITE_MAX = 2000;

/** A notice of the list (§3 Notice); SendTime in the caller's zone. Id and NoticeId are the notice's own id (one row per notice). */
export const NoticeSchema = z.object({
  Id: z.number().int(),
  NoticeId: z.number().int(),
  IdStr: z.string(),
  NoticeIdStr: z.string(),
  Title: z.string(),
  Body: z.string(),
  SendTime: z.string(),
  /** 0 unread, 1 read (by the caller). */
  Viewed: z.union([z.literal(0), z.literal(1)]),
  /** A link the notice points to ('' when none); clients offer it only when it is an http(s) URL (isWebLink). */
  Website: z.string(),
});
export type Notice = z.infer<typeof NoticeSchema>;

/** Whether a notice's Website may be offered as a link: an absolute http or https URL, nothing else (no javascript:, data:, relative). */
export function isWebLink(website: string): boolean {
  // A host of letters, digits, dots, hyphens (optionally [IPv6]) and a port, then a path without spaces.
  return /^https?:\/\/(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:[/?#][^\s]*)?$/i.test(website.trim());
}

/** A notice named by its IdStr. */
const noticeId = z.string(required).regex(/^\d{1,18}$/, { error: 'validation.format' });

export const GetNoticeUnReadCount = defineCall({
  path: '/api/Notice/GetUnReadCount',
  auth: 'session',
  access: 'session',
  body: z.object({}).nullish(),
  data: z.object({ count: z.number().int() }),
  summary: 'How many notices the caller has not read (the avatar\'s unread dot).',
});

export const GetNoticeList = defineCall({
  path: '/api/Notice/GetList',
  auth: 'session',
  access: 'session',
  body: z.object({ timeZone: TimeZoneField }),
  data: z.object({ list: z.array(NoticeSchema) }),
  summary: 'The caller\'s notices (their organisation\'s and those to all), newest first, without the ones they deleted.',
});

export const GetNotice = defineCall({
  path: '/api/Notice/get',
  auth: 'session',
  access: 'session',
  body: z.object({ Id: noticeId, timeZone: TimeZoneField }),
  data: NoticeSchema,
  summary: 'One notice with its Body and Website; does not mark it read (Notice/Viewed does).',
});

export const NoticeViewed = defineCall({
  path: '/api/Notice/Viewed',
  auth: 'session',
  access: 'session',
  body: z.object({ Id: noticeId }),
  data: z.null(),
  summary: 'Marks one of the caller\'s notices read (for the caller only).',
});

export const DeleteNotice = defineCall({
  path: '/api/Notice/Delete',
  auth: 'session',
  access: 'session',
  body: z.object({ Id: noticeId }),
  data: z.null(),
  summary: 'Deletes one notice for the caller (the other users keep it).',
});
