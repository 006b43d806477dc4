import {
  type Burst,
  FIX_OPTIONAL_COLUMNS,
  type FixColumns,
  INGEST_MAX_FUTURE_MS,
  INGEST_MAX_RECORDS,
  type IngestBatch,
  INGEST_MAX_FIELD_RECORDS,
  isValidPosition,
  packBurstCounts,
  POI_PHOTO_MAX_BYTES,
  SensorKind,
  type SensorKindName,
} from '@wildtrack/contract';
import { createHash } from 'node:crypto';
import type { AccBurstTable, BehaviorRecordTable, FixTable, PoiRecordTable, SensorRecordTable } from '../db/schema.js';
import { now as clockNow } from '../lib/clock.js';

/** A batch that can't be stored: refused whole, with a reason naming the record and field. */
export class BatchRefused extends Error {
  constructor(
    readonly error: string,
    readonly reason: string,
  ) {
    super(`${error}: ${reason}`);
    this.name = 'BatchRefused';
  }
}

/** A fix as the batch gives it: the table's row without what the server adds (device, arrival, marks by users). */
export type FixRow = Omit<FixTable, 'device_id' | 'received_at' | 'invalid_by' | 'invalid_reason'>;

export type SensorRow = Omit<SensorRecordTable, 'device_id' | 'received_at'>;

export type BurstRow = Omit<AccBurstTable, 'device_id' | 'received_at' | 'encoding'> & { encoding: number };

export interface DecodedBatch {
  fixes: FixRow[];
  sensors: SensorRow[];
  bursts: BurstRow[];
  /** Field records (phones): absent in batches that carry none. */
  pois?: PoiDraft[];
  behaviors?: BehaviorDraft[];
  /** Latest record time and voltage seen, for the device's last-work fields. */
  lastTime: number | null;
  lastVoltage: number | null;
  /**
   * History loaded after the fact (a Movebank import), not the device speaking now: it raises no detected
   * events (no "reports again", no "battery low" about a drop years ago).
   */
  history?: true;
}

/** A POI photo: its bytes and the name it is stored under (its SHA-256 and type: the same photo is one file). */
export interface PoiPhoto {
  name: string;
  bytes: Buffer;
}

/** A POI as stored (photos: the JSON array of its photo names) with the photos to write first. */
export interface PoiDraft {
  row: Omit<PoiRecordTable, 'id' | 'device_id' | 'received_at'>;
  photos: PoiPhoto[];
}

/** An observation as stored but for its motion, given as the phone named it (resolved when written). */
export type BehaviorDraft = Omit<BehaviorRecordTable, 'id' | 'device_id' | 'received_at' | 'motion_id'> & { motion: string };

/** A record's time: epoch milliseconds, at most INGEST_MAX_FUTURE_MS ahead (batches and media alike). */
export function checkTime(t: number, where: string, now: number): void {
  if (!Number.isSafeInteger(t) || t < 0) throw new BatchRefused('bad_time', `${where}: time must be epoch milliseconds`);
  if (t > now + INGEST_MAX_FUTURE_MS) {
    throw new BatchRefused('future_time', `${where}: ${new Date(t).toISOString()} is more than a day in the future`);
  }
}

function finite(v: number, where: string): number {
  if (!Number.isFinite(v)) throw new BatchRefused('not_finite', `${where}: NaN or Infinity`);
  return v;
}

/** A value of a fix column; the place is named only when refusing (this runs 12 times a fix). */
function optional(col: (number | null)[] | undefined, i: number, name: string): number | null {
  const v = col?.[i];
  if (v === null || v === undefined) return null;
  if (!Number.isFinite(v)) throw new BatchRefused('not_finite', `fixes[${i}].${name}: NaN or Infinity`);
  return v;
}

