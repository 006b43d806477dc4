import { describe, expect, it } from 'vitest';
import { indexAtTime, type DecodedTrack } from '../../lib/tracks/types';
import { binaryPath, deviceColor, drawable, GRADE_COLORS, headsAt, pointColors, relativeSeconds, timeExtent, tracksBounds } from './trackData';

/** A synthetic track: `count` points `stepMs` apart from `start`, walking north-east. */
function track(imei: string, start: number, count: number, stepMs: number, from: [number, number] = [100, 30], degStep = 0.01): DecodedTrack {
  const times = new Float64Array(count);
  const lonLat = new Float64Array(count * 2);
  const grade = new Uint8Array(count);
  const valid = new Uint8Array(count).fill(1);
  for (let i = 0; i < count; i++) {
    times[i] = start + i * stepMs;
    lonLat[i * 2] = from[0] + i * degStep;
    lonLat[i * 2 + 1] = from[1] + (i * degStep) / 2;
    grade[i] = (i % 7) + 1;
  }
  return { imei, count, times, lonLat, alt: new Float32Array(count).fill(NaN), grade, valid, averaged: new Uint8Array(count) };
}

const T0 = Date.UTC(2026, 0, 1);

describe('track layer data', () => {
  it('hands the track positions to deck.gl as they are (no copy) with float seconds for the clock', () => {
    const a = track('A', T0 + 60_000, 5, 60_000);
    const path = binaryPath(a, T0);
    expect(path.length).toBe(1);
    expect(Array.from(path.startIndices)).toEqual([0, 5]);
    expect(path.attributes.getPath.value.buffer).toBe(a.lonLat.buffer);
    expect(path.attributes.getPath.size).toBe(2);
    expect(Array.from(path.attributes.getTimestamps.value)).toEqual([60, 120, 180, 240, 300]);
    // Cached per track and base; another base is another column.
    expect(binaryPath(a, T0)).toBe(path);
    expect(binaryPath(a, T0 + 60_000).attributes.getTimestamps.value[0]).toBe(0);
  });

  it('keeps the clock within half a minute over ten years in float32', () => {
    const times = new Float64Array([T0, T0 + 3650 * 86_400_000 + 17_000]);
    const s = relativeSeconds(times, 2, T0);
    expect(Math.abs(s[1]! - (3650 * 86_400 + 17))).toBeLessThan(32);
  });

  it('draws only points on earth, and invalid ones only when asked; indices map back to the track', () => {
    const whole = track('W', T0, 5, 1000);
    expect(drawable(whole).source).toBeNull();
    expect(drawable(whole).lonLat).toBe(whole.lonLat);
    const a = track('A', T0, 5, 1000);
    a.valid[1] = 0; // marked invalid, on earth
    a.valid[3] = 0;
    a.lonLat[3 * 2 + 1] = 91; // out of range (§5)
    const valid = drawable(a);
    expect(Array.from(valid.source!)).toEqual([0, 2, 4]);
    expect(Array.from(valid.times)).toEqual([T0, T0 + 2000, T0 + 4000]);
    expect(Array.from(valid.lonLat.subarray(2, 4))).toEqual([a.lonLat[4], a.lonLat[5]]);
    expect(Array.from(drawable(a, true).source!)).toEqual([0, 1, 2, 4]);
    expect(tracksBounds([a])![3]).toBeLessThanOrEqual(90);
  });

  it('takes the extent and bounds of all tracks', () => {
    const a = track('A', T0, 3, 1000);
    const b = track('B', T0 - 5000, 2, 1000, [-10, -5]);
    expect(timeExtent([a, b])).toEqual([T0 - 5000, T0 + 2000]);
    expect(timeExtent([track('C', T0, 0, 1)])).toBeNull();
    expect(tracksBounds([a, b])).toEqual([-10, -5, 100.02, 30.01]);
    expect(tracksBounds([])).toBeNull();
  });

  it('colours points by grade and by time, invalid points grey', () => {
    const a = track('A', T0, 3, 1000);
    a.valid[2] = 0;
    const byGrade = pointColors(a, 'grade', deviceColor(0));
    expect(Array.from(byGrade.subarray(0, 4))).toEqual([...GRADE_COLORS[1]!, 255]);
    expect(Array.from(byGrade.subarray(4, 8))).toEqual([...GRADE_COLORS[2]!, 255]);
    expect(Array.from(byGrade.subarray(8, 12))).toEqual([190, 190, 190, 255]);
    const byTime = pointColors(a, 'time', [0, 0, 0]);
    expect(byTime[0]).toBe(230);
    expect(byTime[4]).toBe(115);
  });

  it('places every device at the same moment: its last fix at or before the clock', () => {
    // A reports each minute, B every 90 s and starts later.
    const a = track('A', T0, 100, 60_000);
    const b = track('B', T0 + 30_000, 60, 90_000, [101, 31]);
    const color = (_: string, i: number) => deviceColor(i);
    for (const time of [T0, T0 + 29_999, T0 + 30_000, T0 + 45 * 60_000 + 1, T0 + 200 * 60_000]) {
      const heads = headsAt([a, b], time, color);
      for (const head of heads) {
        const t = head.imei === 'A' ? a : b;
        expect(head.index).toBe(indexAtTime(t, time));
        expect(t.times[head.index]!).toBeLessThanOrEqual(time);
        if (head.index + 1 < t.count) expect(t.times[head.index + 1]!).toBeGreaterThan(time);
        expect([head.lon, head.lat]).toEqual([t.lonLat[head.index * 2], t.lonLat[head.index * 2 + 1]]);
      }
      // Before B's first fix only A shows.
      expect(heads.map((h) => h.imei)).toEqual(time < T0 + 30_000 ? ['A'] : ['A', 'B']);
    }
  });

  it('builds the columns of a million points as typed arrays', () => {
    const big = track('BIG', T0, 1_000_000, 1000, [100, 30], 0.00005);
    const path = binaryPath(big, T0);
    expect(path.attributes.getTimestamps.value).toBeInstanceOf(Float32Array);
    expect(path.attributes.getTimestamps.value[999_999]).toBe(999_999);
    const colors = pointColors(big, 'grade', deviceColor(0));
    expect(colors).toHaveLength(4_000_000);
    expect(tracksBounds([big])![2]).toBeCloseTo(100 + 49.99995);
  });
});
