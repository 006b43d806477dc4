import { MAX_QUERY_SPAN_DAYS, parseTime } from '@wildtrack/contract';
import { DAY_MS } from '../db/shared-writes.js';
import type { Caller } from './caller.js';
import { FieldRefusal } from './errors.js';

/**
 * A list call's range as epoch ms: both texts real times in the caller's zone, the end not before the
 * start, at most MAX_QUERY_SPAN_DAYS apart (a day's slack for the end day), the end second included
 * whole. Refusals name startTime or endTime (601).
 */
export function checkedRange(caller: Caller, body: { startTime: string; endTime: string }): { from: number; to: number } {
  const from = parseTime(body.startTime, caller.zone);
  if (from === null) throw new FieldRefusal(['startTime'], 'validation.time');
  const end = parseTime(body.endTime, caller.zone);
  if (end === null) throw new FieldRefusal(['endTime'], 'validation.time');
  if (end < from) throw new FieldRefusal(['endTime'], 'validation.timeRange');
  if (end - from > MAX_QUERY_SPAN_DAYS * DAY_MS + DAY_MS) throw new FieldRefusal(['endTime'], 'validation.timeSpan', { days: MAX_QUERY_SPAN_DAYS });
  return { from, to: end + 999 };
}
