import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { DeviceGate } from './modules/device/gate.js';
import { DeviceGateRepository } from './modules/device/gate-repository.js';
import { DownloadTaskRepository } from './modules/download/repository.js';
import { DownloadTaskService } from './modules/download/service.js';
import type { DownloadTaskRow } from './modules/download/repository.js';
import { exportFileName, writeExport } from './modules/export/index.js';
import { NoticeRepository } from './modules/notice/repository.js';
import { type NoticeTemplate, type NoticeText, NoticeService } from './modules/notice/service.js';
import { formatTime } from '@wildtrack/contract';

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * The download task service built on a database, for the server and for the CLI's `run-download-tasks`
 * (a process that only runs tasks): the export module's writers handed in, so the download module reads
 * no other module's tables.
 */
export function downloadTaskService(database: Db, config: Pick<Config, 'dataDir' | 'downloadKeepMs' | 'downloadTasks' | 'downloadTasksPerUser'>, log: Log, devices?: DeviceGate): DownloadTaskService {
  const notices = new NoticeService(new NoticeRepository(database.db));
  return new DownloadTaskService(
    new DownloadTaskRepository(database.db),
    devices ?? new DeviceGate(new DeviceGateRepository(database.db, database.sqlite)),
    { write: (req, out, opts) => writeExport(database.db, req, out, opts), fileName: (req) => exportFileName(req) },
    config.dataDir,
    { keepMs: config.downloadKeepMs, runs: config.downloadTasks === 'run', perUser: config.downloadTasksPerUser },
    log,
    (task) => notices.sendToUser(Number(task.user_id), taskEndedNotice(task)).then(() => undefined),
  );
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
