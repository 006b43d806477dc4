import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { EventService } from './service.js';

/** Events (§7.2 Event/*): thin routes over EventService. */
export function eventRoutes(app: FastifyInstance, hooks: CallHooks, events: EventService): void {
  registerCall(app, hooks, calls.GetEventCount, async ({ body, caller }) => ({ Count: await events.count(caller, body) }));
  registerCall(app, hooks, calls.GetEventListByPage, async ({ body, caller }) => events.page(caller, body));
  registerCall(app, hooks, calls.GetEventSubscribe, async ({ body, caller }) => ({ List: await events.subscriptions(caller, body.imei) }));
  registerCall(app, hooks, calls.SetEventSubscribe, async ({ body, caller }) => events.subscribe(caller, body));
  registerCall(app, hooks, calls.EventViewed, async ({ body, caller }) => {
    await events.viewed(caller, body.eventIds);
    return null;
  });
  registerCall(app, hooks, calls.EventViewedAll, async ({ body, caller }) => ({ Count: await events.viewedAll(caller, body) }));
}
