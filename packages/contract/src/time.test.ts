import { describe, expect, it } from 'vitest';
import { formatTime, parseTime } from './time.js';
import { TIME_ZONES } from './timezone.js';

/** What formatTime answered before it kept the day's text: a Date read field by field. */
function byDate(ms: number, offsetMinutes: number): string {
  const d = new Date(ms + offsetMinutes * 60_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
}

describe('formatTime', () => {
  it('writes every time as a Date reads it, in every offered zone, whatever the order of the days', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const times = [0, -1, 1, 86_399_999, 86_400_000, -86_400_000, Date.UTC(2024, 1, 29, 23, 59, 59, 999), Date.UTC(2100, 1, 28, 16, 0, 0), Date.UTC(1000, 0, 1), Date.UTC(9999, 11, 31, 23, 59, 59)];
    for (let i = 0; i < 300; i++) times.push(Math.floor((rnd() - 0.3) * 4e12), Date.UTC(2026, 0, 1) + Math.floor(rnd() * 90 * 86_400_000));
    for (const zone of TIME_ZONES) {
      const minutes = (zone.startsWith('-') ? -1 : 1) * Number(zone.slice(1, 3)) * 60;
      expect(times.map((t) => formatTime(t, zone)), zone).toEqual(times.map((t) => byDate(t, minutes)));
    }
  });

  it('keeps years outside 1000-9999, fractions of a millisecond and a zone it does not know as before', () => {
    for (const t of [Date.UTC(999, 11, 31, 23, 59, 59), Date.UTC(10_000, 0, 1), -62_198_755_200_000, 1.5, -0.5, -1.5, 1_700_000_000_000.9]) {
      expect(formatTime(t, '+08:00'), String(t)).toBe(byDate(t, 480));
      expect(formatTime(t, '+00:00'), String(t)).toBe(byDate(t, 0));
    }
    expect(formatTime(Date.UTC(2026, 10, 25, 9, 30, 5), 'Mars/Olympus')).toBe('2026-11-25 09:30:05');
    expect(formatTime(Date.UTC(2026, 10, 25, 9, 30, 5), 'UTC-03:00')).toBe('2026-11-25 06:30:05');
    for (const empty of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY]) expect(formatTime(empty, '+08:00')).toBe('');
  });

  it('reads back what it writes', () => {
    const t = Date.UTC(2026, 10, 25, 1, 2, 3);
    for (const zone of TIME_ZONES) expect(parseTime(formatTime(t, zone), zone)).toBe(t);
  });
});
