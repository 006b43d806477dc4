import {
  type Burst,
  FIX_OPTIONAL_COLUMNS,
  type FixColumns,
  INGEST_MAX_FUTURE_MS,
  INGEST_MAX_RECORDS,
  type IngestBatch,
  isValidPosition,
  SensorKind,
  type SensorKindName,
} from '@wildtrack/contract';
import type { AccBurstTable, FixTable, SensorRecordTable } from '../db/schema.js';

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

export type BurstRow = Omit<AccBurstTable, 'device_id' | 'received_at'>;

export interface DecodedBatch {
  fixes: FixRow[];
  sensors: SensorRow[];
  bursts: BurstRow[];
  /** Latest record time and voltage seen, for the device's last-work fields. */
  lastTime: number | null;
  lastVoltage: number | null;
}

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

function base64Bytes(text: string, where: string): Uint8Array {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw new BatchRefused('bad_samples', `${where}: samples must be base64`);
  return new Uint8Array(Buffer.from(text, 'base64'));
}

/**
 * ODBA per sample: for each axis, the calibrated value minus the burst's mean (the static part),
 * summed as absolute values over the axes; stored as uint16 milli-g.
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
  const odba = new Uint8Array(n * 2);
  const view = new DataView(odba.buffer);
  let total = 0;
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let a = 0; a < axes; a++) sum += Math.abs((b.raw[i * axes + a]! - offset[a]!) * scale[a]! - mean[a]!);
    total += sum;
    view.setUint16(i * 2, Math.min(65535, Math.round(sum * 1000)), true);
  }
  const samples = new Uint8Array(b.raw.buffer, b.raw.byteOffset, b.raw.byteLength);
  return {
    start_time: b.t,
    hz: b.hz,
    axes: b.axes,
    sample_count: n,
    samples: new Uint8Array(samples),
    odba,
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
export function decodeBatch(batch: IngestBatch, now = Date.now()): DecodedBatch {
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
  for (const r of out.sensors) if (out.lastTime === null || r.time > out.lastTime) out.lastTime = r.time;
  for (const r of out.bursts) if (out.lastTime === null || r.start_time > out.lastTime) out.lastTime = r.start_time;
  return out;
}
