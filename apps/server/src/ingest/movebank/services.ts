import type { Db } from '../../db/connect.js';
import { DeviceRepository } from '../../modules/device/repository.js';
import { DeviceService } from '../../modules/device/service.js';
import { createIngestService } from '../service.js';
import type { MovebankServices } from './import.js';

/** The services an import needs, built on a database (the CLI and the bench have no app). */
export function movebankServices(database: Db, dataDir: string): MovebankServices & { folders: DeviceRepository } {
  const folders = new DeviceRepository(database.db);
  return {
    devices: new DeviceService(folders),
    ingest: createIngestService(database, dataDir),
    tags: folders,
    folders,
  };
}
