import { z } from 'zod';
import { defineCall } from '../call.js';
import { orderedRange, PageSchema, TimeZoneField } from '../paging.js';
import { ImeiSchema as imei } from '../validation.js';
import { TimeTextSchema } from './fix.js';

/**
 * Acceleration beyond the JSON pages (§3 Other sensor records, §7.1, §7.2 Sensors and ArchiveRecord, §9
 * Archive): the range's bursts as a file (DownLoadAccelerationDataV2, CSV, 120 s timeout), the range's bursts
 * with every sample as base64 binary for charts (acceleration-codec.ts), and the daily ACC archives of the
 * last 3 days a background job writes after each UTC day closes. Every call needs the device read right; a
 * share's recipient gets only what lies inside the share's window.
 */

/** The longest range the binary call answers: a month and a bit (a month of 20 Hz bursts is ~10 MB). */
export const ACCELERATION_BINARY_MAX_DAYS = 62;
/** How many closed days of archives are kept and listed (§9 Archive). */
export const ACCELERATION_ARCHIVE_DAYS = 3;

/** The CSV columns of the download and of an archive file, one row per sample (§3 Acceleration sample). */
export const ACCELERATION_CSV_COLUMNS = ['IMEI', 'BurstTime', 'Time', 'Frequency', 'Axes', 'OriginX', 'OriginY', 'OriginZ', 'X', 'Y', 'Z', 'ODBA'] as const;

const range = z.object({ imei, startTime: TimeTextSchema, endTime: TimeTextSchema, timeZone: TimeZoneField }).superRefine(orderedRange);

export const DownLoadAccelerationDataV2 = defineCall({
  path: '/api/Sensor/DownLoadAccelerationDataV2',
  auth: 'session',
  access: 'device read',
  body: range,
  data: z.null(),
  download: { type: 'text/csv; charset=utf-8' },
  timeout: 'long',
  summary:
    "Downloads a device's acceleration bursts of the range as CSV, one row per sample (ACCELERATION_CSV_COLUMNS, times in the caller's zone), streamed; named acceleration(<IMEI>).csv.",
});

export const GetAccelerationBinaryV2 = defineCall({
  path: '/api/Sensor/GetAccelerationBinaryV2',
  auth: 'session',
  access: 'device read',
  body: range,
  data: z.object({
    /** Bursts in Data. */
    Count: z.number().int(),
    /** Samples over all bursts. */
    SampleCount: z.number().int(),
    /** base64 of the series (acceleration-codec.ts), bursts in start order. */
    Data: z.string(),
  }),
  bytes: 'Data',
  summary: `A device's acceleration bursts of the range (at most ${ACCELERATION_BINARY_MAX_DAYS} days) with every sample, as base64 binary (acceleration-codec.ts) for charts.`,
});

/** An archive file (§3 ArchiveRecord): one device's ACC of one UTC day. */
export const ArchiveRecordSchema = z.object({
  Id: z.string(),
  IMEI: z.string(),
  /** The UTC day archived, 'YYYY-MM-DD'. */
  ArchiveDate: z.string(),
  /** The file's name, for DownloadAccelerationArchive. */
  FilePath: z.string(),
  /** Samples (CSV rows) in the file. */
  RecordCount: z.number().int(),
  /** Bytes. */
  FileSize: z.number().int(),
  /** When the job wrote it, caller's zone. */
  CreateTime: z.string(),
});
export type ArchiveRecord = z.infer<typeof ArchiveRecordSchema>;

const archiveOf = z.object({ imei, timeZone: TimeZoneField });

export const GetAccelerationArchiveCount = defineCall({
  path: '/api/ArchiveRecord/GetAccelerationCount',
  auth: 'session',
  access: 'device read',
  body: archiveOf,
  data: z.object({ Count: z.number().int() }),
  summary: `How many daily ACC archive files a device has (the last ${ACCELERATION_ARCHIVE_DAYS} closed days).`,
});

export const GetAccelerationArchiveList = defineCall({
  path: '/api/ArchiveRecord/GetAccelerationList',
  auth: 'session',
  access: 'device read',
  body: archiveOf.extend(PageSchema),
  data: z.object({ List: z.array(ArchiveRecordSchema), Total: z.number().int() }),
  summary: `A device's daily ACC archive files of the last ${ACCELERATION_ARCHIVE_DAYS} closed days, newest first, with record count and size.`,
});

export const DownloadAccelerationArchive = defineCall({
  path: '/api/ArchiveRecord/DownloadAcceleration',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei, archiveDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'validation.date' }) }),
  data: z.null(),
  download: { type: 'text/csv; charset=utf-8' },
  timeout: 'long',
  summary: "Downloads one daily ACC archive file of a device (CSV as DownLoadAccelerationDataV2's), named acceleration(<IMEI>)-<date>.csv.",
});
