import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

/**
 * The compact binary of the bulk fix calls (§7.1 "Data arrives as base64 binary"): a protobuf TrackSet,
 * written and read with @bufbuild/protobuf's wire primitives so that the reader fills typed arrays
 * straight from the packed fields, never building a million objects (see docs/track.proto):
 *
 *   message TrackSet { repeated Track tracks = 1; }
 *   message Track {
 *     string imei = 1;
 *     double time_origin_ms = 2;         // epoch ms the time deltas start from
 *     uint32 time_unit_ms = 3;           // 1000, 100, 10 or 1: the coarsest unit every time is a multiple of
 *     repeated sint32 time_delta = 4;    // in time units, the first from the origin
 *     repeated sint32 lon_delta = 5;     // 1e-6 degrees, the first from 0
 *     repeated sint32 lat_delta = 6;     // 1e-6 degrees, the first from 0
 *     repeated sint32 alt_delta = 7;     // decimetres, the first from 0 (0 for a point without altitude)
 *     bytes grade = 8;                   // precision grade per point, 0 = unknown
 *     bytes flags = 9;                   // per point: 1 valid, 2 has altitude, 4 second-level average
 *     repeated double times_ms = 10;     // instead of 2-4 when no unit keeps the deltas within 32 bits
 *   }
 *
 * Integers are zigzag varints of small deltas, so a fix a minute apart and a few hundred metres on
 * costs about 7 bytes before compression; HTTP compression takes the flags and grades to almost nothing.
 */

export const TrackFlag = { Valid: 1, HasAltitude: 2, Averaged: 4 } as const;

/** One device's track as columns: what the server encodes and what the reader gives back. */
export interface TrackColumns {
  imei: string;
  count: number;
  /** Epoch ms, ascending. */
  times: ArrayLike<number>;
  /** Interleaved longitude, latitude in degrees (2 × count). */
  lonLat: ArrayLike<number>;
  /** Metres; NaN (or null on the server side) for none. */
  alt: ArrayLike<number | null>;
  grade: ArrayLike<number>;
  /** TrackFlag bits. */
  flags: ArrayLike<number>;
}

/** The decoded form: typed arrays a map layer can use as they are. */
export interface TrackArrays {
  imei: string;
  count: number;
  times: Float64Array;
  lonLat: Float64Array;
  /** NaN where the fix has no altitude. */
  alt: Float32Array;
  grade: Uint8Array;
  /** 1 valid, 0 not. */
  valid: Uint8Array;
  /** 1 where the point is the average of a run of second-level fixes. */
  averaged: Uint8Array;
}

const COORD_SCALE = 1e6;
const ALT_SCALE = 10;
const INT32_MAX = 2 ** 31 - 1;

function timeUnit(times: ArrayLike<number>, count: number): number {
  for (const unit of [1000, 100, 10, 1]) {
    let ok = true;
    let prev = count > 0 ? times[0]! : 0;
    for (let i = 0; i < count && ok; i++) {
      const t = times[i]!;
      if (t % unit !== 0 || (i > 0 && Math.abs(t - prev) / unit > INT32_MAX)) ok = false;
      prev = t;
    }
    if (ok) return unit;
  }
  return 0;
}

/**
 * A packed repeated sint32 field's bytes, written straight into a typed array: @bufbuild's writer keeps
 * each varint's bytes in a plain array first, which cost most of the encoding of a million-point track
 * (bench/tracks 1). The bytes are the same as its `sint32()` calls between `fork()` and `join()` write.
 */
class PackedSint32 {
  private buf: Uint8Array;
  private pos = 0;

  constructor(count: number) {
    // Most deltas take one or two bytes; the buffer grows if they don't.
    this.buf = new Uint8Array(Math.max(16, 2 * count));
  }

  add(value: number): void {
    if ((value | 0) !== value) throw new Error(`invalid int32: ${value}`);
    if (this.pos + 5 > this.buf.length) {
      const more = new Uint8Array(2 * this.buf.length);
      more.set(this.buf);
      this.buf = more;
    }
    const b = this.buf;
    let p = this.pos;
    let z = ((value << 1) ^ (value >> 31)) >>> 0;
    while (z > 0x7f) {
      b[p++] = (z & 0x7f) | 0x80;
      z >>>= 7;
    }
    b[p++] = z;
    this.pos = p;
  }

