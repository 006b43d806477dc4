/**
 * The binary of Sensor/GetAccelerationBinaryV2 (§7.1 "Data arrives as base64 binary"): a range's bursts
 * with every sample, so that a month of 20 Hz bursts (a million samples and more) reaches a chart in a few
 * bytes a sample instead of ~125 in the JSON pages, and the reader fills typed arrays without an object
 * per sample. Little-endian:
 *
 *   uint32 burstCount
 *   burstCount × 48-byte header:
 *     float64 start_ms · float32 hz · uint32 sample_count · uint8 axes (bit 0 X, 1 Y, 2 Z) · uint8 axis_count
 *     · uint16 reserved · float32 scale[X, Y, Z] · float32 offset[X, Y, Z] · float32 mean_odba (g, as stored)
 *   then per burst, in header order, per axis in the burst's order (X, Y, Z as sampled): sample_count
 *   zigzag LEB128 varints, each the raw count's difference from the previous one (the first from 0).
 *
 * A tag's counts move little from one sample to the next, so most differences take one byte (bench/sensors
 * acceleration: ~1.3 bytes an axis-sample against 2 for int16): the body is already dense, and the HTTP
 * layer is asked not to spend time compressing it again. ODBA is not sent: the reader computes it as the
 * ingest does (the sum over the axes of |calibrated − the burst's mean|).
 * Calibrated g = (raw − offset) × scale per axis; sample i is at start + i × 1000 / hz (ms).
 */

export const BURST_HEADER_BYTES = 48;

/** One stored burst as the encoder takes it (the acc_bursts row's own blobs). */
export interface BurstBlob {
  start: number;
  hz: number;
  /** The axes sampled in their column order, e.g. 'XYZ'. */
  axes: string;
  sampleCount: number;
  /** int16 LE interleaved by axis (unless `packed`). */
  samples: Uint8Array;
  /** The counts already packed as the series' body (packBurstCounts: how acc_bursts stores them since encoding 1), copied as they are. */
  packed?: Uint8Array;
  /** uint16 LE milli-g per sample. */
  odba: Uint8Array;
  meanOdba: number;
  /** Per column of `axes`. */
  scale: readonly number[];
  offset: readonly number[];
}

/** The decoded bursts: one row per burst, one column per sample over all bursts. */
export interface AccelerationSeries {
  burstCount: number;
  sampleCount: number;
  start: Float64Array;
  hz: Float32Array;
  /** Samples per burst, and where each burst's samples begin in the sample columns. */
  count: Uint32Array;
  first: Uint32Array;
  meanOdba: Float32Array;
  /** Axis bits per burst (1 X, 2 Y, 4 Z). */
  axes: Uint8Array;
  /** Epoch ms per sample. */
  time: Float64Array;
  /** Calibrated g per sample; NaN on an axis the burst did not sample. */
  x: Float32Array;
  y: Float32Array;
  z: Float32Array;
  /** g per sample. */
  odba: Float32Array;
}

/** The series without the calibrated axes and per-sample times (decodeAccelerationOdba). */
export type AccelerationOdba = Omit<AccelerationSeries, 'time' | 'x' | 'y' | 'z'>;

const AXIS_NAMES = ['X', 'Y', 'Z'] as const;
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Little-endian int16 bytes as an Int16Array: a view when aligned, else a copy (typed reads are several times faster than DataView's). */
function int16View(bytes: Uint8Array): Int16Array {
  const count = bytes.byteLength >> 1;
  if (!LITTLE_ENDIAN) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return Int16Array.from({ length: count }, (_, i) => view.getInt16(i * 2, true));
  }
  if (bytes.byteOffset % 2 === 0) return new Int16Array(bytes.buffer, bytes.byteOffset, count);
  return new Int16Array(bytes.slice(0, count * 2).buffer);
}

/**
 * A burst's raw counts (interleaved in the order of `axes`) as the series' body of one burst: per axis in
 * X, Y, Z order (as sampled) `sampleCount` zigzag LEB128 varints of the differences, the first from 0.
 * acc_bursts stores this form too (encoding 1), so the series copies it without work.
 */
