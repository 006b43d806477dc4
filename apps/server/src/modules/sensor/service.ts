import {
  ACCELERATION_FLAGS,
  type AccelerationBurst,
  type AccelerationSample,
  type calls,
  formatTime,
  message,
  SENSOR_CALL_KINDS,
  SENSOR_KINDS,
  type SensorKindRow,
  type SensorRecordOf,
  type SensorFlagName,
  SensorFlag,
  SensorKind,
  type SensorKindName,
  type SortOrder,
  encodeSensorSeries,
} from '@wildtrack/contract';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.js';
import { checkedRange } from '../../http/range.js';
import { FieldRefusal } from '../../http/errors.js';
import { clampAsked } from '../device/access.js';
import type { DeviceGate } from '../device/gate.js';
import { burstSamples } from './burst-samples.js';
import type { BurstColumn, BurstRow, SensorColumn, SensorQuery, SensorRepository, SensorRow } from './repository.js';

/** What a count call's body holds once checked (every kind's count takes the same body). */
export type RangeBody = z.output<typeof calls.GetTemperatureCount.body>;

/** What a list call's body holds once checked; the sort field is the kind's own. */
export interface PageBody extends RangeBody {
  currentPage: number;
  pageSize: number;
  sortField?: string | undefined;
  sortOrder?: SortOrder | undefined;
}

/** A page of any kind's records. */
export interface RecordPage<R> {
  List: R[];
  Total: number;
}


const VALUE_COLUMNS: readonly SensorColumn[] = ['v1', 'v2', 'v3', 'v4'];
const AXES = ['X', 'Y', 'Z'] as const;

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A sample's time in the caller's zone with its milliseconds: 'YYYY-MM-DD HH:mm:ss.SSS'. */
export function formatTimeMs(ms: number, zone: string): string {
  return `${formatTime(ms, zone)}.${pad(((ms % 1000) + 1000) % 1000, 3)}`;
}

/** Rounds a calibrated value to 10⁻⁵ g: finer than any tag's resolution, and short on the wire. */
const g = (v: number) => Math.round(v * 1e5) / 1e5;

/**
 * A stored burst as the console reads it: the raw counts (interleaved by axis, as the tag sent them),
 * calibrated with the burst's own scale and offset, and the ODBA per sample in milli-g (burst-samples.ts,
 * whichever encoding stored it). Sample i is at start + i / hz.
 */
export function burstOf(row: BurstRow, zone: string): AccelerationBurst {
  const axes = row.axes.length;
  const n = row.sample_count;
  const { raw, odba, scale, offset } = burstSamples(row);
  // Which sample column holds each of X, Y, Z (-1: the burst did not sample that axis).
  const column = AXES.map((a) => row.axes.indexOf(a));
  const samples: AccelerationSample[] = new Array<AccelerationSample>(n);
  for (let i = 0; i < n; i++) {
    const origin = column.map((c) => (c < 0 ? null : raw[i * axes + c]!));
    const calibrated = origin.map((v, k) => (v === null ? null : g((v - offset[column[k]!]!) * scale[column[k]!]!)));
    samples[i] = {
      Time: formatTimeMs(row.start_time + Math.round((i * 1000) / row.hz), zone),
      OriginX: origin[0]!,
      OriginY: origin[1]!,
      OriginZ: origin[2]!,
      X: calibrated[0]!,
      Y: calibrated[1]!,
      Z: calibrated[2]!,
      ODBA: odba[i]! / 1000,
    };
  }
  return {
    Id: String(row.start_time),
    Time: formatTime(row.start_time, zone),
    Frequency: row.hz,
    Axes: row.axes,
    SampleCount: n,
    MeanODBA: g(row.mean_odba),
    Samples: samples,
  };
}

/** A scalar record with the kind's field names (§3) in its stored value order. */
export function recordOf<K extends SensorKindName>(kind: K, row: SensorRow, zone: string): SensorRecordOf<K> {
  const record: Record<string, string | number> = { Time: formatTime(row.time, zone) };
  SensorKind[kind].values.forEach((name, i) => {
    record[name] = Number(row[VALUE_COLUMNS[i]!] ?? 0);
  });
  // The fields are the kind's layout (SensorKind) by construction; the route test parses every kind's page with its schema.
  return record as SensorRecordOf<K>;
}

/** The stored column a kind's sort field names: Time, or its n-th value. */
function sensorColumn(kind: SensorKindName, field: string | undefined): SensorColumn {
  const i = (SensorKind[kind].values as readonly string[]).indexOf(field ?? 'Time');
  return i < 0 ? 'time' : VALUE_COLUMNS[i]!;
}

/** A device's range the caller may see, with the device's IMEI. */
export interface VisibleRange extends SensorQuery {
  imei: string;
}

/**
 * The device's records the caller may see in the body's range: the range checked (real dates, at most
 * MAX_QUERY_SPAN_DAYS; the end second included whole), the device visible and offering one of `flags`,
 * clamped to a share's data period (a range missing all of it refused, clampAsked). Undefined when nothing of the range is visible. Shared by the sensor
 * calls and the acceleration downloads (sensor/acceleration.ts).
 */
