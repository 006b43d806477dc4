import type { FastifyInstance } from 'fastify';
import { API_BASE, LIVE_STREAM_PATH, type LiveQuery, LiveQuerySchema } from '@wildtrack/contract';
import type { CallHooks } from '../http/calls.js';
import { sessionExpired } from '../http/errors.js';
import type { LiveHub } from './hub.js';

/**
 * The console's live stream (contract live.ts): a GET signed as any call (signature, replay, session),
 * then server-sent events for as long as the console keeps it open. Refusals before the stream starts are
 * the usual envelope (no session: 1004; a bad query: 601 naming the field).
 */
export function liveRoutes(app: FastifyInstance, hooks: CallHooks, hub: LiveHub): void {
  app.route({
    method: 'GET',
    url: API_BASE + LIVE_STREAM_PATH,
    schema: { hide: true, querystring: LiveQuerySchema },
    preValidation: async (request) => {
      await hooks.verify(request);
      request.session = await hooks.resolveSession(request.signer);
    },
    handler: async (request, reply) => {
      const session = request.session;
      if (!session) throw sessionExpired();
      const { sessionId, userId, orgId } = session;
      // The stream is written on the raw response: no envelope, no compression, no serializer.
      reply.hijack();
      await hub.open({ sessionId, userId, orgId }, reply.raw, request.query as LiveQuery);
    },
  });
}