export function packBurstCounts(raw: Int16Array, axes: string, sampleCount = raw.length / Math.max(1, axes.length)): Uint8Array {
  const axisCount = axes.length;
  const n = Math.min(sampleCount, Math.floor(raw.length / Math.max(1, axisCount)));
  const out = new Uint8Array(sampleCount * axisCount * 3);
  let at = 0;
  for (let a = 0; a < 3; a++) {
    const c = axes.indexOf(AXIS_NAMES[a]!);
    if (c < 0) continue;
    let prev = 0;
    for (let i = 0; i < sampleCount; i++) {
      const v = i < n ? raw[i * axisCount + c]! : prev;
      const d = v - prev;
      prev = v;
      let z = d >= 0 ? d * 2 : -d * 2 - 1;
      while (z >= 0x80) {
        out[at++] = (z & 0x7f) | 0x80;
        z >>>= 7;
      }
      out[at++] = z;
    }
  }
  return out.slice(0, at);
}

/** The reverse of packBurstCounts: the counts interleaved in the order of `axes`. Throws on a body cut short. */
export function unpackBurstCounts(bytes: Uint8Array, axes: string, sampleCount: number): Int16Array {
  const axisCount = axes.length;
  const out = new Int16Array(sampleCount * axisCount);
  let at = 0;
  for (let a = 0; a < 3; a++) {
    const c = axes.indexOf(AXIS_NAMES[a]!);
    if (c < 0) continue;
    let v = 0;
    for (let i = 0; i < sampleCount; i++) {
      let z = 0;
      let shift = 0;
      let byte: number;
      do {
        if (at >= bytes.byteLength) throw new Error('acceleration counts: truncated');
        byte = bytes[at++]!;
        z |= (byte & 0x7f) << shift;
        shift += 7;
      } while (byte & 0x80);
      v += z & 1 ? -((z + 1) >>> 1) : z >>> 1;
      out[i * axisCount + c] = v;
    }
  }
  return out;
}

/** The series' bytes for these bursts. */
export function encodeAccelerationSeries(bursts: readonly BurstBlob[]): Uint8Array {
  let worst = 4 + bursts.length * BURST_HEADER_BYTES;
  // A difference of two int16 is within ±65535: at most 3 varint bytes.
  for (const b of bursts) worst += b.sampleCount * b.axes.length * 3;
  const out = new Uint8Array(worst);
  const view = new DataView(out.buffer);
  view.setUint32(0, bursts.length, true);
  let at = 4 + bursts.length * BURST_HEADER_BYTES;
  bursts.forEach((b, k) => {
    const h = 4 + k * BURST_HEADER_BYTES;
    let mask = 0;
    const axisCount = b.axes.length;
    view.setFloat64(h, b.start, true);
    view.setFloat32(h + 8, b.hz, true);
    view.setUint32(h + 12, b.sampleCount, true);
    AXIS_NAMES.forEach((name, a) => {
      const c = b.axes.indexOf(name);
      if (c >= 0) mask |= 1 << a;
      view.setFloat32(h + 20 + a * 4, c >= 0 ? (b.scale[c] ?? 1) : 0, true);
      view.setFloat32(h + 32 + a * 4, c >= 0 ? (b.offset[c] ?? 0) : 0, true);
    });
    view.setUint8(h + 16, mask);
    view.setUint8(h + 17, axisCount);
    view.setFloat32(h + 44, b.meanOdba, true);
    const body = b.packed ?? packBurstCounts(int16View(b.samples), b.axes, b.sampleCount);
    if (at + body.byteLength > out.byteLength) throw new Error('acceleration series: a packed burst is larger than its samples allow');
    out.set(body, at);
    at += body.byteLength;
  });
  return out.subarray(0, at);
}

/**
 * Several encoded series as one, in the order given (each part's bursts after the previous part's): the
 * counts added, the headers, then the bodies. The server keeps a series per hour of a device's bursts and
 * answers a range with these joined, without decoding them.
 */
