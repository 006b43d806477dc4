import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall, registerDownload } from '../../http/calls.js';
import type { DownloadTaskService } from './service.js';

export function downloadTaskRoutes(app: FastifyInstance, hooks: CallHooks, tasks: DownloadTaskService): void {
  registerCall(app, hooks, calls.CreateDownloadTask, async ({ body, caller }) => tasks.create(caller, body));
  registerCall(app, hooks, calls.GetDownloadTaskCount, async ({ body, caller }) => ({ Count: await tasks.count(caller, body?.status) }));
  registerCall(app, hooks, calls.GetDownloadTaskListByPage, async ({ body, caller }) => tasks.page(caller, body.status, body.currentPage, body.pageSize));
  registerCall(app, hooks, calls.CancelDownloadTask, async ({ body, caller }) => tasks.cancel(caller, body.id));
  registerCall(app, hooks, calls.DeleteDownloadTask, async ({ body, caller }) => {
    await tasks.delete(caller, body.id);
    return null;
  });
  registerDownload(app, hooks, calls.DownloadDownloadTask, async ({ body, caller }) => tasks.download(caller, body.id));
}
