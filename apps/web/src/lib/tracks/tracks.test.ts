import { encodeTrackSet, TrackFlag } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { rangeFromText, resolveRange } from '../positionSelection';
import { indexAtTime } from './types';
import { decodeTracks } from './worker-client';

const toBase64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

describe('track decoding', () => {
  it('turns the base64 TrackSet of the bulk calls into typed arrays', async () => {
    const t0 = Date.UTC(2026, 10, 20);
    const base64 = toBase64(
      encodeTrackSet([
        { imei: 'A', count: 3, times: [t0, t0 + 60_000, t0 + 120_000], lonLat: [116.1, 39.9, 116.2, 39.8, 116.3, 39.7], alt: [10, null, 30], grade: [1, 2, 6], flags: [TrackFlag.Valid, 0, TrackFlag.Valid] },
        { imei: 'B', count: 0, times: [], lonLat: [], alt: [], grade: [], flags: [] },
      ]),
    );
    const [a, b] = await decodeTracks(base64);
    expect(a!.times).toBeInstanceOf(Float64Array);
    expect(Array.from(a!.lonLat)).toEqual([116.1, 39.9, 116.2, 39.8, 116.3, 39.7]);
    expect(Number.isNaN(a!.alt[1])).toBe(true);
    expect(Array.from(a!.valid)).toEqual([1, 0, 1]);
    expect(b!.count).toBe(0);
    expect(indexAtTime(a!, t0 - 1)).toBe(-1);
    expect(indexAtTime(a!, t0 + 90_000)).toBe(1);
    expect(indexAtTime(a!, t0 + 10 * 60_000)).toBe(2);
    expect(await decodeTracks('')).toEqual([]);
  });
});

describe('position range', () => {
  it('resolves a span against today in the zone and keeps a custom range as it is', () => {
    const now = Date.UTC(2026, 10, 22, 20, 0); // 23 Nov 04:00 in +08:00
    expect(resolveRange({ span: 7 }, '+08:00', now)).toEqual({ start: '2026-11-17 00:00:00', end: '2026-11-23 23:59:59' });
    expect(resolveRange(rangeFromText('2026-01-01 00:00:00', '2026-01-02 00:00:00', '+08:00'), '+08:00', now)).toEqual({ start: '2026-01-01 00:00:00', end: '2026-01-02 00:00:00' });
  });
});
