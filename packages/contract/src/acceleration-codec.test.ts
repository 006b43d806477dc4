import { describe, expect, it } from 'vitest';
import { base64Bytes, type BurstBlob, decodeAccelerationOdba, decodeAccelerationSeries, encodeAccelerationSeries, joinAccelerationSeries } from './acceleration-codec.js';

const le16 = (values: number[], signed = true) => {
  const b = new Uint8Array(values.length * 2);
  const v = new DataView(b.buffer);
  values.forEach((x, i) => (signed ? v.setInt16(i * 2, x, true) : v.setUint16(i * 2, x, true)));
  return b;
};

describe('acceleration series codec', () => {
  it('round-trips bursts of different axes: calibrated g, ODBA computed from them, a time per sample, NaN for an axis not sampled', () => {
    const bytes = encodeAccelerationSeries([
      { start: 1_000, hz: 20, axes: 'XYZ', sampleCount: 2, samples: le16([2048, 2148, 1948, 2058, 2148, 2418]), odba: le16([120, 7], false), meanOdba: 0.0635, scale: [0.002, 0.003, 0.004], offset: [2048, 2048, 2048] },
      // large steps: differences over 63 take two varint bytes, the sign kept
      { start: 5_000, hz: 1, axes: 'X', sampleCount: 3, samples: le16([2049, 2050, 2051]), odba: le16([1, 2, 3], false), meanOdba: 0.002, scale: [0.5], offset: [2048] },
      { start: 9_000, hz: 10, axes: 'XY', sampleCount: 1, samples: le16([2048, 2050]), odba: le16([0], false), meanOdba: 0, scale: [1, 1], offset: [2048, 2048] },
      { start: 12_000, hz: 10, axes: 'Z', sampleCount: 3, samples: le16([-3000, 4000, -32768]), odba: le16([0, 0, 0], false), meanOdba: 0, scale: [1], offset: [0] },
    ]);
    // Fewer bytes than the int16 counts: small steps take one varint byte.
    expect(bytes.byteLength).toBeLessThan(4 + 4 * 48 + 2 * (6 + 3 + 2 + 3));
    const s = decodeAccelerationSeries(bytes);
    expect(s.burstCount).toBe(4);
    expect(s.sampleCount).toBe(9);
    expect(Array.from(s.first)).toEqual([0, 2, 5, 6]);
    expect(Array.from(s.time.slice(0, 6))).toEqual([1_000, 1_050, 5_000, 6_000, 7_000, 9_000]);
    expect(Array.from(s.z.slice(6))).toEqual([-3000, 4000, -32768]);
    expect(s.x[1]).toBeCloseTo(0.02, 6);
    expect(s.y[0]).toBeCloseTo(0.3, 6);
    expect(s.z[1]).toBeCloseTo(1.48, 6);
    expect(Array.from(s.x.slice(2, 5))).toEqual([0.5, 1, 1.5]);
    expect(Number.isNaN(s.y[3]!)).toBe(true);
    expect(Number.isNaN(s.z[5]!)).toBe(true);
    expect(s.y[5]).toBe(2);
    // ODBA as the ingest computes it: X 0, 0.02 (mean 0.01), Y constant, Z −0.4, 1.48 (mean 0.54).
    expect(s.odba[0]).toBeCloseTo(0.01 + 0 + 0.94, 5);
    expect(s.odba[1]).toBeCloseTo(0.95, 5);
    expect(s.odba[4]).toBeCloseTo(0.5, 6);
    expect(s.meanOdba[0]).toBeCloseTo(0.0635, 6);
    // The ODBA-only reading: the same bursts and ODBA, no axes or times.
    const o = decodeAccelerationOdba(bytes);
    expect(Array.from(o.odba)).toEqual(Array.from(s.odba));
    expect([o.burstCount, o.sampleCount, Array.from(o.start), Array.from(o.count), Array.from(o.first), Array.from(o.axes)]).toEqual([4, 9, Array.from(s.start), Array.from(s.count), Array.from(s.first), Array.from(s.axes)]);
    expect('x' in o || 'time' in o).toBe(false);
    expect(() => decodeAccelerationOdba(bytes.subarray(0, bytes.byteLength - 2))).toThrow(/truncated/);
  });

  it('reads an empty series and refuses a truncated one', () => {
    expect(decodeAccelerationSeries(encodeAccelerationSeries([])).sampleCount).toBe(0);
    const bytes = encodeAccelerationSeries([{ start: 0, hz: 1, axes: 'X', sampleCount: 4, samples: le16([1, 2, 3, 4]), odba: le16([0, 0, 0, 0], false), meanOdba: 0, scale: [1], offset: [0] }]);
    expect(() => decodeAccelerationSeries(bytes.subarray(0, bytes.byteLength - 2))).toThrow(/truncated/);
  });

  it('joins encoded series into the series of all their bursts, byte for byte', () => {
    const burst = (start: number, axes: string, counts: number[]): BurstBlob => ({
      start,
      hz: 20,
      axes,
      sampleCount: counts.length / axes.length,
      samples: le16(counts),
      odba: le16(counts.map(() => 0), false),
      meanOdba: start / 1e6,
      scale: [0.002, 0.003, 0.004],
      offset: [2048, 2040, 2030],
    });
    const a = [burst(1_000, 'XYZ', [2048, 2148, 1948, 2058, 2148, 2418]), burst(2_000, 'X', [1, 300, -5])];
    const b = [burst(3_000, 'YZ', [7, 8, 9, 10])];
    const c = [burst(4_000, 'XY', [-32768, 32767]), burst(5_000, 'Z', [0])];
    const joined = joinAccelerationSeries([encodeAccelerationSeries(a), encodeAccelerationSeries([]), encodeAccelerationSeries(b), encodeAccelerationSeries(c)]);
    expect(Array.from(joined)).toEqual(Array.from(encodeAccelerationSeries([...a, ...b, ...c])));
    expect(decodeAccelerationSeries(joined).burstCount).toBe(5);
    expect(Array.from(joinAccelerationSeries([]))).toEqual(Array.from(encodeAccelerationSeries([])));
    expect(() => joinAccelerationSeries([encodeAccelerationSeries(a).subarray(0, 40)])).toThrow(/truncated/);
  });

  it('reads base64 as Node does, padded or not', () => {
    for (let n = 0; n < 40; n++) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n) & 255);
      const text = btoa(String.fromCharCode(...bytes));
      expect(Array.from(base64Bytes(text))).toEqual(Array.from(bytes));
      expect(Array.from(base64Bytes(text.replace(/=+$/, '')))).toEqual(Array.from(bytes));
    }
  });
});
