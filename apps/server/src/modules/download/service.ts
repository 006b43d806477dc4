import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';
import {
  Code,
  DeviceType,
  DOWNLOAD_TASK_STATUSES,
  type DownloadTask,
  type DownloadTaskStatus,
  type ExportFileType,
  type ExportKind,
  formatTime,
  type Lang,
  message,
  type MessageKey,
} from '@wildtrack/contract';
import type { Caller } from '../../http/caller.js';
import { SerialQueue } from '../../lib/serial-queue.js';
import type { FileAnswer } from '../../http/calls.js';
import { AppError, FieldRefusal } from '../../http/errors.js';
import { checkedRange } from '../../http/range.js';
import { clampToWindow } from '../device/access.js';
import type { DeviceGate, ResolvedDevice } from '../device/gate.js';
import type { DownloadTaskRepository, DownloadTaskRow, TaskProgress } from './repository.js';
import type { NoticeTemplate, NoticeText } from '../notice/service.js';
import { now as clockNow } from '../../lib/clock.js';

/** How often a running task writes its progress (its heartbeat) and looks for a cancel from another process. */
export const HEARTBEAT_MS = 500;
/** A running task whose heartbeat is older than this belonged to a process that stopped: it is taken back. */
export const STALE_MS = 15_000;
/** A task whose process stopped this many times is failed instead of taken up again. */
export const MAX_ATTEMPTS = 3;
/** How long a cancel waits for a task another process runs to stop. */
const CANCEL_WAIT_MS = 10_000;

/** One file of a task's zip: a device's records of one kind, written by the export writer. */
export interface ExportRequest {
  imei: string;
  /** The device's name, for the file's name. */
  caption: string;
  kind: ExportKind;
  /** The device's part of the task's range, epoch ms, both ends included. */
  startTime: number;
  endTime: number;
  timeZone: string;
  language: Lang;
  fileType: ExportFileType;
}

/**
 * The export module's writers as this module uses them (modules/export): a file written to `out` (which
 * they end), rows reported as they go (the count so far of this file), stopped by `signal`.
 */
export interface ExportWriters {
  write(req: ExportRequest, out: Writable, opts: { signal: AbortSignal; onRows: (rows: number) => void }): Promise<unknown>;
  fileName(req: ExportRequest): string | Promise<string>;
}

/** A device of a task and the part of the range its data is read from (a share's window cuts it). */
interface TaskDevice {
  imei: string;
  caption: string;
  from: number;
  to: number;
}

interface Running {
  abort: AbortController;
  done: Promise<void>;
}

interface StoredMessage {
  key: MessageKey;
  params: Record<string, string | number>;
}

const notFound = () => new AppError(Code.NotFound, 'downloadTask.notFound');

/** Text safe as a file name on any system and inside a zip: letters (any script), digits, '.', '_', '-', '(', ')' only. */
export function zipEntryName(text: string): string {
  const cleaned = text.normalize('NFC').replace(/[^\p{L}\p{N}._()-]/gu, '_').replace(/^\.+/, '_').slice(0, 120);
  return cleaned || '_';
}

/**
 * The owner's notice of a task that ended (§2.1 /download): "your download is ready" with the task's name,
 * range (in the task's zone, as its list shows it) and until when its file is kept, or that it failed and why;
 * rendered in the reader's language when read.
 */
export function taskEndedNotice(task: DownloadTaskRow): NoticeTemplate {
  const params = {
    title: task.title,
    start: formatTime(Number(task.start_time), task.time_zone),
    end: formatTime(Number(task.end_time), task.time_zone),
  };
  if (task.status === 'SUCCESSFUL') {
    return {
      title: { key: 'downloadTask.ready' },
      body: { key: 'downloadTask.readyBody', params: { ...params, expires: { time: Number(task.expires_at ?? 0) } } },
    };
  }
  const reason: NoticeText = task.error ? (JSON.parse(task.error) as NoticeText) : { key: 'downloadTask.failed', params: { id: Number(task.id) } };
  return { title: { key: 'downloadTask.failedTitle' }, body: { key: 'downloadTask.failedBody', params: { ...params, reason } } };
}

/**
 * Download tasks (§2.1 /download, §4 Download task). A task is a row; a server process claims it (one only:
 * the repository's claim) and writes one zip of a file per device × kind under $WILDTRACK_DATA/downloads/
 * <user>/<task id>.zip, named by the server (never by the user's text), first as `.part` and renamed when
 * whole, so no partial file is ever served or left. Progress and the heartbeat are written every
 * HEARTBEAT_MS; a cancel (here or from another process) aborts the writer and deletes the part file; a
 * process that stops leaves a heartbeat that ages and `sweep` queues the task again (failing it after
 * MAX_ATTEMPTS). A file is kept `keepMs`, then the task is EXPIRED and the file deleted.
 */
