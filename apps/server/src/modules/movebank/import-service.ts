import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import {
  Code,
  formatTime,
  message,
  MOVEBANK_IMPORT_STATUSES,
  type MovebankImportJob,
  type MovebankImportReportData,
  type MovebankImportStatus,
  ROOT_FOLDER_ID,
} from '@wildtrack/contract';
import type { Caller } from '../../http/caller.js';
import { SerialQueue } from '../../lib/serial-queue.js';
import { AppError } from '../../http/errors.js';
import { MovebankFormatError } from './errors.js';
import { type ImportProgress, importMovebank, type MovebankImportReport, type MovebankServices, type ReportLine } from './import.js';
import type { ImportJobRepository, ImportJobRow, JobProgress } from './import-repository.js';
import { checkMovebankFile } from './reader.js';
import { unpackDelivery } from './delivery.js';
import { readReference } from './reference.js';
import { formatErrorMessage, reasonText, type StoredMessage } from './texts.js';
import { now as clockNow } from '../../lib/clock.js';

/** How often a running import writes its progress (its heartbeat) and looks for a cancel from another server. */
export const HEARTBEAT_MS = 500;
/** A running import whose heartbeat is older than this belonged to a server that stopped: it is interrupted. */
export const STALE_MS = 15_000;
/** Uploaded files no job names are looked for this often, and deleted once untouched this long. */
const ORPHAN_SWEEP_MS = 10 * 60_000;
export const ORPHAN_AGE_MS = 60 * 60_000;
/** How long a cancel waits for an import another server runs to stop. */
const CANCEL_WAIT_MS = 10_000;
const LIST_LIMIT = 20;
/** The reference data is read whole (a row per deployment): a file larger than this is not reference data. */
export const REFERENCE_MAX_BYTES = 64 * 1024 * 1024;

/** The folder check of the device module: a folder of the caller's organisation (null: its root), refusing others. */
export interface ImportFolders {
  ownFolder(caller: Caller, idStr: string): Promise<number | null>;
}

export interface UploadedFiles {
  file: { path: string; name: string };
  reference?: { path: string; name: string } | undefined;
}

interface Running {
  abort: AbortController;
  done: Promise<void>;
}

const notFound = () => new AppError(Code.NotFound, 'movebank.importNotFound');

/**
 * Movebank imports started from the console (issue 10 item 7). The upload is streamed to disk under
 * $WILDTRACK_DATA/imports/<organisation>/ and queued as a row; a server claims it (only one can) and runs
 * the pipeline, writing its progress every HEARTBEAT_MS; the report is kept in the row, the files are
 * deleted. A cancel stops it after the row being read; a server that stops leaves a heartbeat that ages
 * and `sweep` marks the job interrupted.
 */
export class MovebankImportService {
  private readonly running = new Map<number, Running>();
  private readonly work = new SerialQueue<ImportJobRow>(() => this.repo.claimNext(clockNow()), (job) => this.run(job));
  private lastOrphanSweep = 0;

