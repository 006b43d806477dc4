import { describe, expect, it } from 'vitest';
import { formatTime } from '@wildtrack/contract';
import { timeFormatter } from './tables.js';

describe('timeFormatter', () => {
  it('writes what formatTime writes, across days, zones, back and forth over midnight', () => {
    for (const zone of ['+08:00', '-12:00', '+00:00', '+12:00', '-03:00']) {
      const f = timeFormatter(zone);
      const start = Date.UTC(2024, 1, 28, 10, 0, 0);
      const times = [...Array.from({ length: 500 }, (_, i) => start + i * 1_234_567), start + 5 * 86_400_000, start, 0, -86_400_001];
      for (const t of times) expect(f(t)).toBe(formatTime(t, zone));
      expect(f(null)).toBeNull();
    }
  });
});