  /** The bytes written (a view: the writer keeps it as it is, so this packer is not used again). */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.pos);
  }
}

function writeTrack(w: BinaryWriter, t: TrackColumns): void {
  const n = t.count;
  w.tag(1, WireType.LengthDelimited).string(t.imei);
  const unit = timeUnit(t.times, n);
  if (unit > 0) {
    const origin = n > 0 ? t.times[0]! : 0;
    w.tag(2, WireType.Bit64).double(origin);
    w.tag(3, WireType.Varint).uint32(unit);
    const deltas = new PackedSint32(n);
    let prev = origin;
    for (let i = 0; i < n; i++) {
      const v = t.times[i]!;
      deltas.add((v - prev) / unit);
      prev = v;
    }
    w.tag(4, WireType.LengthDelimited).bytes(deltas.bytes());
  } else {
    w.tag(10, WireType.LengthDelimited).fork();
    for (let i = 0; i < n; i++) w.double(t.times[i]!);
    w.join();
  }
  for (const [field, offset] of [[5, 0], [6, 1]] as const) {
    const deltas = new PackedSint32(n);
    let prev = 0;
    for (let i = 0; i < n; i++) {
      const v = Math.round(t.lonLat[2 * i + offset]! * COORD_SCALE);
      deltas.add(v - prev);
      prev = v;
    }
    w.tag(field, WireType.LengthDelimited).bytes(deltas.bytes());
  }
  const altitudes = new PackedSint32(n);
  let prevAlt = 0;
  const flags = new Uint8Array(n);
  const grades = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const a = t.alt[i];
    let f = t.flags[i]! & (TrackFlag.Valid | TrackFlag.Averaged);
    if (a !== null && a !== undefined && Number.isFinite(a)) {
      // Clamped so a corrupt altitude can't overflow 32 bits; §5 calls anything beyond ±10 km invalid anyway.
      const v = Math.round(Math.max(-1e6, Math.min(1e6, a)) * ALT_SCALE);
      altitudes.add(v - prevAlt);
      prevAlt = v;
      f |= TrackFlag.HasAltitude;
    } else altitudes.add(0);
    flags[i] = f;
    grades[i] = t.grade[i]!;
  }
  w.tag(7, WireType.LengthDelimited).bytes(altitudes.bytes());
  w.tag(8, WireType.LengthDelimited).bytes(grades);
  w.tag(9, WireType.LengthDelimited).bytes(flags);
}

export function encodeTrackSet(tracks: readonly TrackColumns[]): Uint8Array {
  const w = new BinaryWriter();
  for (const t of tracks) {
    w.tag(1, WireType.LengthDelimited).fork();
    writeTrack(w, t);
    w.join();
  }
  return w.finish();
}

/** One Track message on its own: a segment the server can keep and send again as it is. */
export function encodeTrack(track: TrackColumns): Uint8Array {
  const w = new BinaryWriter();
  writeTrack(w, track);
  return w.finish();
}

/**
 * A TrackSet from encoded Track messages. A device's track may come as several consecutive messages
 * (segments, each with its own deltas); the reader joins them.
 */
export function trackSetFromParts(parts: readonly Uint8Array[]): Uint8Array {
  const w = new BinaryWriter();
  for (const p of parts) w.tag(1, WireType.LengthDelimited).bytes(p);
  return w.finish();
}

/** Reads a packed sint32 field into `out`, starting at `from`; answers how many values it read. */
function readPackedSint32(r: BinaryReader, out: Int32Array | number[], from: number): number {
  const end = r.uint32() + r.pos;
  let i = from;
  while (r.pos < end) out[i++] = r.sint32();
  return i - from;
}

function countVarints(bytes: Uint8Array, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) if (bytes[i]! < 0x80) n++;
  return n;
}

