import { describe, expect, it } from 'vitest';
import { burstInterval, burstNear, LONE_BURST_WINDOW_MS } from './moment';

/** Bursts of 2 s at 10 Hz every minute from t = 0, a gap of an hour, then one more. */
const starts = [0, 60_000, 120_000, 180_000, 3_780_000];
const series = {
  burstCount: starts.length,
  start: Float64Array.from(starts),
  hz: Float32Array.from(starts, () => 10),
  count: Uint32Array.from(starts, () => 20),
  meanOdba: Float32Array.from([0.1, 0.2, 0.3, 0.4, 0.5]),
};

describe('the ODBA of a moment', () => {
  it('measures the burst interval as the median gap', () => {
    expect(burstInterval(series)).toBe(60_000);
    expect(burstInterval({ ...series, burstCount: 1 })).toBe(LONE_BURST_WINDOW_MS);
  });

  it('finds the nearest burst within the interval, inside or around it', () => {
    expect(burstNear(series, 1_000, 60_000)?.odba).toBeCloseTo(0.1); // inside the first
    expect(burstNear(series, 25_000, 60_000)?.index).toBe(0); // 23 s after its end, 35 s before the next
    expect(burstNear(series, 50_000, 60_000)?.index).toBe(1); // 10 s before the second
    expect(burstNear(series, -30_000, 60_000)?.index).toBe(0); // before the first
    expect(burstNear(series, 200_000, 60_000)?.odba).toBeCloseTo(0.4);
    // In the hour without bursts: none near.
    expect(burstNear(series, 1_800_000, 60_000)).toBeNull();
    expect(burstNear(series, 3_790_000, 60_000)?.odba).toBeCloseTo(0.5);
    expect(burstNear({ ...series, burstCount: 0 }, 0, 60_000)).toBeNull();
  });
});
