import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { describe, expect, it } from 'vitest';
import { decodeBase64SensorSeries, decodeSensorSeries, encodeSensorSeries, type SensorSeries } from './sensor-series-codec.js';

const none = { min: new Float32Array(0), max: new Float32Array(0), counts: new Uint32Array(0) };

describe('sensor series codec', () => {
  it('round-trips records: times to the millisecond, values as float32, value-major', () => {
    const s: SensorSeries = {
      values: 2, total: 3, bucketMs: 0, count: 3,
      times: new Float64Array([1_700_000_000_123, 1_700_000_060_000, 1_790_000_000_999]),
      mean: new Float32Array([1800, 1750, 1790, 2600, 2580, 2610]),
      ...none,
    };
    const back = decodeSensorSeries(encodeSensorSeries(s));
    expect(back).toEqual(s);
    // a base64 Data as the call answers it
    expect(decodeBase64SensorSeries(btoa(String.fromCharCode(...encodeSensorSeries(s))))).toEqual(s);
  });

  it('round-trips an envelope with its min, max and counts; an empty series too', () => {
    const s: SensorSeries = {
      values: 1, total: 1_000_000, bucketMs: 3_600_000, count: 2,
      times: new Float64Array([1e12, 1e12 + 3_600_000]),
      mean: new Float32Array([20.5, 21.25]),
      min: new Float32Array([-3.5, 10]),
      max: new Float32Array([30, 31.5]),
      counts: new Uint32Array([600_000, 400_000]),
    };
    expect(decodeSensorSeries(encodeSensorSeries(s))).toEqual(s);
    const empty: SensorSeries = { values: 4, total: 0, bucketMs: 0, count: 0, times: new Float64Array(0), mean: new Float32Array(0), ...none };
    expect(decodeSensorSeries(encodeSensorSeries(empty))).toEqual(empty);
  });

  it('refuses columns that disagree with the count, and skips fields it does not know', () => {
    const w = new BinaryWriter();
    w.tag(1, WireType.Varint).uint32(1);
    w.tag(4, WireType.Varint).uint32(2);
    w.tag(5, WireType.LengthDelimited).bytes(new Uint8Array(new Float64Array([1, 2]).buffer));
    w.tag(6, WireType.LengthDelimited).bytes(new Uint8Array(new Float32Array([5]).buffer));
    expect(() => decodeSensorSeries(w.finish())).toThrow(/different lengths/);
    const cut = new BinaryWriter();
    cut.tag(5, WireType.LengthDelimited).bytes(new Uint8Array(7));
    expect(() => decodeSensorSeries(cut.finish())).toThrow(/cut short/);
    const extra = new BinaryWriter();
    extra.tag(15, WireType.LengthDelimited).string('later field');
    extra.tag(1, WireType.Varint).uint32(1);
    expect(decodeSensorSeries(extra.finish()).values).toBe(1);
  });
});
