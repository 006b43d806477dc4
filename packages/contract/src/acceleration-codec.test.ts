import { describe, expect, it } from 'vitest';
import { base64Bytes, decodeAccelerationSeries, encodeAccelerationSeries } from './acceleration-codec.js';

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
  });

  it('reads an empty series and refuses a truncated one', () => {
    expect(decodeAccelerationSeries(encodeAccelerationSeries([])).sampleCount).toBe(0);
    const bytes = encodeAccelerationSeries([{ start: 0, hz: 1, axes: 'X', sampleCount: 4, samples: le16([1, 2, 3, 4]), odba: le16([0, 0, 0, 0], false), meanOdba: 0, scale: [1], offset: [0] }]);
    expect(() => decodeAccelerationSeries(bytes.subarray(0, bytes.byteLength - 2))).toThrow(/truncated/);
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
