import { z } from 'zod';
import { defineCall } from '../call.js';
import { orderedRange, PageSchema, TimeZoneField } from '../paging.js';
import { freeText, ImeiSchema as imei, required } from '../validation.js';
import { ExportFileTypeSchema, ExportKindSchema, fileTypeCarries, kindRefusal } from './export.js';
import { TimeTextSchema } from './fix.js';

/**
 * Download tasks (§2.1 /download, §3 DownloadTask, §4 Download task, §7.2 DownloadTask): the caller asks
 * for the data of several devices and kinds over a range; a server process claims the task from the
 * database and writes one zip (a file per device × kind); the caller downloads it until it expires.
 */

export const DOWNLOAD_TASK_STATUSES = ['WAITING', 'DOWNLOADING', 'SUCCESSFUL', 'FAILED', 'CANCELLED', 'EXPIRED'] as const;
export type DownloadTaskStatus = (typeof DOWNLOAD_TASK_STATUSES)[number];
export const DownloadTaskStatusSchema = z.enum(DOWNLOAD_TASK_STATUSES);
/** Statuses a task can be cancelled in. */
export const DOWNLOAD_TASK_CANCELLABLE: readonly DownloadTaskStatus[] = ['WAITING', 'DOWNLOADING'];
/** The most devices one task takes. */
export const DOWNLOAD_TASK_MAX_DEVICES = 50;
/** The longest title a task may be given. */
export const DOWNLOAD_TASK_TITLE_MAX = 60;

export const DownloadTaskSchema = z.object({
  Id: z.string(),
  IdStr: z.string(),
  UserId: z.string(),
  Title: z.string(),
  /** The range, in the task's zone (TimeZone), as asked. */
  StartTime: z.string(),
  EndTime: z.string(),
  TimeZone: z.string(),
  Status: DownloadTaskStatusSchema,
  /** Where the file is fetched from (DownloadTask/Download with this task's id); '' unless SUCCESSFUL. */
  FileUrl: z.string(),
  FileName: z.string(),
  /** Bytes of the file, 0 until written. */
  FileSize: z.number(),
  IMEIs: z.array(z.string()),
  Kinds: z.array(ExportKindSchema),
  FileType: ExportFileTypeSchema,
  /**
   * Rows written so far; the rows the files will hold (counted when the task starts, 0 before); Percent is
   * Rows / RowsTotal, 0-100 (files done / files total before the count); EtaMs the estimated time left while
   * DOWNLOADING, from the rate so far (-1: not known yet).
   */
  Rows: z.number().int(),
  RowsTotal: z.number().int(),
  Percent: z.number(),
  EtaMs: z.number().int(),
  /** In the caller's zone, 'YYYY-MM-DD HH:mm:ss'; ExpireTime '' until the file is written. */
  CreateTime: z.string(),
  ExpireTime: z.string(),
  /** Milliseconds until the file expires (shown as days and hours, §9); 0 when expired or not written. */
  RemainingMs: z.number(),
  /** Why it failed, in the caller's language; '' otherwise. */
  Error: z.string(),
  /**
   * A WAITING task's place in the queue of every user's waiting tasks: 1 is the next a server takes up. The
   * queue is fair between users (each user's oldest task in turn, the user served least recently first), so
   * it is the order tasks will start in, not a time; 0 when not WAITING.
   */
  QueuePosition: z.number().int(),
});
export type DownloadTask = z.infer<typeof DownloadTaskSchema>;

const taskRef = z.object({ id: z.string(required).trim().regex(/^\d{1,18}$/, { error: 'validation.format' }), timeZone: TimeZoneField });
const listFilter = { status: DownloadTaskStatusSchema.optional(), timeZone: TimeZoneField };

export const CreateDownloadTask = defineCall({
  path: '/api/DownloadTask/Create',
  auth: 'session',
  access: 'device right DownloadData',
  body: z
    .object({
      imeis: z.array(imei).min(1, { error: 'validation.imeis.empty' }).max(DOWNLOAD_TASK_MAX_DEVICES),
      kinds: z.array(ExportKindSchema).min(1, required).max(20),
      startTime: TimeTextSchema,
      endTime: TimeTextSchema,
      fileType: ExportFileTypeSchema,
      /** The zone the range is given in and the files' times are written in; the caller's own by default. */
      timeZone: TimeZoneField,
      title: freeText().trim().max(DOWNLOAD_TASK_TITLE_MAX, { error: 'validation.tooLong' }).optional(),
    })
    .superRefine(orderedRange)
    .superRefine((body, ctx) => {
      const i = body.kinds.findIndex((k) => !fileTypeCarries(body.fileType, k));
      if (i >= 0) ctx.addIssue({ code: 'custom', message: kindRefusal(body.fileType), path: ['kinds', i], input: body.kinds[i] });
    }),
  data: DownloadTaskSchema,
  summary: 'Queues one download task for the chosen devices (DownloadData, no VHF receiver) and data kinds over the range; answers the task, WAITING.',
});

export const GetDownloadTaskCount = defineCall({
  path: '/api/DownloadTask/GetCount',
  auth: 'session',
  access: 'session',
  body: z.object(listFilter).nullish(),
  data: z.object({ Count: z.number().int() }),
  summary: "How many download tasks the caller has (optionally of one status).",
});

export const GetDownloadTaskListByPage = defineCall({
  path: '/api/DownloadTask/GetListByPage',
  auth: 'session',
  access: 'session',
  body: z.object({ ...listFilter, ...PageSchema }),
  data: z.object({ List: z.array(DownloadTaskSchema), Total: z.number().int() }),
  summary: "The caller's download tasks, newest first, a page at a time, with their progress.",
});

export const CancelDownloadTask = defineCall({
  path: '/api/DownloadTask/Cancel',
  auth: 'session',
  access: 'session',
  body: taskRef,
  data: DownloadTaskSchema,
  summary: "Cancels one of the caller's WAITING or DOWNLOADING tasks; answers it once it stopped (no partial file is left).",
});

export const DeleteDownloadTask = defineCall({
  path: '/api/DownloadTask/Delete',
  auth: 'session',
  access: 'session',
  body: taskRef,
  data: z.null(),
  summary: "Deletes one of the caller's tasks and its file (a running one is cancelled first).",
});

export const DownloadDownloadTask = defineCall({
  path: '/api/DownloadTask/Download',
  auth: 'session',
  access: 'session',
  body: taskRef,
  data: z.null(),
  download: { type: 'application/zip' },
  timeout: 'long',
  summary: "The zip of one of the caller's SUCCESSFUL, unexpired tasks; its devices must still allow DownloadData.",
});
