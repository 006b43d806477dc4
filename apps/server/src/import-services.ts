import type { Db } from './db/connect.js';
import { createIngestService } from './ingest/service.js';
import { DeviceRegistry } from './modules/device/registry.js';
import { DeviceRepository } from './modules/device/repository.js';
import type { MovebankServices } from './modules/movebank/index.js';
import { SourceMarkRepository } from './modules/movebank/repository.js';

/**
 * The Movebank import's services built on a database, for its callers that have no app (the CLI, the
 * bench, its test). Composition happens here, outside the modules: the import module declares the
 * device writes it needs and the device repository is handed in, so no module reads another's.
 */
export function movebankServices(database: Db, dataDir: string): MovebankServices & { devices: DeviceRegistry; tags: DeviceRepository; folders: DeviceRepository } {
  const folders = new DeviceRepository(database.db);
  return {
    devices: new DeviceRegistry(folders),
    ingest: createIngestService(database, dataDir),
    marks: new SourceMarkRepository(database.db),
    tags: folders,
    folders,
  };
}