function decodeFixes(f: FixColumns, now: number, out: DecodedBatch): void {
  const n = f.t.length;
  if (f.lon.length !== n || f.lat.length !== n) throw new BatchRefused('bad_columns', 'fixes: lon and lat must have the length of t');
  for (const name of FIX_OPTIONAL_COLUMNS) {
    const col = f[name];
    if (col && col.length !== n) throw new BatchRefused('bad_columns', `fixes.${name}: ${col.length} values for ${n} fixes`);
  }
  for (let i = 0; i < n; i++) {
    const t = f.t[i]!;
    if (!Number.isSafeInteger(t) || t < 0 || t > now + INGEST_MAX_FUTURE_MS) checkTime(t, `fixes[${i}]`, now);
    const lon = optional(f.lon, i, 'lon');
    const lat = optional(f.lat, i, 'lat');
    if ((lon === null) !== (lat === null)) throw new BatchRefused('bad_position', `fixes[${i}]: lon and lat must both be given or both be null`);
    const alt = optional(f.alt, i, 'alt');
    const speed = optional(f.speed, i, 'speed');
    const voltage = optional(f.voltage, i, 'voltage');
    out.fixes.push({
      pick_time: t,
      lon,
      lat,
      alt,
      speed: speed === null || speed === -1 ? null : speed,
      course: optional(f.course, i, 'course'),
      temperature: optional(f.temp, i, 'temp'),
      activity: optional(f.activity, i, 'activity'),
      voltage,
      channel: optional(f.channel, i, 'channel'),
      satellites: optional(f.sats, i, 'sats'),
      hdop: optional(f.hdop, i, 'hdop'),
      vdop: optional(f.vdop, i, 'vdop'),
      grade: optional(f.grade, i, 'grade'),
      valid: lon !== null && lat !== null && isValidPosition(lon, lat, alt) ? 1 : 0,
      tx_time: optional(f.tx, i, 'tx'),
      invalid_at: null,
      extra: null,
    });
    if (out.lastTime === null || t >= out.lastTime) {
      out.lastTime = t;
      if (voltage !== null) out.lastVoltage = voltage;
    }
  }
}

/** Default calibration when a device sends none: 12-bit counts centred on 2048 (e-obs style). */
export const DEFAULT_SCALE = 0.0027;
export const DEFAULT_OFFSET = 2048;

function base64Bytes(text: string, where: string, what: 'samples' | 'photo' = 'samples'): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new BatchRefused(`bad_${what}`, `${where}: ${what === 'samples' ? 'samples' : 'a photo'} must be base64`);
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/**
 * A burst as stored: its counts packed (encoding 1: varint differences per axis) and its mean ODBA. ODBA
 * per sample, for each axis the calibrated value minus the burst's mean (the static part) summed as
 * absolute values over the axes, is computed again on read (modules/sensor/burst-samples.ts), not stored.
 */
export function burstRow(
  b: { t: number; hz: number; axes: string; raw: Int16Array; scale?: number[] | undefined; offset?: number[] | undefined; extra?: string | null },
  where: string,
): BurstRow {
  const axes = b.axes.length;
  if (b.raw.length === 0 || b.raw.length % axes !== 0) {
    throw new BatchRefused('bad_samples', `${where}: ${b.raw.length} samples don't divide into ${axes} axes`);
  }
  const scale = b.scale ?? Array(axes).fill(DEFAULT_SCALE);
  const offset = b.offset ?? Array(axes).fill(DEFAULT_OFFSET);
  if (scale.length !== axes || offset.length !== axes) throw new BatchRefused('bad_calibration', `${where}: one scale and offset per axis`);
  scale.forEach((v, i) => finite(v, `${where}.scale[${i}]`));
  offset.forEach((v, i) => finite(v, `${where}.offset[${i}]`));
  const n = b.raw.length / axes;
  const mean = new Float64Array(axes);
  for (let i = 0; i < n; i++) for (let a = 0; a < axes; a++) mean[a]! += (b.raw[i * axes + a]! - offset[a]!) * scale[a]!;
  for (let a = 0; a < axes; a++) mean[a]! /= n;
  let total = 0;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let a = 0; a < axes; a++) sum += Math.abs((b.raw[i * axes + a]! - offset[a]!) * scale[a]! - mean[a]!);
    total += sum;
  }
  return {
    start_time: b.t,
    hz: b.hz,
    axes: b.axes,
    sample_count: n,
    // Packed (encoding 1): varint differences per axis, ODBA computed on read (modules/sensor/burst-samples.ts).
    samples: packBurstCounts(b.raw, b.axes, n),
    odba: new Uint8Array(0),
    encoding: 1,
    mean_odba: total / n,
    calibration: JSON.stringify({ scale, offset }),
    extra: b.extra ?? null,
  };
}

function decodeBurst(b: Burst, i: number, now: number): BurstRow {
  const where = `bursts[${i}]`;
  checkTime(b.t, where, now);
  const bytes = base64Bytes(b.samples, where);
  if (bytes.length % 2 !== 0) throw new BatchRefused('bad_samples', `${where}: odd number of sample bytes`);
  const raw = new Int16Array(bytes.length / 2);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let k = 0; k < raw.length; k++) raw[k] = view.getInt16(k * 2, true);
  return burstRow({ t: b.t, hz: b.hz, axes: b.axes, raw, scale: b.scale, offset: b.offset }, where);
}

