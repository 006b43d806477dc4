import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { FixService } from './service.js';

export function fixRoutes(app: FastifyInstance, hooks: CallHooks, fixes: FixService): void {
  registerCall(app, hooks, calls.GetFixCount, async ({ body, caller }) => ({ Count: await fixes.count(caller, body) }));
  registerCall(app, hooks, calls.GetFixListByPage, async ({ body, caller }) => fixes.page(caller, body));
  registerCall(app, hooks, calls.GetFix, async ({ body, caller }) => fixes.one(caller, body.imei, body.id));
  registerCall(app, hooks, calls.GetFixList, async ({ body, caller }) => fixes.tracks(caller, [body.imei], body, body.secondLevel));
  registerCall(app, hooks, calls.GetFixListByImeis, async ({ body, caller }) => fixes.tracks(caller, body.imeis, body, 'all'));
  registerCall(app, hooks, calls.GetAvgListByImeisAndTime, async ({ body, caller }) => fixes.tracks(caller, body.imeis, body, 'avg'));
  registerCall(app, hooks, calls.GetLastFixList, async ({ body, caller }) => fixes.last(caller, body.imeis));
  registerCall(app, hooks, calls.GetLastFixByImei, async ({ body, caller }) => fixes.lastOne(caller, body.imei));
  registerCall(app, hooks, calls.GetFixSpan, async ({ body, caller }) => fixes.span(caller, body.imei));
  registerCall(app, hooks, calls.ConvertFixInvalid, async ({ body, caller }) => ({ Count: await fixes.markInvalid(caller, body.imei, body.ids) }));
  registerCall(app, hooks, calls.GetConvertedInvalidCount, async ({ body, caller }) => ({ Count: await fixes.convertedCount(caller, body) }));
  registerCall(app, hooks, calls.GetConvertedInvalidListPage, async ({ body, caller }) => fixes.convertedPage(caller, body));
}
