import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, PAGE_SIZE_OPTIONS } from './constants.js';

/** The paging fields of every server-paged list call: the page (from 1) and one of the offered sizes. */
export const PageSchema = {
  currentPage: z.number().int().min(1).default(1),
  pageSize: z.union(PAGE_SIZE_OPTIONS.map((n) => z.literal(n)) as [z.ZodLiteral<number>, ...z.ZodLiteral<number>[]]).default(DEFAULT_PAGE_SIZE),
};

/** Sort direction of a paged list, in antd's words (a table's sorter hands these over unchanged). */
export const SortOrderSchema = z.enum(['ascend', 'descend']);
export type SortOrder = z.infer<typeof SortOrderSchema>;

/** The time zone a call's times are written in ('+08:00'); absent means the caller's own setting. */
export const TimeZoneField = z.string().optional();
