import { z } from 'zod';

/** §9: UTC-12:00 to UTC+12:00, hourly, displayed like +08:00. */
export const TIME_ZONES: readonly string[] = Array.from({ length: 25 }, (_, i) => formatOffset((i - 12) * 60));

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Parses "+08:00" (or "UTC+08:00") into minutes east of UTC; null when it is not one of the offered zones. */
export function parseOffset(text: string): number | null {
  const m = /^(?:UTC)?([+-])(\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const minutes = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
  return Math.abs(minutes) <= 12 * 60 && Number(m[3]) === 0 ? minutes : null;
}

/** The browser's current offset rounded to the hour and clamped to the offered range. */
export function offsetOfDate(date: Date): string {
  const east = -date.getTimezoneOffset();
  const hours = Math.max(-12, Math.min(12, Math.round(east / 60)));
  return formatOffset(hours * 60);
}

export const TimeZoneSchema = z
  .string()
  .refine((v) => parseOffset(v) !== null, { error: 'validation.timeZone' })
  .transform((v) => formatOffset(parseOffset(v) as number));
