import { Readable } from 'node:stream';
import {
  ACCELERATION_BINARY_MAX_DAYS,
  ACCELERATION_CSV_COLUMNS,
  ACCELERATION_FLAGS,
  type BurstBlob,
  type calls,
  encodeAccelerationSeries,
  joinAccelerationSeries,
} from '@wildtrack/contract';
import { neutralise, timeText, zonedHeader } from '../export/cells.js';
import type { z } from 'zod';
import { DAY_MS } from '../../domain/track-days.js';
import type { Caller } from '../../http/caller.js';
import type { FileAnswer } from '../../http/calls.js';
import { FieldRefusal } from '../../http/errors.js';
import type { DeviceGate } from '../device/gate.js';
import { type BurstRepository, HOUR_MS } from './burst-repository.js';
import { burstSamples } from './burst-samples.js';
import type { BurstRow, SensorQuery } from './repository.js';
import { SeriesCache } from './series-cache.js';
import { formatTimeMs, visibleRange } from './service.js';

type RangeBody = z.output<typeof calls.DownLoadAccelerationDataV2.body>;

const AXES = ['X', 'Y', 'Z'] as const;
/** Excel opens a UTF-8 CSV right only with the byte-order mark. */
const BOM = '\uFEFF';

/** A CSV field, quoted when it holds a comma, quote or line break (RFC 4180). */
const csvText = (v: string) => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** A value rounded to 10⁻⁵ g, as the JSON pages write it. */
const g5 = (v: number) => String(Math.round(v * 1e5) / 1e5);

/** The time columns, whose headers name the file's zone: 'BurstTime (UTC+08:00)' (issue 28 item 3). */
const ZONED_COLUMNS: ReadonlySet<string> = new Set(['BurstTime', 'Time']);

/** The CSV's first line, the time columns' headers naming `zone`, as every export's do. */
export function accelerationCsvHeader(zone: string): string {
  return `${BOM}${ACCELERATION_CSV_COLUMNS.map((c) => (ZONED_COLUMNS.has(c) ? zonedHeader(c, zone) : c)).join(',')}\r\n`;
}

/** A stored burst as the binary's encoder takes it: the row's own blobs and its calibration. */
export function burstBlob(row: BurstRow): BurstBlob {
  const { scale, offset } = JSON.parse(row.calibration) as { scale: number[]; offset: number[] };
  const blob = { start: row.start_time, hz: row.hz, axes: row.axes, sampleCount: row.sample_count, samples: row.samples, odba: row.odba, meanOdba: row.mean_odba, scale, offset };
  // Packed counts (encoding 1) are the series' own form: copied as they are.
  return row.encoding === 1 ? { ...blob, packed: row.samples } : blob;
}

/**
 * One burst as CSV lines (ACCELERATION_CSV_COLUMNS), a line per sample: the raw counts, calibrated g and
 * ODBA exactly as the JSON pages give them (service.ts burstOf), times in `zone`. An axis not sampled is empty.
 */
export function burstCsv(row: BurstRow, imei: string, zone: string): string {
  const axes = row.axes.length;
  const n = row.sample_count;
  const { raw, odba, scale, offset } = burstSamples(row);
  const column = AXES.map((a) => row.axes.indexOf(a));
  // the IMEI is the line's one free text (a Movebank tag can start with '='): neutralised as every export's text
  const head = `${csvText(neutralise(imei))},${timeText(row.start_time, zone)},`;
  const tail = `,${row.hz},${row.axes},`;
  const lines: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const origin = column.map((c) => (c < 0 ? null : raw[i * axes + c]!));
    const cal = origin.map((v, k) => (v === null ? '' : g5((v - offset[column[k]!]!) * scale[column[k]!]!)));
    const o = odba[i]! / 1000;
    lines[i] = `${head}${formatTimeMs(row.start_time + Math.round((i * 1000) / row.hz), zone)}${tail}${origin.map((v) => v ?? '').join(',')},${cal.join(',')},${o}\r\n`;
  }
  return lines.join('');
}

/**
 * Samples written between two turns of the event loop: a slice is ~20,000 lines (~2 MB, a few ms of work).
 * A read batch (256 bursts) of a 20 Hz tag is up to 500,000 lines: written at once it held the loop 661 ms
 * for a 10-year file (issue 26), every other user's call waiting.
 */
export const CSV_SLICE_SAMPLES = 20_000;

/**
 * The CSV of a device's bursts in a range as a stream: a batch of bursts read only when the reader wants
 * more, written a slice of CSV_SLICE_SAMPLES at a time with a turn of the event loop (setImmediate) before
 * each, so I/O and other requests go on between slices. One push per read (the header rides with the first),
 * so a read never starts while another is under way.
 */
export function burstCsvStream(bursts: BurstRepository, q: SensorQuery, imei: string, zone: string): Readable {
  const batches = bursts.walk(q);
  let pending: BurstRow[] = [];
  let head = accelerationCsvHeader(zone);
  let done = false;
  return new Readable({
    async read() {
      try {
        if (pending.length === 0 && !done) {
          const next = await batches.next();
          if (next.done) done = true;
          else pending = next.value;
        }
        if (pending.length === 0) {
          if (head) this.push(head);
          head = '';
          this.push(null);
          return;
        }
        await new Promise<void>((resolve) => setImmediate(resolve));
        let samples = 0;
        let take = 0;
        while (take < pending.length && (take === 0 || samples + pending[take]!.sample_count <= CSV_SLICE_SAMPLES)) samples += pending[take++]!.sample_count;
        const slice = pending.slice(0, take);
        pending = pending.slice(take);
        this.push(head + slice.map((r) => burstCsv(r, imei, zone)).join(''));
        head = '';
      } catch (err) {
        this.destroy(err as Error);
      }
    },
    destroy(err, done) {
      void batches.return(undefined).finally(() => done(err));
    },
  });
}

