import { describe, expect, it } from 'vitest';
import { actogramOf, cellRange, odbaEnvelope, positionAt } from './model';

const H = 3_600_000;

describe('acceleration model', () => {
  it('puts bursts in day × hour cells of the user zone, each the mean of its bursts', () => {
    // 2026-11-01 00:00 UTC is 08:00 in +08:00.
    const base = Date.UTC(2026, 10, 1);
    const starts = [base, base + 10 * 60_000, base + 17 * H, base + 25 * H];
    const odba = [0.1, 0.3, 0.5, 0.05];
    const a = actogramOf(starts, odba, 4, '2026-11-01 00:00:00', '2026-11-02 23:59:59', '+08:00');
    expect(a.days).toEqual(['2026-11-01', '2026-11-02']);
    expect(a.cells).toHaveLength(48);
    expect(a.cells[8]).toMatchObject({ day: '2026-11-01', hour: 8, bursts: 2 });
    expect(a.cells[8]!.odba).toBeCloseTo(0.2, 9);
    // 17 h after 08:00 is 01:00 the next day; 25 h after is 09:00 the next day.
    expect(a.cells[24 + 1]).toMatchObject({ day: '2026-11-02', hour: 1, odba: 0.5, bursts: 1 });
    expect(a.cells[24 + 9]).toMatchObject({ hour: 9, bursts: 1 });
    expect(Number.isNaN(a.cells[0]!.odba)).toBe(true);
    expect(a.max).toBe(0.5);
    expect(cellRange(a.cells[8]!)).toEqual({ start: '2026-11-01 08:00:00', end: '2026-11-01 08:59:59' });
  });

  it('finds where the animal was between two fixes, linearly by time, and holds the ends', () => {
    const track = { count: 3, times: [0, 1000, 3000], lonLat: [10, 50, 11, 51, 13, 50] };
    expect(positionAt(track, 500)).toEqual({ lon: 10.5, lat: 50.5 });
    expect(positionAt(track, 2000)).toEqual({ lon: 12, lat: 50.5 });
    expect(positionAt(track, -5)).toEqual({ lon: 10, lat: 50 });
    expect(positionAt(track, 9999)).toEqual({ lon: 13, lat: 50 });
    expect(positionAt({ count: 0, times: [], lonLat: [] }, 1)).toBeNull();
  });

  it('summarises samples into at most the asked buckets: mean and peak ODBA, empty buckets left out', () => {
    const time = [0, 100, 200, 900, 950];
    const odba = [0.1, 0.3, 0.2, 1, 0.5];
    const e = odbaEnvelope(time, odba, 5, 0, 1000, 4);
    expect(Array.from(e.x)).toEqual([0.125, 0.875]);
    expect(e.mean[0]).toBeCloseTo(0.2, 6);
    expect(e.max[0]).toBeCloseTo(0.3, 6);
    expect(e.mean[1]).toBeCloseTo(0.75, 6);
    expect(e.max[1]).toBe(1);
  });
});
