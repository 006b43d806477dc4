import { decodeAccelerationOdba, decodeAccelerationSeries, encodeAccelerationSeries } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { odbaEnvelope, odbaEnvelopeOfBursts } from './envelope';

/** int16 little-endian counts. */
const le16 = (values: number[]) => new Uint8Array(Int16Array.from(values).buffer);

describe('the ODBA overview of decoded bursts', () => {
  it('is the overview of the full columns: the same buckets, means and peaks, from each burst’s start and rate', () => {
    const burst = (start: number, hz: number, n: number, axes: string) => {
      const counts = Array.from({ length: n * axes.length }, (_, i) => 2048 + ((i * 37) % 101) - 50);
      return { start, hz, axes, sampleCount: n, samples: le16(counts), odba: new Uint8Array(2 * n), meanOdba: 0, scale: [0.002, 0.003, 0.004], offset: [2048, 2040, 2030] };
    };
    // 3 Hz: sample times round (333.33 ms steps), as the codec's times do; bursts straddle bucket edges.
    const bytes = encodeAccelerationSeries([burst(0, 20, 200, 'XYZ'), burst(9_500, 3, 7, 'XZ'), burst(30_000, 1, 5, 'Y'), burst(59_000, 20, 40, 'XYZ')]);
    const full = decodeAccelerationSeries(bytes);
    for (const [from, to, buckets] of [
      [0, 61_000, 7],
      [2_000, 40_000, 13],
      [0, 61_000, 1200],
    ] as const) {
      const want = odbaEnvelope(full.time, full.odba, full.sampleCount, from, to, buckets);
      const got = odbaEnvelopeOfBursts(decodeAccelerationOdba(bytes), from, to, buckets);
      expect(Array.from(got.x)).toEqual(Array.from(want.x));
      expect(Array.from(got.max)).toEqual(Array.from(want.max));
      expect(Array.from(got.mean)).toEqual(Array.from(want.mean));
      expect(got.x.length).toBeGreaterThan(0);
    }
  });
});
