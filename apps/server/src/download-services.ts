import type { Config } from './config.js';
import type { Db } from './db/connect.js';
import { DeviceConsole } from './modules/device/console.js';
import { DeviceConsoleRepository } from './modules/device/console-repository.js';
import { DownloadTaskRepository } from './modules/download/repository.js';
import { DownloadTaskService } from './modules/download/service.js';
import { exportFileName, writeExport } from './modules/export/index.js';

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

/**
 * The download task service built on a database, for the server and for the CLI's `run-download-tasks`
 * (a process that only runs tasks): the export module's writers handed in, so the download module reads
 * no other module's tables.
 */
export function downloadTaskService(database: Db, config: Pick<Config, 'dataDir' | 'downloadKeepMs' | 'downloadTasks'>, log: Log, devices?: DeviceConsole): DownloadTaskService {
  return new DownloadTaskService(
    new DownloadTaskRepository(database.db),
    devices ?? new DeviceConsole(new DeviceConsoleRepository(database.db, database.sqlite)),
    { write: (req, out, opts) => writeExport(database.db, req, out, opts), fileName: (req) => exportFileName(req) },
    config.dataDir,
    { keepMs: config.downloadKeepMs, runs: config.downloadTasks === 'run' },
    log,
  );
}
