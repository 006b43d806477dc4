import type { FastifyInstance, FastifyRequest } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { SessionInfo } from '../auth/service.js';
import { type Caller, zoneOr } from '../device/management.js';
import type { DeviceQueries } from '../device/repository.js';
import type { FixService } from './service.js';

export function fixRoutes(app: FastifyInstance, hooks: CallHooks, fixes: FixService, q: DeviceQueries): void {
  const caller = async (request: FastifyRequest, session: SessionInfo, zone?: string): Promise<Caller> => {
    const ctx = await q.callerContext(session.userId);
    return { session, lang: request.lang, zone: zoneOr(zone, ctx.time_zone) };
  };

  registerCall(app, hooks, calls.GetFixCount, async ({ body, request, session }) => ({ Count: await fixes.count(await caller(request, session, body.timeZone), body) }));
  registerCall(app, hooks, calls.GetFixListByPage, async ({ body, request, session }) => fixes.page(await caller(request, session, body.timeZone), body));
  registerCall(app, hooks, calls.GetFix, async ({ body, request, session }) => fixes.one(await caller(request, session, body.timeZone), body.imei, body.id));
  registerCall(app, hooks, calls.GetFixList, async ({ body, request, session }) =>
    fixes.tracks(await caller(request, session, body.timeZone), [body.imei], body, body.secondLevel),
  );
  registerCall(app, hooks, calls.GetFixListByImeis, async ({ body, request, session }) => fixes.tracks(await caller(request, session, body.timeZone), body.imeis, body, 'all'));
  registerCall(app, hooks, calls.GetAvgListByImeisAndTime, async ({ body, request, session }) =>
    fixes.tracks(await caller(request, session, body.timeZone), body.imeis, body, 'avg'),
  );
  registerCall(app, hooks, calls.GetLastFixList, async ({ body, request, session }) => fixes.last(await caller(request, session, body.timeZone), body.imeis));
  registerCall(app, hooks, calls.GetLastFixByImei, async ({ body, request, session }) => fixes.lastOne(await caller(request, session, body.timeZone), body.imei));
  registerCall(app, hooks, calls.ConvertFixInvalid, async ({ body, request, session }) => ({
    Count: await fixes.markInvalid(await caller(request, session), body.imei, body.ids),
  }));
  registerCall(app, hooks, calls.GetConvertedInvalidCount, async ({ body, request, session }) => ({
    Count: await fixes.convertedCount(await caller(request, session, body.timeZone), body),
  }));
  registerCall(app, hooks, calls.GetConvertedInvalidListPage, async ({ body, request, session }) =>
    fixes.convertedPage(await caller(request, session, body.timeZone), body),
  );
}
