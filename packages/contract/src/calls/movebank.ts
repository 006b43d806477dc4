import { z } from 'zod';
import { defineCall, EmptyBody } from '../call.js';
import { TimeZoneField } from '../paging.js';
import { freeText, required } from '../validation.js';

/**
 * Movebank import from the console (issue 10 item 7): a Movebank CSV, and optionally its reference data,
 * uploaded into a folder and imported in the background; its progress, its report, and cancelling it.
 */

export const MOVEBANK_IMPORT_PATH = '/api/Movebank/Import';
/** Largest Movebank file (and reference file) the console takes. */
export const MOVEBANK_IMPORT_MAX_BYTES = 1024 * 1024 * 1024;
/**
 * Longest record (characters, its fields together) a Movebank CSV may hold: a burst of raw acceleration
 * is a few kB, so a record past this one is a quote never closed swallowing the file, and the reading
 * stops there (the report names the line) instead of holding the rest of the file in memory.
 */
export const MOVEBANK_MAX_RECORD_CHARS = 1_000_000;
/** The multipart parts of an import, in this order: the fields first, then `file` and the optional `reference`. */
export const MOVEBANK_IMPORT_PARTS = { folderId: 'folderId', file: 'file', reference: 'reference' } as const;

/** The fields of the import's multipart body (checked by the server like any call's body). */
export const MovebankImportFields = z.object({
  folderId: freeText(required).trim().min(1, required).max(40, { error: 'validation.tooLong' }),
});

export const MOVEBANK_IMPORT_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled', 'interrupted'] as const;
export type MovebankImportStatus = (typeof MOVEBANK_IMPORT_STATUSES)[number];
/** Statuses after which nothing changes any more. */
export const MOVEBANK_IMPORT_FINISHED: readonly MovebankImportStatus[] = ['done', 'failed', 'cancelled', 'interrupted'];

const RowExampleSchema = z.object({ Line: z.number().int(), EventId: z.string(), Value: z.string() });
const ReportLineSchema = z.object({
  /** Why, in the caller's language. */
  Reason: z.string(),
  Count: z.number().int(),
  /** The first few rows: the file's line, the row's event-id and the value at fault ('' when none). */
  Examples: z.array(RowExampleSchema),
});

export const MovebankImportReportSchema = z.object({
  /** Data rows read. */
  Rows: z.number().int(),
  /** Fixes stored; duplicates were already there (a re-import stores nothing twice). */
  Stored: z.number().int(),
  Duplicates: z.number().int(),
  WithoutPosition: z.number().int(),
  /** Fixes Movebank marked as outliers (stored invalid). */
  MarkedInvalid: z.number().int(),
  OutOfRange: z.number().int(),
  /** Marks the import changed on fixes already stored: set by Movebank's marks, and lifted. */
  MarksChanged: z.object({ Marked: z.number().int(), Unmarked: z.number().int() }),
  Bursts: z.object({ Stored: z.number().int(), Samples: z.number().int(), Duplicates: z.number().int() }),
  Devices: z.object({ Created: z.number().int(), Reused: z.number().int() }),
  /** The file's delimiter (',' for Movebank's own; ';' or a tab when a spreadsheet re-saved it). */
  Delimiter: z.string(),
  Skipped: z.array(ReportLineSchema),
  Notices: z.array(ReportLineSchema),
  Seconds: z.number(),
  /** The import was cancelled: what it had read is stored, the rest of the file is not. */
  Cancelled: z.boolean(),
});
export type MovebankImportReportData = z.infer<typeof MovebankImportReportSchema>;

export const MovebankImportJobSchema = z.object({
  IdStr: z.string(),
  FolderIdStr: z.string(),
  FileName: z.string(),
  /** The reference-data file's name, '' when none was given. */
  ReferenceFileName: z.string(),
  Status: z.enum(MOVEBANK_IMPORT_STATUSES),
  /** Bytes of the data file, and of it read so far. */
  Size: z.number(),
  BytesRead: z.number(),
  /** Share of the file's bytes read, 0-100. */
  Percent: z.number(),
  Rows: z.number().int(),
  RowsPerSecond: z.number(),
  /** Fixes and bursts stored so far. */
  Stored: z.number().int(),
  CancelRequested: z.boolean(),
  /** Who started it. */
  UserName: z.string(),
  /** In the caller's zone, 'YYYY-MM-DD HH:mm:ss'; '' when not yet. */
  CreateTime: z.string(),
  StartTime: z.string(),
  EndTime: z.string(),
  /** When it ended: what it did. */
  Report: MovebankImportReportSchema.nullable(),
  /** Why it failed or stopped, in the caller's language; '' otherwise. */
  Error: z.string(),
});
export type MovebankImportJob = z.infer<typeof MovebankImportJobSchema>;

const jobRef = z.object({ id: freeText(required).trim().min(1, required).max(20, { error: 'validation.tooLong' }), timeZone: TimeZoneField });

/**
 * Multipart: `folderId` (a folder of the caller's organisation, or '-1' the root), then `file` (the
 * Movebank CSV) and optionally `reference` (its reference data), signed over an empty body like the
 * image upload. The files are streamed to disk; the import runs in the background. Needs EditDevice
 * on the folder's organisation.
 */
export const MovebankImport = defineCall({
  path: MOVEBANK_IMPORT_PATH,
  auth: 'session',
  access: 'folder edit',
  body: EmptyBody,
  multipart: { fields: MovebankImportFields, files: [MOVEBANK_IMPORT_PARTS.file, MOVEBANK_IMPORT_PARTS.reference] },
  data: MovebankImportJobSchema,
  timeout: 'long',
  summary: 'Uploads a Movebank CSV (multipart folderId, file, optional reference) into a folder and queues its import; answers the job.',
});

export const GetMovebankImportList = defineCall({
  path: '/api/Movebank/GetImportList',
  auth: 'session',
  access: 'session',
  body: z.object({ timeZone: TimeZoneField }).nullish(),
  data: z.array(MovebankImportJobSchema),
  summary: "The organisation's latest Movebank imports (at most 20, newest first) with their progress and reports.",
});

export const GetMovebankImport = defineCall({
  path: '/api/Movebank/GetImport',
  auth: 'session',
  access: 'session',
  body: jobRef,
  data: MovebankImportJobSchema,
  summary: 'One Movebank import of the organisation: progress (rows, % of bytes, rows/s) and, once ended, its report.',
});

export const CancelMovebankImport = defineCall({
  path: '/api/Movebank/CancelImport',
  auth: 'session',
  access: 'session',
  body: jobRef,
  data: MovebankImportJobSchema,
  summary: 'Cancels a queued or running Movebank import; answers the job once it stopped, with the rows stored before it did.',
});
