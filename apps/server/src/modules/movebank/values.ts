import { createHash } from 'node:crypto';
import { IMEI_MAX, IMEI_OTHER_CHARS } from '@wildtrack/contract';

/** Movebank writes nothing for a missing value; R's exporters (move2) write NA. */
export function isEmpty(v: string | undefined): v is undefined | '' | 'NA' {
  return v === undefined || v === '' || v === 'NA';
}

/** A finite number, or undefined when the text is not one. */
export function toNumber(v: string): number | undefined {
  const n = Number(v.trim());
  return v.trim() !== '' && Number.isFinite(n) ? n : undefined;
}

export function toBoolean(v: string): boolean | undefined {
  const s = v.trim().toLowerCase();
  if (s === 'true' || s === 't' || s === '1') return true;
  if (s === 'false' || s === 'f' || s === '0') return false;
  return undefined;
}

/** The format parseTimestamp reads, named in the report when a row's time isn't in it (a spreadsheet rewrote it). */
export const TIMESTAMP_FORMAT = 'yyyy-MM-dd HH:mm:ss.SSS (UTC), e.g. 2008-05-31 13:29:31.000';

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|[+-]00:?00| UTC)?$/;

/** Movebank timestamps are UTC, "YYYY-MM-DD HH:MM:SS.sss"; epoch milliseconds, or undefined if not one. */
export function parseTimestamp(v: string): number | undefined {
  const m = TIMESTAMP.exec(v.trim());
  if (!m) return undefined;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return undefined;
  const base = Date.UTC(y, mo - 1, d, h, mi, s);
  // Date.UTC rolls 31 February over into March: refuse what doesn't round-trip.
  if (new Date(base).getUTCDate() !== d) return undefined;
  const frac = m[7] ? Math.round(Number(`0.${m[7]}`) * 1000) : 0;
  return base + frac;
}

/**
 * The device id for one tag on one individual: MB-<tag>-<individual> when that is already a valid id;
 * otherwise its sanitised, shortened form with a hash of the original pair, so that two pairs that
 * sanitise alike still get different devices. IMEIs are unique across organisations (every call names
 * a device by it): with `orgId`, the hash covers the organisation too, the id a second organisation's
 * import of the same tag takes.
 */
export function movebankImei(tag: string, individual: string, hashed = false, orgId?: number): string {
  const plain = `MB-${tag}-${individual}`;
  const clean = plain.replace(IMEI_OTHER_CHARS, '_');
  if (!hashed && orgId === undefined && clean === plain && plain.length <= IMEI_MAX) return plain;
  const key = orgId === undefined ? `${tag}\u0000${individual}` : `${tag}\u0000${individual}\u0000${orgId}`;
  const hash = createHash('sha256').update(key).digest('hex').slice(0, 8);
  return `${clean.slice(0, IMEI_MAX - 9)}.${hash}`;
}
