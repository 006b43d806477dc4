import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './constants.js';
import { TimeZoneSchema } from './timezone.js';
import { required } from './validation.js';

/** The paging fields of every server-paged list call: the page (from 1) and one of the offered sizes. */
export const PageSchema = {
  currentPage: z.number().int().min(1).default(1),
  pageSize: z.union(PAGE_SIZE_OPTIONS.map((n) => z.literal(n)) as [z.ZodLiteral<number>, ...z.ZodLiteral<number>[]]).default(DEFAULT_PAGE_SIZE),
};

/** Sort direction of a paged list, in antd's words (a table's sorter hands these over unchanged). */
export const SortOrderSchema = z.enum(['ascend', 'descend']);
export type SortOrder = z.infer<typeof SortOrderSchema>;

/**
 * The time zone a call's times are written in ('+08:00'); absent means the caller's own setting. A zone that
 * is given must be one of the offered ones (601 naming timeZone), never silently replaced by the setting.
 */
export const TimeZoneField = TimeZoneSchema.optional();

const TIME_TEXT = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2})?$/;
/**
 * A time as the caller's zone writes it: 'YYYY-MM-DD HH:mm:ss' (the server checks it is a real date). Here
 * with the other range fields, not in calls/fix.ts: a call module that needs only this (the user log, which
 * /login's first load carries) would otherwise bring every fix call's schema with it.
 */
export const TimeTextSchema = z.string(required).trim().regex(TIME_TEXT, { error: 'validation.time' });

/** A time text ('YYYY-MM-DD HH:mm[:ss]', 'T' or space) as a key that sorts like the time it writes. */
export function timeKey(text: string): string {
  const t = text.trim().replace('T', ' ');
  return t.length === 16 ? `${t}:00` : t;
}

/**
 * The one rule of a range given as two time texts in the same zone: the end is not before the start
 * (601 naming endTime). Add it with .superRefine(orderedRange) after the body's last .extend().
 */
export function orderedRange(body: { startTime?: string | undefined; endTime?: string | undefined }, ctx: z.RefinementCtx): void {
  if (body.startTime && body.endTime && timeKey(body.endTime) < timeKey(body.startTime)) {
    ctx.addIssue({ code: 'custom', message: 'validation.timeRange', path: ['endTime'], input: body.endTime });
  }
}
