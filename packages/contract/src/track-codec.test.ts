import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
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

describe('track codec wire format', () => {
  /** Reads a Track message's packed sint32 fields with @bufbuild's own reader: field -> values. */
  function packedFields(bytes: Uint8Array): Map<number, number[]> {
    const r = new BinaryReader(bytes);
    const out = new Map<number, number[]>();
    while (r.pos < r.len) {
      const [field, wire] = r.tag();
      if (field >= 4 && field <= 7) {
        const end = r.uint32() + r.pos;
        const values: number[] = [];
        while (r.pos < end) values.push(r.sint32());
        out.set(field, values);
      } else r.skip(wire, field);
    }
    return out;
  }

  it('writes the deltas as protobuf packed sint32 varints of one to five bytes, negative ones too, and reads them back', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const pts = [
      { t: t0, lon: 179.999999, lat: 89.999999, alt: 100_000 },
      { t: t0 + 1000, lon: -179.999999, lat: -89.999999, alt: -100_000 },
      { t: t0 + 1000 + (2 ** 31 - 1) * 1000, lon: 0.000001, lat: -0.000064, alt: 0.1 },
      { t: t0 + 1000 + (2 ** 31 - 1) * 1000 + 128_000, lon: 0.000065, lat: 0, alt: null },
    ];
    const bytes = encodeTrack(columns('WIDE', pts));
    const fields = packedFields(bytes);
    expect(fields.get(4)).toEqual([0, 1, 2 ** 31 - 1, 128]);
    expect(fields.get(5)).toEqual([179_999_999, -359_999_998, 180_000_000, 64]);
    expect(fields.get(6)).toEqual([89_999_999, -179_999_998, 89_999_935, 64]);
    expect(fields.get(7)).toEqual([1_000_000, -2_000_000, 1_000_001, 0]);
    const [track] = decodeTrackSet(trackSetFromParts([bytes]));
    expect(Array.from(track!.times)).toEqual(pts.map((p) => p.t));
    expect(Array.from(track!.lonLat)).toEqual(pts.flatMap((p) => [p.lon, p.lat]));
    expect(Array.from(track!.alt).slice(0, 3).map((a) => Math.round(a * 10))).toEqual([1_000_000, -1_000_000, 1]);
  });

  it('is read by a reader that knows only protobuf: the same bytes as @bufbuild writes a packed field with', () => {
    const values = [0, -1, 1, 63, -64, 64, 8191, -8192, 8192, 2 ** 31 - 1, -(2 ** 31)];
    const w = new BinaryWriter();
    w.tag(5, WireType.LengthDelimited).fork();
    for (const v of values) w.sint32(v);
    w.join();
    const reference = w.finish();
    // lon deltas are those values in 1e-6 degrees (the first from 0)
    let lon = 0;
    const pts = values.map((v, i) => ({ t: Date.UTC(2026, 0, 1) + i * 1000, lon: (lon += v) / 1e6, lat: 0, alt: null }));
    const bytes = encodeTrack(columns('REF', pts));
    const at = bytes.findIndex((b, i) => b === reference[0] && bytes.subarray(i, i + reference.length).every((x, j) => x === reference[j]));
    expect(at).toBeGreaterThan(0);
    expect(packedFields(bytes).get(5)).toEqual(values);
  });

  it('refuses a coordinate that is not a number rather than writing a wrong delta', () => {
    expect(() => encodeTrack(columns('NAN', [{ t: 0, lon: Number.NaN, lat: 1, alt: null }]))).toThrow(/int32/);
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
