import { MAX_QUERY_SPAN_DAYS, parseTime } from '@wildtrack/contract';
import { DAY_MS } from '../domain/track-days.js';
import type { Caller } from './caller.js';
import { FieldRefusal } from './errors.js';

/** The last millisecond of the second `end` (epoch ms) falls in: a range's end second is included whole. */
const endOfSecond = (end: number) => end - (((end % 1000) + 1000) % 1000) + 999;

/**
 * The one reading of a call's range (docs/api.md: the end second is included whole, so a fix at T + 500 ms
 * is within an end of T's second, as Movebank's millisecond times need). A list call's range as epoch ms: both texts real times in the caller's zone, the end not before the
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
  return { from, to: endOfSecond(end) };
}

/**
 * A range whose ends may each be left out (a filter): the same reading, an absent end is no bound. Refusals
 * name startTime or endTime (601).
 */
export function optionalRange(caller: Caller, body: { startTime?: string | undefined; endTime?: string | undefined }): { from: number | undefined; to: number | undefined } {
  let from: number | undefined;
  let to: number | undefined;
  if (body.startTime !== undefined && body.startTime !== '') {
    const t = parseTime(body.startTime, caller.zone);
    if (t === null) throw new FieldRefusal(['startTime'], 'validation.time');
    from = t;
  }
  if (body.endTime !== undefined && body.endTime !== '') {
    const t = parseTime(body.endTime, caller.zone);
    if (t === null) throw new FieldRefusal(['endTime'], 'validation.time');
    to = endOfSecond(t);
  }
  return { from, to };
}
