import { describe, expect, it } from 'vitest';
import { averageRun, averageTrack, groupsOf, mean, runs } from './averaging.js';
import type { FixKey, FixRow, TrackRow } from './repository.js';

const T = Date.UTC(2025, 0, 1);
const fix = (t: number, lon: number, valid: number, grade: number | null = null): FixRow => ({
  pick_time: t, lon, lat: 10, alt: null, speed: null, course: null, temperature: null, activity: null, voltage: null, channel: null,
  satellites: null, hdop: null, vdop: null, grade, valid, tx_time: null, invalid_by: null, invalid_at: null,
});

describe('second-level averaging', () => {
  it('splits runs where fixes are more than 1.5 s apart', () => {
    expect(runs([0, 1000, 2000, 3600, 4600, 10_000], (t) => t)).toEqual([[0, 1000, 2000], [3600, 4600], [10_000]]);
    expect(runs([], (t: number) => t)).toEqual([]);
  });

  it('takes the mean of the numbers only', () => {
    expect(mean([1, null, 3, Number.NaN])).toBe(2);
    expect(mean([null])).toBeNull();
  });

  it('shows a run as the mean of its valid members, whole columns rounded, its fixes listed', () => {
    const row = averageRun([fix(T, 1, 1, 1), fix(T + 1000, 2, 1, 2), fix(T + 2000, 90, 0, 5)]);
    expect(row).toMatchObject({ pick_time: T, lon: 1.5, valid: 1, grade: 2, groupIds: [T, T + 1000, T + 2000] });
    // no valid member: the run stands for all of them and is invalid
    expect(averageRun([fix(T, 1, 0), fix(T + 1000, 3, 0)])).toMatchObject({ lon: 2, valid: 0 });
    const single = fix(T, 1, 1);
    expect(averageRun([single])).toBe(single);
  });

  it('forms the averaged table rows from keys: fixes without a position stay rows of their own', () => {
    const keys: FixKey[] = [[T, 1, 1, 4], [T + 1000, 1, 1, 6], [T + 1500, 0, 1, 100], [T + 2000, 1, 0, 50], [T + 9000, 1, 1, 7]];
    expect(groupsOf(keys, 'speed')).toEqual([
      { time: T + 1500, times: [T + 1500], value: 100 },
      { time: T, times: [T, T + 1000, T + 2000], value: 5 },
      { time: T + 9000, times: [T + 9000], value: 7 },
    ]);
    expect(groupsOf(keys, 'grade')[1]!.value).toBe(5);
  });

  it('averages a track point per run and flags it', () => {
    const rows: TrackRow[] = [[T, 1, 10, 100, 1, 1], [T + 1000, 3, 12, null, 2, 1], [T + 2000, 50, 50, 0, 6, 0], [T + 9000, 5, 5, 5, 3, 1]];
    const { rows: out, averaged } = averageTrack(rows);
    expect(out).toEqual([[T, 2, 11, 100, 2, 1], [T + 9000, 5, 5, 5, 3, 1]]);
    expect([...averaged]).toEqual([1, 0]);
  });
});