export function joinAccelerationSeries(parts: readonly Uint8Array[]): Uint8Array {
  let bursts = 0;
  let total = 4;
  for (const p of parts) {
    const n = p.byteLength >= 4 ? new DataView(p.buffer, p.byteOffset, 4).getUint32(0, true) : 0;
    if (4 + n * BURST_HEADER_BYTES > p.byteLength) throw new Error('acceleration series: truncated headers');
    bursts += n;
    total += Math.max(0, p.byteLength - 4);
  }
  const out = new Uint8Array(total);
  new DataView(out.buffer).setUint32(0, bursts, true);
  let head = 4;
  let body = 4 + bursts * BURST_HEADER_BYTES;
  for (const p of parts) {
    if (p.byteLength < 4) continue;
    const split = 4 + new DataView(p.buffer, p.byteOffset, 4).getUint32(0, true) * BURST_HEADER_BYTES;
    out.set(p.subarray(4, split), head);
    head += split - 4;
    out.set(p.subarray(split), body);
    body += p.byteLength - split;
  }
  return out;
}

/** Reads the series' bytes into columns (calibrated g, ODBA in g, a time per sample). */
export function decodeAccelerationSeries(bytes: Uint8Array): AccelerationSeries {
  return decode(bytes, true) as AccelerationSeries;
}

/**
 * The bursts and each sample's ODBA only, without the calibrated axes and the per-sample times (a sample's
 * time is its burst's start + i × 1000 / hz): what a chart of ODBA over the range needs, in less than
 * half the memory and time of decodeAccelerationSeries (a month of 20 Hz bursts: 7 MB instead of 41 MB).
 */
export function decodeAccelerationOdba(bytes: Uint8Array): AccelerationOdba {
  return decode(bytes, false);
}

function decode(bytes: Uint8Array, full: boolean): AccelerationOdba | AccelerationSeries {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const burstCount = bytes.byteLength >= 4 ? view.getUint32(0, true) : 0;
  if (4 + burstCount * BURST_HEADER_BYTES > bytes.byteLength) throw new Error('acceleration series: truncated headers');
  const start = new Float64Array(burstCount);
  const hz = new Float32Array(burstCount);
  const count = new Uint32Array(burstCount);
  const first = new Uint32Array(burstCount);
  const meanOdba = new Float32Array(burstCount);
  const axes = new Uint8Array(burstCount);
  let sampleCount = 0;
  for (let k = 0; k < burstCount; k++) {
    const h = 4 + k * BURST_HEADER_BYTES;
    start[k] = view.getFloat64(h, true);
    hz[k] = view.getFloat32(h + 8, true);
    count[k] = view.getUint32(h + 12, true);
    axes[k] = view.getUint8(h + 16);
    meanOdba[k] = view.getFloat32(h + 44, true);
    first[k] = sampleCount;
    sampleCount += count[k]!;
  }
  const columns = full ? sampleCount : 0;
  const time = new Float64Array(columns);
  const cols: [Float32Array, Float32Array, Float32Array] = [new Float32Array(columns), new Float32Array(columns), new Float32Array(columns)];
  const odba = new Float32Array(sampleCount);
  let longest = 0;
  for (let k = 0; k < burstCount; k++) if (count[k]! > longest) longest = count[k]!;
  // A burst's raw counts per axis, decoded first: the burst's mean is then known, and each sample's g and
  // ODBA are written in one pass (no Float32 column read back).
  const raw = new Int32Array(3 * longest);
  const scales = new Float64Array(3);
  const offsets = new Float64Array(3);
  const means = new Float64Array(3);
  let at = 4 + burstCount * BURST_HEADER_BYTES;
  const end = bytes.byteLength;
  for (let k = 0; k < burstCount; k++) {
    const h = 4 + k * BURST_HEADER_BYTES;
    const n = count[k]!;
    const s0 = first[k]!;
    const t0 = start[k]!;
    const step = 1000 / (hz[k]! || 1);
    if (full) for (let i = 0; i < n; i++) time[s0 + i] = t0 + Math.round(i * step);
    const mask = axes[k]!;
    for (let a = 0; a < 3; a++) {
      if (!(mask & (1 << a))) {
        if (full) cols[a]!.fill(NaN, s0, s0 + n);
        // an axis not sampled adds nothing to ODBA (its scratch counts times 0)
        scales[a] = 0;
        means[a] = 0;
        continue;
      }
      scales[a] = view.getFloat32(h + 20 + a * 4, true);
      offsets[a] = view.getFloat32(h + 32 + a * 4, true);
      const base = a * longest;
      let v = 0;
      let sum = 0;
      for (let i = 0; i < n; i++) {
        if (at >= end) throw new Error('acceleration series: truncated samples');
        let z = bytes[at++]!;
        // Most differences take one byte (the loop below is the rare longer varint).
        if (z >= 0x80) {
          z &= 0x7f;
          let shift = 7;
          let byte: number;
          do {
            if (at >= end) throw new Error('acceleration series: truncated samples');
            byte = bytes[at++]!;
            z |= (byte & 0x7f) << shift;
            shift += 7;
          } while (byte & 0x80);
        }
        v += (z >>> 1) ^ -(z & 1);
        raw[base + i] = v;
        sum += v;
      }
      means[a] = n > 0 ? sum / n : 0;
    }
    // g = (raw − offset) × scale; ODBA: each axis's |g − the burst's mean g| = |raw − mean raw| × |scale|,
    // summed over the axes in one pass.
    if (full) {
      for (let a = 0; a < 3; a++) {
        if (!(mask & (1 << a))) continue;
        const col = cols[a]!;
        const base = a * longest;
        const scale = scales[a]!;
        const offset = offsets[a]!;
        for (let i = 0; i < n; i++) col[s0 + i] = (raw[base + i]! - offset) * scale;
      }
    }
    const [ax, ay, az] = [Math.abs(scales[0]!), Math.abs(scales[1]!), Math.abs(scales[2]!)];
    const [mx, my, mz] = [means[0]!, means[1]!, means[2]!];
    const by = longest;
    const bz = 2 * longest;
    for (let i = 0; i < n; i++) odba[s0 + i] = Math.abs(raw[i]! - mx) * ax + Math.abs(raw[by + i]! - my) * ay + Math.abs(raw[bz + i]! - mz) * az;
  }
  const bursts = { burstCount, sampleCount, start, hz, count, first, meanOdba, axes, odba };
  return full ? { ...bursts, time, x: cols[0], y: cols[1], z: cols[2] } : bursts;
}