  constructor(
    private readonly repo: ImportJobRepository,
    private readonly pipeline: MovebankServices,
    private readonly folders: ImportFolders,
    private readonly dataDir: string,
    private readonly log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void },
  ) {}

  /** The folder an import goes to, refused unless the caller may edit its organisation's devices. */
  folderFor(caller: Caller, idStr: string): Promise<number | null> {
    return this.folders.ownFolder(caller, idStr);
  }

  /** A new file path for an upload of the caller's organisation. */
  uploadPath(caller: Caller): string {
    const dir = path.join(this.dataDir, 'imports', String(caller.session.orgId));
    fs.mkdirSync(dir, { recursive: true });
    return path.join(dir, `${randomBytes(16).toString('hex')}.csv`);
  }

  discard(...files: (string | undefined)[]): void {
    for (const f of files) if (f) fs.rmSync(f, { force: true });
  }

  /**
   * Queues an uploaded file: its header (and the reference file's) is read first, so a file that is not
   * Movebank data is refused now, naming what it lacks; nothing is queued then and the files are deleted.
   */
  async queue(caller: Caller, folderId: number | null, files: UploadedFiles): Promise<MovebankImportJob> {
    const { file } = files;
    let reference = files.reference;
    // a .zip or .csv.gz is unpacked beside the upload first (delivery.ts); the job then reads the CSV
    const made: string[] = [];
    let dataPath = file.path;
    try {
      try {
        const unpacked = await unpackDelivery(file.path);
        made.push(...unpacked.made);
        dataPath = unpacked.data;
        // the zip's own reference data, unless one came with it
        if (unpacked.reference && !reference) reference = { path: unpacked.reference, name: `${file.name} (reference data)` };
        await checkMovebankFile(dataPath);
      } catch (err) {
        if (err instanceof MovebankFormatError) throw formatRefusal(formatErrorMessage(err.message, file.path, file.name));
        throw err;
      }
      if (reference) {
        try {
          const unpacked = await unpackDelivery(reference.path);
          made.push(...unpacked.made);
          if (unpacked.data !== reference.path) reference = { path: unpacked.data, name: reference.name };
        } catch (err) {
          if (err instanceof MovebankFormatError) throw formatRefusal(formatErrorMessage(err.message, reference.path, reference.name));
          throw err;
        }
        if (fs.statSync(reference.path).size > REFERENCE_MAX_BYTES) {
          throw new AppError(Code.Invalid, 'movebank.tooLarge', { limit: `${REFERENCE_MAX_BYTES / 1024 / 1024} MB` });
        }
        try {
          await readReference(reference.path);
        } catch (err) {
          if (err instanceof MovebankFormatError) throw formatRefusal(formatErrorMessage(err.message, reference.path, reference.name));
          throw err;
        }
      }
    } catch (err) {
      this.discard(file.path, files.reference?.path, ...made);
      throw err;
    }
    // the packed files are read: only the CSVs the job names stay
    this.discard(...[file.path, files.reference?.path].filter((f) => f !== dataPath && f !== reference?.path));
    const id = await this.repo.create({
      orgId: caller.session.orgId,
      userId: caller.session.userId,
      folderId,
      fileName: file.name,
      referenceName: reference?.name ?? null,
      dataPath,
      referencePath: reference?.path ?? null,
      size: fs.statSync(dataPath).size,
      now: clockNow(),
    });
    this.kick();
    return this.view(caller, (await this.repo.byId(id))!);
  }

  async list(caller: Caller): Promise<MovebankImportJob[]> {
    return (await this.repo.latest(caller.session.orgId, LIST_LIMIT)).map((r) => this.view(caller, r));
  }

  async get(caller: Caller, idStr: string): Promise<MovebankImportJob> {
    return this.view(caller, await this.own(caller, idStr));
  }

  /** Stops a queued or running import and answers it once stopped; a finished one is answered as it is. */
  async cancel(caller: Caller, idStr: string): Promise<MovebankImportJob> {
    const row = await this.own(caller, idStr);
    const id = Number(row.id);
    if (row.status === 'queued' && (await this.repo.cancelQueued(id, clockNow()))) {
      this.discard(row.data_path, row.reference_path ?? undefined);
    } else if (row.status === 'queued' || row.status === 'running') {
      const local = this.running.get(id);
      if (local) {
        local.abort.abort();
        await local.done;
      } else {
        // another server runs it: it sees the request with its next heartbeat
        await this.repo.requestCancel(id);
        // How long to wait for the runner: elapsed time (performance.now), not the server's clock (lib/clock.ts).
        const until = performance.now() + CANCEL_WAIT_MS;
        while (performance.now() < until && (await this.repo.byId(id))?.status === 'running') await new Promise((r) => setTimeout(r, HEARTBEAT_MS / 2));
      }
    }
    return this.view(caller, (await this.repo.byId(id))!);
  }

  /** The background job's run: interrupted jobs marked, then queued ones run one after another. */
  async tick(): Promise<void> {
    await this.sweep();
    await this.drain();
  }

  /** Running jobs whose heartbeat stopped (their server stopped) become interrupted. */
  async sweep(now = clockNow()): Promise<number> {
    let n = 0;
    for (const row of await this.repo.stale(now - STALE_MS)) {
      if (this.running.has(Number(row.id))) continue;
      if (await this.repo.interrupt(Number(row.id), now - STALE_MS, stored({ key: 'movebank.interrupted', params: {} }), now)) {
        this.discard(row.data_path, row.reference_path ?? undefined);
        n += 1;
      }
    }
    if (now - this.lastOrphanSweep >= ORPHAN_SWEEP_MS) {
      this.lastOrphanSweep = now;
      await this.sweepOrphans(now);
    }
    return n;
  }

  /**
   * Uploaded files no job will read: a server stopped during an upload (the file was written, the row
   * never made). A file still being written is younger than ORPHAN_AGE_MS (each write touches it); one a
   * queued or running job names is kept.
   */
  async sweepOrphans(now = clockNow()): Promise<number> {
    const root = path.join(this.dataDir, 'imports');
    if (!fs.existsSync(root)) return 0;
    const kept = new Set(await this.repo.pendingFiles());
    let n = 0;
    for (const org of fs.readdirSync(root)) {
      const dir = path.join(root, org);
      if (!fs.statSync(dir).isDirectory()) continue;
      for (const name of fs.readdirSync(dir)) {
        const file = path.join(dir, name);
        if (kept.has(file) || now - fs.statSync(file).mtimeMs < ORPHAN_AGE_MS) continue;
        fs.rmSync(file, { force: true });
        n += 1;
      }
    }
    return n;
  }

  /** Starts running queued jobs now, without waiting for the next tick. */
  kick(): void {
    this.drain().catch((err: unknown) => this.log.error({ err }, 'movebank import queue failed'));
  }

  /** Runs queued jobs until none is left; one at a time in this server. */
  drain(): Promise<void> {
    return this.work.drain();
  }

  /** The server is closing: running imports stop and are marked interrupted. */
  async close(): Promise<void> {
    await this.work.close(async () => {
      for (const r of this.running.values()) r.abort.abort();
      await Promise.all([...this.running.values()].map((r) => r.done));
    });
  }

  private async run(job: ImportJobRow): Promise<void> {
    const id = Number(job.id);
    const abort = new AbortController();
    let finished!: () => void;
    this.running.set(id, { abort, done: new Promise<void>((resolve) => (finished = resolve)) });
    let last: JobProgress = { bytesRead: 0, rows: 0, stored: 0, seconds: 0 };
    const beat = setInterval(() => {
      this.repo
        .progress(id, last, clockNow())
        .then((cancel) => {
          if (cancel) abort.abort();
        })
        .catch((err: unknown) => this.log.warn({ err }, 'movebank import progress not written'));
    }, HEARTBEAT_MS);
    try {
      const report = await importMovebank(this.pipeline, {
        file: job.data_path,
        orgId: Number(job.org_id),
        folderId: job.folder_id === null ? null : Number(job.folder_id),
        referenceFile: job.reference_path ?? undefined,
        signal: abort.signal,
        onRead: async (p: ImportProgress) => {
          last = { bytesRead: p.bytes, rows: p.rows, stored: p.stored, seconds: p.seconds };
          // SQLite writes are synchronous: without a turn of the event loop every few hundred rows the
          // import would hold every other request of this server until it ends
          await new Promise((resolve) => setImmediate(resolve));
        },
      });
      clearInterval(beat);
      const stopped = report.cancelled === true;
      const status = stopped ? (this.work.closed ? 'interrupted' : 'cancelled') : 'done';
      const error = status === 'interrupted' ? stored({ key: 'movebank.interrupted', params: {} }) : null;
      await this.repo.finish(id, status, last, JSON.stringify({ ...report, file: job.file_name }), error, clockNow());
    } catch (err) {
      clearInterval(beat);
      const problem =
        err instanceof MovebankFormatError
          ? formatErrorMessage(err.message, err.message.startsWith(job.reference_path ?? '\u0000') ? job.reference_path! : job.data_path, err.message.startsWith(job.reference_path ?? '\u0000') ? (job.reference_name ?? '') : job.file_name)
          : { key: 'movebank.failed' as const, params: { requestId: `import-${id}` } };
      if (!(err instanceof MovebankFormatError)) this.log.error({ err, importId: id }, 'movebank import failed');
      await this.repo.finish(id, 'failed', last, null, stored(problem), clockNow());
    } finally {
      clearInterval(beat);
      this.discard(job.data_path, job.reference_path ?? undefined);
      this.running.delete(id);
      finished();
    }
  }

  private async own(caller: Caller, idStr: string): Promise<ImportJobRow> {
    const id = Number(idStr);
    if (!/^\d+$/.test(idStr) || !Number.isSafeInteger(id)) throw notFound();
    const row = await this.repo.ofOrg(caller.session.orgId, id);
    if (!row) throw notFound();
    return row;
  }

  /** A job as the API shows it, in the caller's language and zone. */
  view(caller: Caller, r: ImportJobRow): MovebankImportJob {
    const status = (MOVEBANK_IMPORT_STATUSES as readonly string[]).includes(r.status) ? (r.status as MovebankImportStatus) : 'failed';
    const size = Number(r.size);
    const bytesRead = status === 'done' ? size : Math.min(Number(r.bytes_read), size);
    const rows = Number(r.rows);
    const seconds = Number(r.seconds);
    const error = r.error ? (JSON.parse(r.error) as StoredMessage) : null;
    return {
      IdStr: String(r.id),
      FolderIdStr: r.folder_id === null ? ROOT_FOLDER_ID : String(r.folder_id),
      FileName: r.file_name,
      ReferenceFileName: r.reference_name ?? '',
      Status: status,
      Size: size,
      BytesRead: bytesRead,
      Percent: size > 0 ? Math.round((1000 * bytesRead) / size) / 10 : 100,
      Rows: rows,
      RowsPerSecond: seconds > 0 ? Math.round(rows / seconds) : 0,
      Stored: Number(r.stored),
      CancelRequested: r.cancel_requested === 1,
      UserName: r.user_name ?? '',
      CreateTime: formatTime(Number(r.created_at), caller.zone),
      StartTime: formatTime(r.started_at === null ? null : Number(r.started_at), caller.zone),
      EndTime: formatTime(r.finished_at === null ? null : Number(r.finished_at), caller.zone),
      Report: r.report ? reportData(caller, JSON.parse(r.report) as MovebankImportReport) : null,
      Error: error ? message(caller.lang, error.key, error.params) : '',
    };
  }
}

