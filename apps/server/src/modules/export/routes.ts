import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerDownload } from '../../http/calls.js';
import type { ExportService } from './service.js';

export function exportRoutes(app: FastifyInstance, hooks: CallHooks, exports: ExportService): void {
  registerDownload(app, hooks, calls.ExportData, async ({ body, caller }) => exports.export(caller, body));
}
