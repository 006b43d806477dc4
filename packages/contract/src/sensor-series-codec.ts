import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

/**
 * The binary of Sensor/GetSeries (§7.1 "Data arrives as base64 binary"): one kind's values over a range as
 * a chart draws them, either every record (few enough for the chart's width) or a min/max/mean envelope
 * per time bucket made by the server. A protobuf message whose columns are little-endian typed arrays in
 * `bytes` fields, so the worker reads them as views (one copy each), never building an object per point:
 *
 *   message SensorSeries {
 *     uint32 values = 1;     // value columns per point: the kind's values (1, 2 or 4, contract SensorKind)
 *     double total = 2;      // records of the range the caller may see
 *     double bucket_ms = 3;  // 0: each point is a record; else the envelope's bucket width
 *     uint32 count = 4;      // points (records or non-empty buckets)
 *     bytes times = 5;       // float64 epoch ms per point: the record's time, or the mean time of a bucket's records
 *     bytes mean = 6;        // float32, value-major: value k of point i at k × count + i
 *     bytes min = 7;         // float32 as mean; envelope only
 *     bytes max = 8;         // float32 as mean; envelope only
 *     bytes counts = 9;      // uint32 records per bucket; envelope only
 *   }
 */
export interface SensorSeries {
  values: number;
  total: number;
  bucketMs: number;
  count: number;
  times: Float64Array;
  mean: Float32Array;
  /** Empty unless an envelope. */
  min: Float32Array;
  max: Float32Array;
  counts: Uint32Array;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function bytesOf(a: Float64Array | Float32Array | Uint32Array): Uint8Array {
  if (!LITTLE_ENDIAN) throw new Error('sensor series: big-endian hosts are not supported');
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

export function encodeSensorSeries(s: SensorSeries): Uint8Array {
  const w = new BinaryWriter();
  w.tag(1, WireType.Varint).uint32(s.values);
  w.tag(2, WireType.Bit64).double(s.total);
  w.tag(3, WireType.Bit64).double(s.bucketMs);
  w.tag(4, WireType.Varint).uint32(s.count);
  w.tag(5, WireType.LengthDelimited).bytes(bytesOf(s.times));
  w.tag(6, WireType.LengthDelimited).bytes(bytesOf(s.mean));
  if (s.bucketMs > 0) {
    w.tag(7, WireType.LengthDelimited).bytes(bytesOf(s.min));
    w.tag(8, WireType.LengthDelimited).bytes(bytesOf(s.max));
    w.tag(9, WireType.LengthDelimited).bytes(bytesOf(s.counts));
  }
  return w.finish();
}

/** A typed array over a copy of the bytes (the copy aligns them; a field with a partial element is refused). */
function view<T>(bytes: Uint8Array, size: number, make: (b: ArrayBuffer) => T): T {
  if (!LITTLE_ENDIAN) throw new Error('sensor series: big-endian hosts are not supported');
  if (bytes.byteLength % size !== 0) throw new Error('sensor series: a column is cut short');
  return make(bytes.slice().buffer);
}

export function decodeSensorSeries(bytes: Uint8Array): SensorSeries {
  const r = new BinaryReader(bytes);
  const s: SensorSeries = {
    values: 1, total: 0, bucketMs: 0, count: 0,
    times: new Float64Array(0), mean: new Float32Array(0), min: new Float32Array(0), max: new Float32Array(0), counts: new Uint32Array(0),
  };
  while (r.pos < r.len) {
    const [field, type] = r.tag();
    switch (field) {
      case 1: s.values = r.uint32(); break;
      case 2: s.total = r.double(); break;
      case 3: s.bucketMs = r.double(); break;
      case 4: s.count = r.uint32(); break;
      case 5: s.times = view(r.bytes(), 8, (b) => new Float64Array(b)); break;
      case 6: s.mean = view(r.bytes(), 4, (b) => new Float32Array(b)); break;
      case 7: s.min = view(r.bytes(), 4, (b) => new Float32Array(b)); break;
      case 8: s.max = view(r.bytes(), 4, (b) => new Float32Array(b)); break;
      case 9: s.counts = view(r.bytes(), 4, (b) => new Uint32Array(b)); break;
      default: r.skip(type);
    }
  }
  const envelope = s.bucketMs > 0;
  const n = s.count * s.values;
  if (s.times.length !== s.count || s.mean.length !== n || (envelope && (s.min.length !== n || s.max.length !== n || s.counts.length !== s.count))) {
    throw new Error('sensor series: columns of different lengths');
  }
  return s;
}

/** Base64 text (the call's Data) to the series. */
export function decodeBase64SensorSeries(base64: string | Uint8Array): SensorSeries {
  // The bytes themselves when the answer came encrypted (field-cipher.ts), base64 when it came in clear.
  if (typeof base64 !== 'string') return decodeSensorSeries(base64);
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return decodeSensorSeries(bytes);
}