export async function visibleRange(devices: DeviceGate, caller: Caller, body: RangeBody, flags: readonly SensorFlagName[]): Promise<VisibleRange | undefined> {
  const device = await devices.resolve(caller, body.imei);
  const { from, to } = checkedRange(caller, body);
  if (!flags.some((f) => (Number(device.sensors) & SensorFlag[f]) !== 0)) {
    throw new FieldRefusal(['imei'], 'sensor.none', { sensor: message(caller.lang, `sensor.${flags[0]!}`) });
  }
  const q = { deviceId: Number(device.id), ...clampAsked({ from, to }, device.access, caller.zone) };
  return q.from <= q.to ? { ...q, imei: device.imei } : undefined;
}

/**
 * The console's reads of what devices record besides positions (§3 Other sensor records, §7.2 Sensors):
 * per kind a count and a page over a range, through the caller's access (a share's window bounds what its
 * recipient sees) and only for a device whose sensor flags offer the kind; times in the caller's zone.
 */
export class SensorService {
  constructor(
    private readonly devices: DeviceGate,
    private readonly records: SensorRepository,
  ) {}

  private query(caller: Caller, body: RangeBody, flags: readonly SensorFlagName[]): Promise<SensorQuery | undefined> {
    return visibleRange(this.devices, caller, body, flags);
  }

  async count(caller: Caller, kind: SensorKindName, body: RangeBody): Promise<number> {
    const q = await this.query(caller, body, [SENSOR_CALL_KINDS[kind].flag]);
    return q ? this.records.count(SensorKind[kind].id, q) : 0;
  }

  async page<K extends SensorKindName>(caller: Caller, kind: K, body: PageBody): Promise<RecordPage<SensorRecordOf<K>>> {
    const q = await this.query(caller, body, [SENSOR_CALL_KINDS[kind].flag]);
    if (!q) return { List: [], Total: 0 };
    const id = SensorKind[kind].id;
    const [total, rows] = await Promise.all([
      this.records.count(id, q),
      this.records.page(id, q, {
        column: sensorColumn(kind, body.sortField),
        descending: body.sortOrder !== 'ascend',
        limit: body.pageSize,
        offset: (body.currentPage - 1) * body.pageSize,
      }),
    ]);
    return { List: rows.map((r) => recordOf(kind, r, caller.zone)), Total: total };
  }

  /**
   * A kind's series for a chart `width` pixels wide (Sensor/GetSeries): every record when there are at
   * most 2 × width, else the envelope of `width` equal buckets over the visible range; base64 protobuf.
   */
  async series(caller: Caller, body: z.output<typeof calls.GetSensorSeries.body>): Promise<string> {
    const kind = body.kind;
    const values = SensorKind[kind].values.length;
    const q = await this.query(caller, body, [SENSOR_CALL_KINDS[kind].flag]);
    const empty = { values, total: 0, bucketMs: 0, count: 0, times: new Float64Array(0), mean: new Float32Array(0), min: new Float32Array(0), max: new Float32Array(0), counts: new Uint32Array(0) };
    if (!q) return Buffer.from(encodeSensorSeries(empty)).toString('base64');
    const id = SensorKind[kind].id;
    const few = await this.records.first(id, q, 2 * body.width + 1);
    if (few.length <= 2 * body.width) {
      const n = few.length;
      const times = new Float64Array(n);
      const mean = new Float32Array(n * values);
      few.forEach((r, i) => {
        times[i] = r.time;
        for (let k = 0; k < values; k++) mean[k * n + i] = Number(r[VALUE_COLUMNS[k]!] ?? NaN);
      });
      return Buffer.from(encodeSensorSeries({ ...empty, total: n, count: n, times, mean })).toString('base64');
    }
    const bucketMs = Math.max(1, Math.ceil((q.to - q.from + 1) / body.width));
    // compass angles (degrees, wrapping at 360): an envelope's mean of them is circular
    const circular = (SENSOR_KINDS[kind] as SensorKindRow).values.map((v) => v.circular === true);
    const buckets = await this.records.buckets(id, q, bucketMs, values, circular);
    const n = buckets.length;
    const series = {
      values,
      total: 0,
      bucketMs,
      count: n,
      times: new Float64Array(n),
      mean: new Float32Array(n * values),
      min: new Float32Array(n * values),
      max: new Float32Array(n * values),
      counts: new Uint32Array(n),
    };
    buckets.forEach((b, i) => {
      series.total += b.n;
      series.counts[i] = b.n;
      series.times[i] = Math.round(b.time);
      for (let k = 0; k < values; k++) {
        series.mean[k * n + i] = b.mean[k] ?? NaN;
        series.min[k * n + i] = b.min[k] ?? NaN;
        series.max[k * n + i] = b.max[k] ?? NaN;
      }
    });
    return Buffer.from(encodeSensorSeries(series)).toString('base64');
  }

  async burstCount(caller: Caller, body: RangeBody): Promise<number> {
    const q = await this.query(caller, body, ACCELERATION_FLAGS);
    return q ? this.records.burstCount(q) : 0;
  }

  async burstPage(caller: Caller, body: z.output<typeof calls.GetAccelerationListV2.body>): Promise<RecordPage<AccelerationBurst>> {
    const q = await this.query(caller, body, ACCELERATION_FLAGS);
    if (!q) return { List: [], Total: 0 };
    const column: BurstColumn = body.sortField === 'MeanODBA' ? 'mean_odba' : 'start_time';
    const [total, rows] = await Promise.all([
      this.records.burstCount(q),
      this.records.burstPage(q, { column, descending: body.sortOrder !== 'ascend', limit: body.pageSize, offset: (body.currentPage - 1) * body.pageSize }),
    ]);
    return { List: rows.map((r) => burstOf(r, caller.zone)), Total: total };
  }
}
