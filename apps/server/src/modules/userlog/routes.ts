import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { UserLogService } from './service.js';

/** UserLog/Record (every signed-in user, their own entries) and UserLog/GetList (the primary user, their organisation's). */
export function userLogRoutes(app: FastifyInstance, hooks: CallHooks, log: UserLogService): void {
  registerCall(app, hooks, calls.RecordUserLog, async ({ body, caller }) => {
    await log.record(caller, body.entries);
    return null;
  });
  registerCall(app, hooks, calls.GetUserLogList, async ({ body, caller }) => log.list(caller, body));
}