/** Checks a schema-valid batch in full and turns it into rows; throws BatchRefused, storing nothing. */
export function decodeBatch(batch: IngestBatch, now = clockNow()): DecodedBatch {
  const count =
    (batch.fixes?.t.length ?? 0) + (batch.sensors ?? []).reduce((n, s) => n + s.t.length, 0) + (batch.bursts?.length ?? 0);
  if (count > INGEST_MAX_RECORDS) throw new BatchRefused('too_many_records', `${count} records; at most ${INGEST_MAX_RECORDS} per batch`);
  const out: DecodedBatch = { fixes: [], sensors: [], bursts: [], lastTime: null, lastVoltage: null };
  if (batch.fixes) decodeFixes(batch.fixes, now, out);
  (batch.sensors ?? []).forEach((s, si) => {
    const layout = SensorKind[s.kind as SensorKindName];
    if (s.v.length !== s.t.length) throw new BatchRefused('bad_columns', `sensors[${si}]: v must have the length of t`);
    for (let i = 0; i < s.t.length; i++) {
      const t = s.t[i]!;
      if (!Number.isSafeInteger(t) || t < 0 || t > now + INGEST_MAX_FUTURE_MS) checkTime(t, `sensors[${si}][${i}]`, now);
      const v = s.v[i]!;
      if (v.length !== layout.values.length) {
        throw new BatchRefused('bad_columns', `sensors[${si}][${i}]: ${s.kind} records hold ${layout.values.length} value(s) (${layout.values.join(', ')})`);
      }
      for (let k = 0; k < v.length; k++) if (!Number.isFinite(v[k])) finite(v[k]!, `sensors[${si}][${i}].v[${k}]`);
      out.sensors.push({ kind: layout.id, time: s.t[i]!, v1: v[0]!, v2: v[1] ?? null, v3: v[2] ?? null, v4: v[3] ?? null });
    }
  });
  (batch.bursts ?? []).forEach((b, i) => out.bursts.push(decodeBurst(b, i, now)));
  decodeField(batch, now, out);
  for (const r of out.sensors) if (out.lastTime === null || r.time > out.lastTime) out.lastTime = r.time;
  for (const r of out.bursts) if (out.lastTime === null || r.start_time > out.lastTime) out.lastTime = r.start_time;
  return out;
}

/** A photo's type from its first bytes: JPEG or PNG, nothing else (a photo is served as an image). */
function photoType(bytes: Buffer): 'jpg' | 'png' | null {
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpg';
  if (bytes.length > 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  return null;
}

/** POIs (photos decoded and checked) and behaviour observations; the motion is resolved when written. */
function decodeField(batch: IngestBatch, now: number, out: DecodedBatch): void {
  const pois = batch.pois ?? [];
  const behaviors = batch.behaviors ?? [];
  if (pois.length + behaviors.length > INGEST_MAX_FIELD_RECORDS) {
    throw new BatchRefused('too_many_records', `${pois.length + behaviors.length} field records; at most ${INGEST_MAX_FIELD_RECORDS} per batch`);
  }
  if (pois.length > 0) {
    out.pois = pois.map((p, i) => {
      const where = `pois[${i}]`;
      checkTime(p.t, where, now);
      const photos = p.photos.map((text, k): PoiPhoto => {
        const bytes = Buffer.from(base64Bytes(text, `${where}.photos[${k}]`, 'photo'));
        if (bytes.length > POI_PHOTO_MAX_BYTES) throw new BatchRefused('too_large', `${where}.photos[${k}]: a photo may hold ${POI_PHOTO_MAX_BYTES} bytes`);
        const type = photoType(bytes);
        if (!type) throw new BatchRefused('bad_photo', `${where}.photos[${k}]: a photo must be a JPEG or PNG file`);
        return { name: `${createHash('sha256').update(bytes).digest('hex')}.${type}`, bytes };
      });
      return {
        row: {
          record_time: p.t,
          recorder: p.recorder,
          recorder_name: p.recorderName,
          name: p.name,
          target: p.target,
          lon: p.lon,
          lat: p.lat,
          alt: p.alt === undefined || p.alt === null ? null : finite(p.alt, `${where}.alt`),
          address: p.address,
          description: p.description,
          photos: JSON.stringify(photos.map((ph) => ph.name)),
        },
        photos,
      };
    });
  }
  if (behaviors.length > 0) {
    out.behaviors = behaviors.map((b, i) => {
      const where = `behaviors[${i}]`;
      checkTime(b.start, `${where}.start`, now);
      checkTime(b.end, `${where}.end`, now);
      if (b.end < b.start) throw new BatchRefused('bad_time', `${where}: end is before start`);
      return { start_time: b.start, end_time: b.end, recorder: b.recorder, recorder_name: b.recorderName, lon: b.lon, lat: b.lat, motion: b.motion };
    });
  }
  for (const p of out.pois ?? []) if (out.lastTime === null || p.row.record_time > out.lastTime) out.lastTime = p.row.record_time;
  for (const b of out.behaviors ?? []) if (out.lastTime === null || b.end_time > out.lastTime) out.lastTime = b.end_time;
}
