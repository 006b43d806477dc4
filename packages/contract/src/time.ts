import { formatOffset, parseOffset } from './timezone.js';

/**
 * Times cross the console API as text in the caller's time zone, "YYYY-MM-DD HH:mm:ss" (§7: every
 * time in and out in the user's zone). These two functions are the only conversion, used by the
 * server to answer and to read bodies, and by the web client where it builds a range.
 */
export const TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

export function formatTime(ms: number | null | undefined, zone: string): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const offset = parseOffset(zone) ?? 0;
  const d = new Date(ms + offset * 60_000);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
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