function readTrack(r: BinaryReader, bytes: Uint8Array, end: number): TrackArrays {
  let imei = '';
  let origin = 0;
  let unit = 1;
  let timeDeltas: Int32Array | null = null;
  let timesMs: Float64Array | null = null;
  let lon: Int32Array | null = null;
  let lat: Int32Array | null = null;
  let alt: Int32Array | null = null;
  let grade: Uint8Array = new Uint8Array(0);
  let flags: Uint8Array = new Uint8Array(0);
  const packed = (): Int32Array => {
    // The length prefix tells the bytes, not the values: count the varints' last bytes first.
    const save = r.pos;
    const len = r.uint32();
    const out = new Int32Array(countVarints(bytes, r.pos, r.pos + len));
    r.pos = save;
    readPackedSint32(r, out, 0);
    return out;
  };
  while (r.pos < end) {
    const [field, wire] = r.tag();
    switch (field) {
      case 1: imei = r.string(); break;
      case 2: origin = r.double(); break;
      case 3: unit = r.uint32(); break;
      case 4: timeDeltas = packed(); break;
      case 5: lon = packed(); break;
      case 6: lat = packed(); break;
      case 7: alt = packed(); break;
      case 8: grade = r.bytes(); break;
      case 9: flags = r.bytes(); break;
      case 10: {
        const len = r.uint32();
        timesMs = new Float64Array(len / 8);
        for (let i = 0; i < timesMs.length; i++) timesMs[i] = r.double();
        break;
      }
      default: r.skip(wire, field);
    }
  }
  const count = flags.length;
  const times = timesMs ?? new Float64Array(count);
  if (!timesMs && timeDeltas) {
    let t = origin;
    for (let i = 0; i < count; i++) {
      t += timeDeltas[i]! * unit;
      times[i] = t;
    }
  }
  const lonLat = new Float64Array(2 * count);
  const altitude = new Float32Array(count);
  const valid = new Uint8Array(count);
  const averaged = new Uint8Array(count);
  let x = 0;
  let y = 0;
  let z = 0;
  for (let i = 0; i < count; i++) {
    x += lon ? lon[i]! : 0;
    y += lat ? lat[i]! : 0;
    z += alt ? alt[i]! : 0;
    lonLat[2 * i] = x / COORD_SCALE;
    lonLat[2 * i + 1] = y / COORD_SCALE;
    const f = flags[i]!;
    altitude[i] = f & TrackFlag.HasAltitude ? z / ALT_SCALE : NaN;
    valid[i] = f & TrackFlag.Valid ? 1 : 0;
    averaged[i] = f & TrackFlag.Averaged ? 1 : 0;
  }
  // The grades are copied: r.bytes() is a view into the whole message, so every track's grades would share
  // one buffer, and a worker handing the tracks over (transfer list) would list that buffer twice.
  return { imei, count, times, lonLat, alt: altitude, grade: grade.length === count ? grade.slice() : new Uint8Array(count), valid, averaged };
}

function concat(parts: readonly TrackArrays[]): TrackArrays {
  if (parts.length === 1) return parts[0]!;
  const count = parts.reduce((n, p) => n + p.count, 0);
  const out: TrackArrays = {
    imei: parts[0]!.imei,
    count,
    times: new Float64Array(count),
    lonLat: new Float64Array(2 * count),
    alt: new Float32Array(count),
    grade: new Uint8Array(count),
    valid: new Uint8Array(count),
    averaged: new Uint8Array(count),
  };
  let at = 0;
  for (const p of parts) {
    out.times.set(p.times, at);
    out.lonLat.set(p.lonLat, 2 * at);
    out.alt.set(p.alt, at);
    out.grade.set(p.grade, at);
    out.valid.set(p.valid, at);
    out.averaged.set(p.averaged, at);
    at += p.count;
  }
  return out;
}

/** The tracks of a TrackSet, one per device: consecutive segments of a device are joined. */
export function decodeTrackSet(bytes: Uint8Array): TrackArrays[] {
  const r = new BinaryReader(bytes);
  const tracks: TrackArrays[] = [];
  let run: TrackArrays[] = [];
  while (r.pos < r.len) {
    const [field, wire] = r.tag();
    if (field === 1 && wire === WireType.LengthDelimited) {
      const len = r.uint32();
      const t = readTrack(r, bytes, r.pos + len);
      if (run.length > 0 && run[0]!.imei !== t.imei) {
        tracks.push(concat(run));
        run = [];
      }
      run.push(t);
    } else r.skip(wire, field);
  }
  if (run.length > 0) tracks.push(concat(run));
  return tracks;
}