export class DownloadTaskService {
  private readonly running = new Map<number, Running>();
  private readonly work = new SerialQueue<DownloadTaskRow>(() => this.repo.claimNext(clockNow(), this.opts.perUser ?? 1), (task) => this.run(task));

  constructor(
    private readonly repo: DownloadTaskRepository,
    private readonly devices: DeviceGate,
    private readonly writers: ExportWriters,
    private readonly dataDir: string,
    /**
     * How long a file is kept; whether this process runs tasks (false: it serves the calls, another process
     * runs them); how many of one user's tasks may run at once over all processes (1 by default).
     */
    private readonly opts: { keepMs: number; runs?: boolean; perUser?: number },
    private readonly log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void },
    /** Sends a notice to one user: the owner's, when a task ends SUCCESSFUL or FAILED (taskEndedNotice). */
    private readonly notify: (userId: number, notice: NoticeTemplate) => Promise<unknown> = async () => undefined,
  ) {}

  private dir(userId: number): string {
    return path.join(this.dataDir, 'downloads', String(userId));
  }

  private fileOf(row: Pick<DownloadTaskRow, 'id' | 'user_id'>): string {
    return path.join(this.dir(Number(row.user_id)), `${Number(row.id)}.zip`);
  }

  /** The devices named, each visible with DownloadData and not a VHF receiver; refusals name the device. */
  private async downloadable(caller: Caller, imeis: readonly string[]): Promise<ResolvedDevice[]> {
    const devices = await this.devices.resolveMany(caller, imeis);
    for (const [i, d] of devices.entries()) {
      if (!d.access.rights.DownloadData) throw new AppError(Code.Forbidden, 'export.noDownloadRight');
      if (Number(d.type) === DeviceType.VHFReceiver) throw new FieldRefusal(['imeis', i], 'downloadTask.vhf', { device: d.imei });
    }
    return devices;
  }

  async create(
    caller: Caller,
    body: { imeis: string[]; kinds: ExportKind[]; startTime: string; endTime: string; fileType: ExportFileType; title?: string | undefined },
    now = clockNow(),
  ): Promise<DownloadTask> {
    const { from, to } = checkedRange(caller, body);
    const devices = await this.downloadable(caller, body.imeis);
    const kinds = [...new Set(body.kinds)];
    const parts: TaskDevice[] = devices.map((d) => ({ imei: d.imei, caption: d.caption, ...clampToWindow({ from, to }, d.access) }));
    const title = body.title?.trim() || `${formatTime(from, caller.zone).slice(0, 10)} ~ ${formatTime(to, caller.zone).slice(0, 10)}`;
    const id = await this.repo.create({
      userId: caller.session.userId,
      title,
      imeis: JSON.stringify(parts),
      kinds: JSON.stringify(kinds),
      fileType: body.fileType,
      from,
      to,
      zone: caller.zone,
      lang: caller.lang,
      filesTotal: parts.length * kinds.length,
      now,
    });
    // The task as created (WAITING) and its place in the queue, read before the queue is woken: a runner may claim it at once.
    const [created, positions] = await Promise.all([this.repo.byId(id), this.positions()]);
    this.kick();
    return this.view(caller, created!, now, positions.get(id));
  }

  async count(caller: Caller, status: DownloadTaskStatus | undefined): Promise<number> {
    return this.repo.count(caller.session.userId, status);
  }

  async page(caller: Caller, status: DownloadTaskStatus | undefined, currentPage: number, pageSize: number): Promise<{ List: DownloadTask[]; Total: number }> {
    const [total, rows] = await Promise.all([this.repo.count(caller.session.userId, status), this.repo.page(caller.session.userId, status, pageSize, (currentPage - 1) * pageSize)]);
    const positions = rows.some((r) => r.status === 'WAITING') ? await this.positions() : new Map<number, number>();
    const now = clockNow();
    return { List: rows.map((r) => this.view(caller, r, now, positions.get(Number(r.id)))), Total: total };
  }

  /**
   * Each waiting task's place in the queue (1: the next claimed), in the order the claim takes them
   * (repository `nextWaiting`): the owner served least recently first, their oldest task, that owner then
   * the most recently served. An owner already running as many tasks as allowed waits while another has a
   * task; how long the running tasks take is not known, so past the first place it is the order, not a time.
   */
  private async positions(): Promise<Map<number, number>> {
    const { waiting, owners } = await this.repo.queue();
    const cap = this.opts.perUser ?? 1;
    const queues = new Map<number, number[]>();
    for (const w of waiting) {
      const q = queues.get(w.userId);
      if (q) q.push(w.id);
      else queues.set(w.userId, [w.id]);
    }
    const served = new Map([...queues.keys()].map((u) => [u, owners.get(u)?.lastServed ?? -1]));
    const running = new Map([...queues.keys()].map((u) => [u, owners.get(u)?.running ?? 0]));
    let clock = Math.max(clockNow(), ...served.values());
    const out = new Map<number, number>();
    while (out.size < waiting.length) {
      let best: number | undefined;
      let bestKey: [number, number, number] | undefined;
      for (const [user, q] of queues) {
        if (q.length === 0) continue;
        const key: [number, number, number] = [running.get(user)! >= cap ? 1 : 0, served.get(user)!, q[0]!];
        if (!bestKey || key[0] < bestKey[0] || (key[0] === bestKey[0] && (key[1] < bestKey[1] || (key[1] === bestKey[1] && key[2] < bestKey[2])))) {
          best = user;
          bestKey = key;
        }
      }
      out.set(queues.get(best!)!.shift()!, out.size + 1);
      served.set(best!, ++clock);
    }
    return out;
  }

  private async own(caller: Caller, idStr: string): Promise<DownloadTaskRow> {
    const id = Number(idStr);
    if (!Number.isSafeInteger(id)) throw notFound();
    const row = await this.repo.ofUser(caller.session.userId, id);
    if (!row) throw notFound();
    return row;
  }

  /** Stops a waiting or running task and answers it once stopped; a finished one is answered as it is. */
  async cancel(caller: Caller, idStr: string): Promise<DownloadTask> {
    const row = await this.own(caller, idStr);
    await this.stop(row);
    return this.view(caller, (await this.repo.byId(Number(row.id)))!, clockNow());
  }

  private async stop(row: DownloadTaskRow): Promise<void> {
    const id = Number(row.id);
    if (row.status === 'WAITING' && (await this.repo.cancelWaiting(id, clockNow()))) return;
    const local = this.running.get(id);
    if (local) {
      local.abort.abort();
      await local.done;
      return;
    }
    const now = await this.repo.byId(id);
    if (now?.status !== 'DOWNLOADING') return;
    // another process runs it: it sees the request with its next heartbeat
    await this.repo.requestCancel(id);
    // How long to wait for the runner: elapsed time (performance.now), not the server's clock (lib/clock.ts).
    const until = performance.now() + CANCEL_WAIT_MS;
    while (performance.now() < until && (await this.repo.byId(id))?.status === 'DOWNLOADING') await new Promise((r) => setTimeout(r, HEARTBEAT_MS / 2));
  }

  /** Deletes a task and its file; a running one is stopped first. */
  async delete(caller: Caller, idStr: string): Promise<void> {
    const row = await this.own(caller, idStr);
    await this.stop(row);
    await this.repo.delete(Number(row.id));
    await fs.promises.rm(this.fileOf(row), { force: true });
  }

  /** The zip of a SUCCESSFUL task of the caller's, while it lasts, and while its devices still allow DownloadData. */
  async download(caller: Caller, idStr: string, now = clockNow()): Promise<FileAnswer> {
    const row = await this.own(caller, idStr);
    if (row.status === 'EXPIRED' || (row.status === 'SUCCESSFUL' && row.expires_at !== null && Number(row.expires_at) <= now)) {
      throw new AppError(Code.NotFound, 'downloadTask.expired');
    }
    if (row.status !== 'SUCCESSFUL') throw new AppError(Code.Invalid, 'downloadTask.notReady');
    await this.downloadable(caller, (JSON.parse(row.imeis) as TaskDevice[]).map((d) => d.imei));
    const file = this.fileOf(row);
    if (!fs.existsSync(file)) throw new AppError(Code.NotFound, 'downloadTask.expired');
    return { name: this.zipName(row), stream: fs.createReadStream(file), size: fs.statSync(file).size };
  }

  private zipName(row: DownloadTaskRow): string {
    return `download-${Number(row.id)}-${formatTime(Number(row.created_at), row.time_zone).slice(0, 10)}.zip`;
  }

  // ---- the runner --------------------------------------------------------------------------------

  /** The background job's run: stale tasks taken back, expired files deleted, then waiting tasks run. */
  async tick(now = clockNow()): Promise<void> {
    await this.sweep(now);
    await this.expire(now);
    await this.drain();
  }

  /** Running tasks whose heartbeat stopped (their process stopped) are queued again, or failed after MAX_ATTEMPTS. */
  async sweep(now = clockNow()): Promise<number> {
    let n = 0;
    for (const row of await this.repo.stale(now - STALE_MS)) {
      if (this.running.has(Number(row.id))) continue;
      const error = stored({ key: 'downloadTask.interrupted', params: { attempts: Number(row.attempts) } });
      if (await this.repo.reclaim(Number(row.id), now - STALE_MS, MAX_ATTEMPTS, error, now)) {
        await fs.promises.rm(`${this.fileOf(row)}.part`, { force: true });
        if ((await this.repo.byId(Number(row.id)))?.status === 'FAILED') await this.ended(Number(row.id));
        n += 1;
      }
    }
    return n;
  }

  /** SUCCESSFUL tasks past their time become EXPIRED and their files are deleted. */
  async expire(now = clockNow()): Promise<number> {
    const gone = await this.repo.expire(now);
    for (const row of gone) await fs.promises.rm(this.fileOf(row), { force: true });
    return gone.length;
  }

  /** Starts running waiting tasks now, without waiting for the next tick. */
  kick(): void {
    this.drain().catch((err: unknown) => this.log.error({ err }, 'download task queue failed'));
  }

  /** Runs waiting tasks until none is left; one at a time in this process. */
  drain(): Promise<void> {
    return this.opts.runs === false ? Promise.resolve() : this.work.drain();
  }

  /** The process is closing: running tasks stop, their part files go, and they are queued again for another process. */
  async close(): Promise<void> {
    await this.work.close(async () => {
      for (const r of this.running.values()) r.abort.abort();
      await Promise.all([...this.running.values()].map((r) => r.done));
    });
  }

  private async run(task: DownloadTaskRow): Promise<void> {
    const id = Number(task.id);
    const abort = new AbortController();
    let ended!: () => void;
    this.running.set(id, { abort, done: new Promise<void>((resolve) => (ended = resolve)) });
    const progress: TaskProgress = { rows: 0, filesDone: 0 };
    let rowsBefore = 0;
    const beat = setInterval(() => {
      this.repo
        .progress(id, progress, clockNow())
        .then((cancel) => {
          if (cancel) abort.abort();
        })
        .catch((err: unknown) => this.log.warn({ err }, 'download task progress not written'));
    }, HEARTBEAT_MS);
    const file = this.fileOf(task);
    const part = `${file}.part`;
    let out: fs.WriteStream | undefined;
    try {
      await fs.promises.mkdir(path.dirname(file), { recursive: true });
      out = fs.createWriteStream(part);
      const sink = out;
      // a cancel stops the bytes at once, whatever the writer is doing: the file is closed and deleted
      const stopped = new Promise<never>((_, reject) => abort.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true }));
      stopped.catch(() => undefined);
      abort.signal.addEventListener('abort', () => sink.destroy());
      const zip = new yazl.ZipFile();
      const zipped = finished(zip.outputStream.pipe(sink));
      // awaited once every entry is in; a cancel or failure before that must not leave it unhandled
      zipped.catch(() => undefined);
      const devices = JSON.parse(task.imeis) as TaskDevice[];
      const kinds = JSON.parse(task.kinds) as ExportKind[];
      // progress is rows written / rows the files will hold: counted first (an index count per file)
      let rowsTotal = 0;
      for (const device of devices) for (const kind of kinds) rowsTotal += await this.repo.rowsOf(device.imei, kind, device.from, device.to);
      await this.repo.setRowsTotal(id, rowsTotal);
      const names = new Set<string>();
      for (const device of devices) {
        for (const kind of kinds) {
          if (abort.signal.aborted) break;
          const req: ExportRequest = {
            imei: device.imei,
            caption: device.caption,
            kind,
            startTime: device.from,
            endTime: device.to,
            timeZone: task.time_zone,
            language: task.lang === 'zh' ? 'zh' : 'en',
            fileType: task.file_type as ExportFileType,
          };
          let name = zipEntryName(await this.writers.fileName(req));
          for (let n = 2; names.has(name); n++) name = name.replace(/(\.[^.]*)?$/, `-${n}$1`);
          names.add(name);
          const entry = new PassThrough();
          // An XLSX is a zip already: stored, not deflated again (1M fixes: 2 CPU s saved for 11 % of its size).
          // CSV at level 1: a third of level 6's time for a zip 14 % larger (bench/export prints both sizes).
          zip.addReadStream(entry, name, req.fileType === 'xls' ? { compress: false } : { compressionLevel: 1 });
          const written = this.writers.write(req, entry, {
            signal: abort.signal,
            onRows: (rows) => {
              progress.rows = rowsBefore + rows;
            },
          });
          // a writer slow to see the signal is not waited for: the cancel answers, the entry is closed
          await Promise.race([written, stopped]);
          if (!entry.writableEnded) entry.end();
          await finished(entry);
          rowsBefore = progress.rows;
          progress.filesDone += 1;
        }
      }
      if (abort.signal.aborted) throw new Error('aborted');
      zip.end();
      await zipped;
      if (abort.signal.aborted) throw new Error('aborted');
      await fs.promises.rename(part, file);
      clearInterval(beat);
      const now = clockNow();
      const size = (await fs.promises.stat(file)).size;
      if (!(await this.repo.finish(id, { status: 'SUCCESSFUL', progress, fileSize: size, expiresAt: now + this.opts.keepMs }, now))) {
        await fs.promises.rm(file, { force: true });
      } else {
        await this.ended(id);
      }
    } catch (err) {
      clearInterval(beat);
      out?.destroy();
      await fs.promises.rm(part, { force: true });
      if (abort.signal.aborted && this.work.closed) {
        await this.repo.requeue(id, clockNow());
      } else if (abort.signal.aborted) {
        await this.repo.finish(id, { status: 'CANCELLED', progress }, clockNow());
      } else {
        this.log.error({ err, downloadTaskId: id }, 'download task failed');
        if (await this.repo.finish(id, { status: 'FAILED', progress, error: stored({ key: 'downloadTask.failed', params: { id } }) }, clockNow())) await this.ended(id);
      }
    } finally {
      clearInterval(beat);
      this.running.delete(id);
      ended();
    }
  }

  /** Sends the owner the notice of a task that ended, as stored then; a failure to is logged, the task stays as it ended. */
  private async ended(id: number): Promise<void> {
    try {
      const row = await this.repo.byId(id);
      if (row) await this.notify(Number(row.user_id), taskEndedNotice(row));
    } catch (err) {
      this.log.warn({ err, downloadTaskId: id }, 'download task notice not sent');
    }
  }

  /** A task as the API shows it, in the caller's language and zone; `position` its place in the queue while WAITING. */
  view(caller: Caller, r: DownloadTaskRow, now: number, position?: number): DownloadTask {
    let status = (DOWNLOAD_TASK_STATUSES as readonly string[]).includes(r.status) ? (r.status as DownloadTaskStatus) : 'FAILED';
    const expires = r.expires_at === null ? null : Number(r.expires_at);
    if (status === 'SUCCESSFUL' && expires !== null && expires <= now) status = 'EXPIRED';
    const devices = JSON.parse(r.imeis) as TaskDevice[];
    const total = Number(r.files_total);
    const done = Number(r.files_done);
    const rows = Number(r.rows);
    const rowsTotal = Number(r.rows_total);
    const started = r.started_at === null ? null : Number(r.started_at);
    const error = r.error ? (JSON.parse(r.error) as StoredMessage) : null;
    const id = String(r.id);
    return {
      Id: id,
      IdStr: id,
      UserId: String(r.user_id),
      Title: r.title,
      StartTime: formatTime(Number(r.start_time), r.time_zone),
      EndTime: formatTime(Number(r.end_time), r.time_zone),
      TimeZone: r.time_zone,
      Status: status,
      FileUrl: status === 'SUCCESSFUL' ? `DownloadTask/Download?id=${id}` : '',
      FileName: status === 'SUCCESSFUL' ? this.zipName(r) : '',
      FileSize: Number(r.file_size),
      IMEIs: devices.map((d) => d.imei),
      Kinds: JSON.parse(r.kinds) as ExportKind[],
      FileType: r.file_type as ExportFileType,
      Rows: Number(r.rows),
      RowsTotal: rowsTotal,
      Percent: status === 'SUCCESSFUL' ? 100 : rowsTotal > 0 ? Math.min(99.9, Math.round((1000 * rows) / rowsTotal) / 10) : total > 0 ? Math.round((1000 * done) / total) / 10 : 0,
      EtaMs: status === 'DOWNLOADING' && started !== null && rows > 0 && rowsTotal > rows ? Math.round(((now - started) * (rowsTotal - rows)) / rows) : -1,
      CreateTime: formatTime(Number(r.created_at), caller.zone),
      ExpireTime: expires === null ? '' : formatTime(expires, caller.zone),
      RemainingMs: status === 'SUCCESSFUL' && expires !== null ? Math.max(0, expires - now) : 0,
      Error: error ? message(caller.lang, error.key, error.params) : '',
      QueuePosition: status === 'WAITING' ? (position ?? 0) : 0,
    };
  }
}

function stored(m: StoredMessage): string {
  return JSON.stringify(m);
}
