import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall, registerDownload } from '../../http/calls.js';
import type { ArchiveService } from './service.js';

export function archiveRoutes(app: FastifyInstance, hooks: CallHooks, archives: ArchiveService): void {
  registerCall(app, hooks, calls.GetAccelerationArchiveCount, async ({ body, caller }) => ({ Count: await archives.count(caller, body.imei) }));
  registerCall(app, hooks, calls.GetAccelerationArchiveList, async ({ body, caller }) => archives.page(caller, body.imei, body.currentPage, body.pageSize));
  registerDownload(app, hooks, calls.DownloadAccelerationArchive, async ({ body, caller }) => archives.download(caller, body.imei, body.archiveDate));
}
