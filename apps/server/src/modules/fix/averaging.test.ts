import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  averageRun, averageTrack, type Group, groupSet, groupsFromSummaries, groupsOf, mean, pageOf, runs, type SpanGroup, SUMMARY_COLUMNS, type SummaryKey, summarise,
} from './averaging.js';
import type { FixKey, FixRow, SortColumn, TrackRow } from './rows.js';

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

  it('answers a range from day summaries as groupsOf does from the range\'s keys', () => {
    // Short "days" so that runs cross midnights and range ends often; times 0.5 s apart at the finest.
    const dayMs = 8000;
    const value = fc.option(fc.integer({ min: -3, max: 9 }), { nil: null });
    const key = fc.tuple(fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.boolean(), fc.array(value, { minLength: SUMMARY_COLUMNS.length, maxLength: SUMMARY_COLUMNS.length }));
    const columns: SortColumn[] = ['pick_time', ...SUMMARY_COLUMNS];
    fc.assert(
      fc.property(fc.array(key, { maxLength: 120 }), fc.nat(60_000), fc.nat(60_000), fc.constantFrom(...columns), (steps, a, b, column) => {
        let t = 0;
        const keys: SummaryKey[] = steps.map(([step, positioned, valid, values]) => [(t += step * 500), positioned ? 1 : 0, valid ? 1 : 0, ...values]);
        const from = Math.min(a, b);
        const to = Math.max(a, b);
        const asKeys = (ks: readonly SummaryKey[]): FixKey[] =>
          ks.map((k) => [k[0], k[1], k[2], column === 'pick_time' ? k[0] : (k[3 + (SUMMARY_COLUMNS as readonly string[]).indexOf(column)] ?? null)]);
        const inRange = (x: number, y: number) => keys.filter((k) => k[0] >= x && k[0] <= y);
        const byDay = new Map<number, SummaryKey[]>();
        for (const k of keys) byDay.set(Math.floor(k[0] / dayMs), [...(byDay.get(Math.floor(k[0] / dayMs)) ?? []), k]);
        const days = new Map([...byDay].map(([day, ks]) => [day, summarise(ks)]));
        const { kept, regions } = groupsFromSummaries(days, from, to, column);
        // a kept row's fixes are those of its span: with a position for a run, the one fix otherwise
        const got: Group[] = Array.from({ length: kept.count }, (_, i) => {
          const g = kept.at(i) as SpanGroup;
          return { time: g.time, value: g.value, times: g.span.positioned ? inRange(g.span.start, g.span.end).filter((k) => k[1] === 1).map((k) => k[0]) : [g.span.start] };
        });
        for (const [x, y] of regions) got.push(...groupsOf(asKeys(inRange(x, y)), column));
        const order = (gs: Group[]) => [...gs].sort((p, q) => p.times[0]! - q.times[0]!);
        expect(order(got)).toEqual(order(groupsOf(asKeys(inRange(from, to)), column)));
      }),
      { numRuns: 400 },
    );
  });

  it('picks a page as sorting the whole set would, nulls last, ties by time', () => {
    const value = fc.option(fc.integer({ min: 0, max: 5 }), { nil: null });
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { maxLength: 300 }), fc.array(value, { minLength: 300, maxLength: 300 }), fc.boolean(), fc.nat(40), fc.integer({ min: 1, max: 20 }), (times, values, descending, offset, size) => {
        const groups: Group[] = times.map((time, i) => ({ time, times: [time], value: values[i]! }));
        const sorted = [...groups].sort((a, b) => {
          const x = a.value;
          const y = b.value;
          if (x === y) return descending ? b.time - a.time : a.time - b.time;
          if (x === null) return 1;
          if (y === null) return -1;
          return descending ? y - x : x - y;
        });
        const set = groupSet(groups);
        expect(pageOf(set, descending, offset, size).map((i) => set.at(i))).toEqual(sorted.slice(offset, offset + size));
      }),
      { numRuns: 300 },
    );
  });
});
