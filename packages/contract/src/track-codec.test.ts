import { describe, expect, it } from 'vitest';
import { decodeTrackSet, encodeTrack, encodeTrackSet, TrackFlag, trackSetFromParts, type TrackColumns } from './track-codec.js';

function columns(imei: string, points: { t: number; lon: number; lat: number; alt: number | null; grade?: number; flags?: number }[]): TrackColumns {
  return {
    imei,
    count: points.length,
    times: points.map((p) => p.t),
    lonLat: points.flatMap((p) => [p.lon, p.lat]),
    alt: points.map((p) => p.alt),
    grade: points.map((p) => p.grade ?? 0),
    flags: points.map((p) => p.flags ?? TrackFlag.Valid),
  };
}

/** The structured clone postMessage uses (the contract's types know no DOM or Node globals). */
const clone = (globalThis as unknown as { structuredClone: <T>(value: T, options: { transfer: ArrayBuffer[] }) => T }).structuredClone;

describe('track codec', () => {
  it('gives back every point of several tracks: times, coordinates to 1e-6°, altitude to 0.1 m, grades and flags', () => {
    const t0 = Date.UTC(2026, 10, 1, 8, 0, 0);
    const stork = columns('STORK-1', [
      { t: t0, lon: 121.123456, lat: 31.654321, alt: 12.3, grade: 1 },
      { t: t0 + 60_000, lon: 121.1241, lat: 31.6549, alt: null, grade: 7, flags: 0 },
      { t: t0 + 61_000, lon: -0.000001, lat: -89.999999, alt: -9999.9, grade: 3, flags: TrackFlag.Valid | TrackFlag.Averaged },
    ]);
    const empty = columns('EMPTY', []);
    const [a, b] = decodeTrackSet(encodeTrackSet([stork, empty]));
    expect(a!.imei).toBe('STORK-1');
    expect(Array.from(a!.times)).toEqual([t0, t0 + 60_000, t0 + 61_000]);
    expect(Array.from(a!.lonLat)).toEqual([121.123456, 31.654321, 121.1241, 31.6549, -0.000001, -89.999999]);
    expect(a!.alt[0]).toBeCloseTo(12.3, 5);
    expect(Number.isNaN(a!.alt[1])).toBe(true);
    expect(a!.alt[2]).toBeCloseTo(-9999.9, 3);
    expect(Array.from(a!.grade)).toEqual([1, 7, 3]);
    expect(Array.from(a!.valid)).toEqual([1, 0, 1]);
    expect(Array.from(a!.averaged)).toEqual([0, 0, 1]);
    expect(b).toMatchObject({ imei: 'EMPTY', count: 0 });
  });

  it('gives every decoded array a buffer of its own, so tracks with and without fixes can be handed to another thread', () => {
    const t0 = Date.UTC(2026, 10, 1, 8, 0, 0);
    const point = { t: t0, lon: 120.1, lat: 36.1, alt: 5, grade: 2 };
    for (const set of [[columns('A', []), columns('B', [])], [columns('A', [point]), columns('B', [point, { ...point, t: t0 + 60_000 }])], [columns('A', []), columns('B', [point])]]) {
      const tracks = decodeTrackSet(encodeTrackSet(set));
      const buffers = tracks.flatMap((t) => [t.times, t.lonLat, t.alt, t.grade, t.valid, t.averaged].map((a) => a.buffer));
      expect(new Set(buffers).size).toBe(buffers.length);
      // what the decoding worker does with them (postMessage's transfer list refuses a buffer listed twice)
      const moved = clone(tracks, { transfer: buffers as ArrayBuffer[] });
      expect(moved.map((t) => Array.from(t.grade))).toEqual(set.map((c) => Array.from(c.grade)));
    }
  });

  it('keeps millisecond times and gaps longer than 32 bits of milliseconds', () => {
    const t0 = Date.UTC(2020, 0, 1) + 123;
    const times = [t0, t0 + 1, t0 + 30 * 86_400_000 + 7];
    const [track] = decodeTrackSet(encodeTrackSet([columns('MS', times.map((t) => ({ t, lon: 1, lat: 2, alt: 3 })))]));
    expect(Array.from(track!.times)).toEqual(times);
  });

  it('stays within a few bytes a point for a realistic track before compression', () => {
    const n = 10_000;
    const pts = Array.from({ length: n }, (_, i) => ({
      t: Date.UTC(2026, 0, 1) + i * 60_000,
      lon: 116 + Math.sin(i / 50) * 0.05 + i * 1e-5,
      lat: 40 + Math.cos(i / 70) * 0.04,
      alt: 50 + Math.sin(i / 9) * 20,
      grade: 1 + (i % 3),
    }));
    const bytes = encodeTrackSet([columns('BIG', pts)]);
    expect(bytes.length / n).toBeLessThan(10);
    expect(decodeTrackSet(bytes)[0]!.count).toBe(n);
  });
});

describe('track segments', () => {
  it('joins consecutive segments of a device into one track, each segment with deltas of its own', () => {
    const day = 86_400_000;
    const seg = (imei: string, t: number, lon: number) => encodeTrack(columns(imei, [{ t, lon, lat: 10, alt: 5 }, { t: t + 1000, lon: lon + 0.5, lat: 10.5, alt: null }]));
    const set = trackSetFromParts([seg('A', 0, 1), seg('A', day, 2), seg('B', 0, 3), seg('A', 2 * day, 4)]);
    const tracks = decodeTrackSet(set);
    expect(tracks.map((t) => [t.imei, t.count])).toEqual([['A', 4], ['B', 2], ['A', 2]]);
    expect(Array.from(tracks[0]!.times)).toEqual([0, 1000, day, day + 1000]);
    expect(Array.from(tracks[0]!.lonLat)).toEqual([1, 10, 1.5, 10.5, 2, 10, 2.5, 10.5]);
    expect(Number.isNaN(tracks[0]!.alt[3])).toBe(true);
  });
});
