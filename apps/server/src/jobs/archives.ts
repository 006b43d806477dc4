import type { ArchiveService } from '../modules/archive/service.js';
import type { Job } from './runner.js';

/**
 * Daily ACC archives (§9 Archive): half a minute after a start (a fresh `make start` lists the sample
 * devices' archives at once), then every 10 minutes, the closed days of the last three without an archive
 * are written, expired ones removed. Rows are claimed in the database (ArchiveRepository.claim), so two
 * server processes never write the same file.
 */
export function accelerationArchives(archives: ArchiveService): Job {
  return { name: 'acceleration archive', everyMs: 10 * 60_000, firstAfterMs: 30_000, lease: false, start: 'with the app', run: () => archives.tick() };
}
