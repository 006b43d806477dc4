import { HOUR, MINUTE } from './geo.js';

/**
 * Fix and upload schedules, and the instruction parameters that change them.
 *
 * ACQUISITION_FREQUENCY params (any of these keys; at least one):
 *   intervalMinutes: integer 1..1440 - a fix every N minutes, aligned to UTC midnight. Values below the
 *                    profile's shortest interval are raised to it (the ack's message says so).
 *   hours: integer[] of 0..23, 1..12 distinct - fixes at those whole hours (§9: at most 12 time points),
 *   timeZone: hours east of UTC, -12..12 (default 0) - the zone `hours` are given in.
 *   accEnabled: boolean - acceleration bursts on or off (needs AccCollectionSwitch).
 *   accHz: number 1..100 - sampling frequency per axis (needs AccCollectionFrequency; clamped to 5..50).
 *   accIntervalMinutes: integer 1..1440 - minutes between bursts (needs AccCollectionFrequency).
 * POSTBACK_FREQUENCY params (one of; needs DataPostbackHours for hours):
 *   hours: integer[] of 0..23, 1..12 distinct, with optional timeZone - upload at those hours (HOUR mode).
 *   intervalMinutes: integer 1..1440 - upload every N minutes.
 *   count: integer 1..10000 - upload once that many records wait (DATA_CNT mode).
 *   realtime: true - upload each record as soon as it is taken (the default).
 * Other keys are ignored. An instruction that names none of its keys, or gives a bad value, fails.
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

export class ParamError extends Error {}

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