/**
 * Acceleration for researchers beyond the JSON pages (calls/acceleration.ts): the range's bursts as a CSV
 * file, streamed, and as base64 binary with every sample for the console's charts; both through the
 * caller's access and a share's window, for a device with an acceleration flag.
 */
export class AccelerationService {
  constructor(
    private readonly devices: DeviceGate,
    private readonly bursts: BurstRepository,
    /** The binary's encoded hours (series-cache.ts); one per process, checked against the table on each read. */
    private readonly cache = new SeriesCache(),
  ) {}

  async download(caller: Caller, body: RangeBody): Promise<FileAnswer> {
    const q = await visibleRange(this.devices, caller, body, ACCELERATION_FLAGS);
    // Nothing visible is an empty file (the header), as an empty range is.
    const imei = q?.imei ?? body.imei.trim();
    const stream = q ? burstCsvStream(this.bursts, q, imei, caller.zone) : Readable.from([accelerationCsvHeader(caller.zone)]);
    return { name: `acceleration(${imei}).csv`, stream };
  }

  /** Whether the device has a burst in [from, to] (the archive job's day). */
  async hasBursts(deviceId: number, from: number, to: number): Promise<boolean> {
    return (await this.bursts.devicesWithBursts([deviceId], from, to)).length > 0;
  }

  /** How many samples the device's bursts starting in [from, to] hold. */
  sampleCount(deviceId: number, from: number, to: number): Promise<number> {
    return this.bursts.sampleCount(deviceId, from, to);
  }

  /** The CSV of a device's bursts in [from, to], times in `zone`, streamed (the archive job's file). */
  csv(deviceId: number, imei: string, from: number, to: number, zone: string): Readable {
    return burstCsvStream(this.bursts, { deviceId, from, to }, imei, zone);
  }

  /** GetAccelerationBinaryV2's Data: the counts, and the series' bytes the route writes as base64. */
  async binary(caller: Caller, body: RangeBody): Promise<{ Count: number; SampleCount: number; bytes: Uint8Array }> {
    const q = await visibleRange(this.devices, caller, body, ACCELERATION_FLAGS);
    if (q && q.to - q.from > ACCELERATION_BINARY_MAX_DAYS * DAY_MS + DAY_MS) {
      throw new FieldRefusal(['endTime'], 'validation.timeSpan', { days: ACCELERATION_BINARY_MAX_DAYS });
    }
    const { bytes, count, samples } = q ? await this.series(q) : { bytes: encodeAccelerationSeries([]), count: 0, samples: 0 };
    return { Count: count, SampleCount: samples, bytes };
  }

  /**
   * The range's bursts encoded: each hour of the range that holds bursts, from the cache when its print is
   * the table's, else read (consecutive hours to read in one walk) and, when the range covers the whole
   * hour, kept. A month asked again costs one grouped read of the key instead of every burst's samples.
   */
  private async series(q: SensorQuery): Promise<{ bytes: Uint8Array; count: number; samples: number }> {
    const prints = await this.bursts.hourPrints(q);
    const parts: Uint8Array[] = new Array<Uint8Array>(prints.length);
    let count = 0;
    let samples = 0;
    const whole = (hour: number) => hour * HOUR_MS >= q.from && (hour + 1) * HOUR_MS - 1 <= q.to;
    let i = 0;
    while (i < prints.length) {
      const p = prints[i]!;
      const hit = whole(p.hour) ? this.cache.get(q.deviceId, p.hour, p.count, p.sum) : undefined;
      if (hit) {
        parts[i] = hit.bytes;
        count += p.count;
        samples += hit.samples;
        i++;
        continue;
      }
      // A run of hours to read: up to the next one the cache holds.
      let j = i + 1;
      while (j < prints.length && !(whole(prints[j]!.hour) && this.cache.has(q.deviceId, prints[j]!.hour))) j++;
      const from = Math.max(q.from, p.hour * HOUR_MS);
      const to = Math.min(q.to, (prints[j - 1]!.hour + 1) * HOUR_MS - 1);
      const byHour = new Map<number, BurstBlob[]>();
      for await (const batch of this.bursts.walk({ deviceId: q.deviceId, from, to }, 1024, false)) {
        for (const r of batch) {
          const hour = Math.floor(r.start_time / HOUR_MS);
          let list = byHour.get(hour);
          if (!list) byHour.set(hour, (list = []));
          list.push(burstBlob(r));
        }
      }
      for (let k = i; k < j; k++) {
        const { hour, count: n, sum } = prints[k]!;
        const blobs = byHour.get(hour) ?? [];
        const bytes = encodeAccelerationSeries(blobs);
        const hourSamples = blobs.reduce((m, b) => m + b.sampleCount, 0);
        // Kept only when read whole and as printed (no burst arrived between the print and the read).
        if (whole(hour) && blobs.length === n && blobs.reduce((m, b) => m + b.start, 0) === sum) this.cache.set(q.deviceId, hour, { count: n, sum, bytes, samples: hourSamples });
        parts[k] = bytes;
        count += blobs.length;
        samples += hourSamples;
      }
      i = j;
    }
    return { bytes: joinAccelerationSeries(parts), count, samples };
  }
}