function stored(m: StoredMessage): string {
  return JSON.stringify(m);
}

function formatRefusal(m: StoredMessage): AppError {
  return new AppError(Code.Invalid, m.key, m.params);
}

function lines(caller: Caller, list: ReportLine[]): MovebankImportReportData['Skipped'] {
  return list.map((l) => ({
    Reason: reasonText(caller.lang, l.reason),
    Count: l.count,
    Examples: l.examples.map((e) => ({ Line: e.line, EventId: e.eventId ?? '', Value: e.value ?? '' })),
  }));
}

function reportData(caller: Caller, r: MovebankImportReport): MovebankImportReportData {
  return {
    Rows: r.rows,
    Stored: r.fixes.stored,
    Duplicates: r.fixes.duplicates,
    WithoutPosition: r.fixes.withoutPosition,
    MarkedInvalid: r.fixes.markedInvalid,
    OutOfRange: r.fixes.outOfRange,
    MarksChanged: { Marked: r.fixes.marks.marked, Unmarked: r.fixes.marks.unmarked },
    Bursts: { Stored: r.bursts.stored, Samples: r.bursts.samples, Duplicates: r.bursts.duplicates },
    Devices: { Created: r.devices.created, Reused: r.devices.reused },
    Delimiter: r.delimiter ?? ',',
    Skipped: lines(caller, r.skipped),
    Notices: lines(caller, r.notices),
    Seconds: Math.round(r.seconds * 10) / 10,
    Cancelled: r.cancelled === true,
  };
}
