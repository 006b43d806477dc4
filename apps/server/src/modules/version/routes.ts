import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { VersionService } from './service.js';

export function versionRoutes(app: FastifyInstance, hooks: CallHooks, version: VersionService): void {
  registerCall(app, hooks, calls.GetVersionInfo, async ({ body, caller }) => version.info(caller.lang, body.region));
}