const B64 = new Uint8Array(128).fill(255);
for (let i = 0; i < 64; i++) B64['ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.charCodeAt(i)] = i;

/** Standard base64 (with or without padding) to bytes: a table walk, several times faster than atob and a char loop. */
export function base64Bytes(text: string): Uint8Array {
  let len = text.length;
  while (len > 0 && text.charCodeAt(len - 1) === 61) len--;
  const out = new Uint8Array(Math.floor((len * 3) / 4));
  let o = 0;
  let i = 0;
  for (; i + 4 <= len; i += 4) {
    const n = (B64[text.charCodeAt(i)]! << 18) | (B64[text.charCodeAt(i + 1)]! << 12) | (B64[text.charCodeAt(i + 2)]! << 6) | B64[text.charCodeAt(i + 3)]!;
    out[o++] = n >>> 16;
    out[o++] = (n >>> 8) & 255;
    out[o++] = n & 255;
  }
  const rest = len - i;
  if (rest >= 2) {
    const n = (B64[text.charCodeAt(i)]! << 18) | (B64[text.charCodeAt(i + 1)]! << 12) | (rest === 3 ? B64[text.charCodeAt(i + 2)]! << 6 : 0);
    out[o++] = n >>> 16;
    if (rest === 3) out[o++] = (n >>> 8) & 255;
  }
  return out;
}

/** Base64 to bytes: the platform's Uint8Array.fromBase64 where it has one, else base64Bytes. */
function fromBase64(base64: string): Uint8Array {
  const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
  return native ? native(base64) : base64Bytes(base64);
}

/** decodeAccelerationOdba of the call's base64 Data, in a browser or worker as in Node. */
export function decodeBase64AccelerationOdba(base64: string | Uint8Array): AccelerationOdba {
  // The bytes themselves when the answer came encrypted (field-cipher.ts), base64 when it came in clear.
  return decodeAccelerationOdba(typeof base64 === 'string' ? fromBase64(base64) : base64);
}
