import { formatOffset, parseOffset } from './timezone.js';

/**
 * Times cross the console API as text in the caller's time zone, "YYYY-MM-DD HH:mm:ss" (§7: every
 * time in and out in the user's zone). These two functions are the only conversion, used by the
 * server to answer and to read bodies, and by the web client where it builds a range.
 */
export const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** The offered zones' offsets by their text (a zone is parsed once, not for every time an answer holds). */
const offsets = new Map<string, number>();
const offsetOf = (zone: string): number => {
  let minutes = offsets.get(zone);
  if (minutes === undefined) {
    minutes = parseOffset(zone) ?? 0;
    // Only the texts of valid zones are kept (anyone can send any text): 25 zones, a few spellings each.
    if (parseOffset(zone) !== null && offsets.size < 200) offsets.set(zone, minutes);
  }
  return minutes;
};

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => pad(i));
const DAY_MS = 86_400_000;
/** Days formatted ("YYYY-MM-DD "), by day number: the times of one answer mostly fall on a few days. */
const dayTexts = new Map<number, string>();

function formatSlow(local: number): string {
  const d = new Date(local);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

export function formatTime(ms: number | null | undefined, zone: string): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  // truncated as a Date truncates its time value
  const local = Math.trunc(ms + offsetOf(zone) * 60_000);
  // Years 1000-9999 by the day's text and a table of two digits (a Date and six pads a time cost most of
  // formatting a page of fixes); anything else as before.
  if (!(local >= -30_610_224_000_000 && local < 253_402_300_800_000)) return formatSlow(local);
  const day = Math.floor(local / DAY_MS);
  let dayText = dayTexts.get(day);
  if (dayText === undefined) {
    if (dayTexts.size >= 1024) dayTexts.clear();
    dayText = formatSlow(day * DAY_MS).slice(0, 11);
    dayTexts.set(day, dayText);
  }
  const seconds = Math.floor((local - day * DAY_MS) / 1000);
  return dayText + TWO_DIGITS[Math.floor(seconds / 3600)]! + ':' + TWO_DIGITS[Math.floor(seconds / 60) % 60]! + ':' + TWO_DIGITS[seconds % 60]!;
}

const TIME_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** Epoch ms of a local time text in the zone; null when the text is not a valid date and time. */
export function parseTime(text: string, zone: string): number | null {
  const m = TIME_RE.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1);
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(utc);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return utc - (parseOffset(zone) ?? 0) * 60_000;
}

export { formatOffset };

/**
 * The date presets of §9 for a query span of `days`, in the caller's zone: up to 15 days back the span
 * counts the current day (7 = today and the 6 days before); 30, 90 and 182 mean 1, 3 and 6 calendar
 * months back; 365 and more mean whole years back. The range runs from the first day's 00:00:00 to the
 * end of today.
 */
export function spanRange(days: number, zone: string, now = Date.now()): { startTime: string; endTime: string } {
  const today = formatTime(now, zone).slice(0, 10);
  const [y, m, d] = today.split('-').map(Number) as [number, number, number];
  let start: Date;
  if (days <= 15) start = new Date(Date.UTC(y, m - 1, d - (days - 1)));
  else if (days < 365) {
    const months = days === 30 ? 1 : days === 90 ? 3 : days === 182 ? 6 : Math.round(days / 30);
    // The same day of the month, or its last day when the month is shorter (31 March - 1 month = 28/29 Feb).
    const target = new Date(Date.UTC(y, m - 1 - months, 1));
    const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
    start = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(d, lastDay)));
  } else {
    const years = Math.round(days / 365);
    const lastDay = new Date(Date.UTC(y - years, m, 0)).getUTCDate();
    start = new Date(Date.UTC(y - years, m - 1, Math.min(d, lastDay)));
  }
  const startText = `${start.getUTCFullYear()}-${pad(start.getUTCMonth() + 1)}-${pad(start.getUTCDate())} 00:00:00`;
  return { startTime: startText, endTime: `${today} 23:59:59` };
}
