import type { InstructionFailureReason } from '@wildtrack/contract';
import { HOUR, MINUTE } from './geo.js';

/**
 * Fix and upload schedules. What sets them is work.ts: the contract's InstructionParams, or the older flat
 * keys (ACQUISITION_FREQUENCY intervalMinutes | hours + timeZone, accEnabled, accHz, accIntervalMinutes;
 * POSTBACK_FREQUENCY hours + timeZone | count | realtime) that hoursParam and intParam check.
 */

export type FixSchedule = { mode: 'interval'; minutes: number } | { mode: 'hours'; hours: number[]; timeZone: number };
export type PostbackSchedule =
  | { mode: 'realtime' }
  | { mode: 'interval'; minutes: number }
  | { mode: 'hours'; hours: number[]; timeZone: number }
  | { mode: 'count'; count: number };

/** The first scheduled time strictly after `after`. */
export function nextTime(s: FixSchedule | Exclude<PostbackSchedule, { mode: 'realtime' | 'count' }>, after: number): number {
  if (s.mode === 'interval') {
    const p = s.minutes * MINUTE;
    return (Math.floor(after / p) + 1) * p;
  }
  const shift = s.timeZone * HOUR;
  let h = Math.floor((after + shift) / HOUR) + 1;
  for (let i = 0; i < 48; i++, h++) {
    const hourOfDay = ((h % 24) + 24) % 24;
    if (s.hours.includes(hourOfDay)) return h * HOUR - shift;
  }
  throw new Error('empty hour schedule');
}

/** Why the device refuses an instruction: its text, and the reason it acknowledges (the contract's list). */
export class ParamError extends Error {
  constructor(
    message: string,
    readonly reason: InstructionFailureReason = 'badParams',
  ) {
    super(message);
  }
}

export function intParam(v: unknown, name: string, lo: number, hi: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < lo || v > hi) throw new ParamError(`${name} must be an integer ${lo}..${hi}`);
  return v;
}

export function hoursParam(v: unknown, tz: unknown): { hours: number[]; timeZone: number } {
  if (!Array.isArray(v) || v.length < 1 || v.length > 12) throw new ParamError('hours must list 1..12 hours');
  const hours = v.map((h, i) => intParam(h, `hours[${i}]`, 0, 23));
  if (new Set(hours).size !== hours.length) throw new ParamError('hours must not repeat');
  const timeZone = tz === undefined ? 0 : intParam(tz, 'timeZone', -12, 12);
  return { hours: [...hours].sort((a, b) => a - b), timeZone };
}

export function describeFix(s: FixSchedule): string {
  return s.mode === 'interval' ? `every ${s.minutes} min` : `at ${s.hours.map((h) => `${String(h).padStart(2, '0')}:00`).join(', ')} (UTC${s.timeZone >= 0 ? '+' : ''}${s.timeZone})`;
}

export function describePostback(s: PostbackSchedule): string {
  switch (s.mode) {
    case 'realtime':
      return 'real time';
    case 'count':
      return `every ${s.count} records`;
    default:
      return describeFix(s);
  }
}
