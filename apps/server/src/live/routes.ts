import type { FastifyInstance } from 'fastify';
import { API_BASE, LIVE_STREAM_PATH, type LiveQuery, LiveQuerySchema } from '@wildtrack/contract';
import type { CallHooks } from '../http/calls.js';
import { sessionExpired } from '../http/errors.js';
import { encryptJsonText, openRequest, requestCipher } from '../http/field-cipher.js';
import type { LiveHub } from './hub.js';

/**
 * The console's live stream (contract live.ts): a GET signed as any call (signature, replay, session),
 * then server-sent events for as long as the console keeps it open. Refusals before the stream starts are
 * the usual envelope (no session: 1004; a bad query: 601 naming the field). Each message's data goes
 * encrypted as a call's answer does (http/field-cipher.ts; its query, the cursors, may come encrypted too).
 */
export function liveRoutes(app: FastifyInstance, hooks: CallHooks, hub: LiveHub): void {
  app.route({
    method: 'GET',
    url: API_BASE + LIVE_STREAM_PATH,
    schema: { hide: true, querystring: LiveQuerySchema },
    preValidation: async (request) => {
      await hooks.verify(request);
      request.session = await hooks.resolveSession(request.signer);
      // The query holds only the cursors (ids the console saw): it may come in clear; the messages never do.
      if (request.signer) openRequest(request, request.signer.key, hooks.fieldCipher, 'query', { clearAllowed: true });
    },
    handler: async (request, reply) => {
      const session = request.session;
      if (!session) throw sessionExpired();
      const { sessionId, userId, orgId } = session;
      // The stream is written on the raw response: no envelope, no compression, no serializer.
      reply.hijack();
      const cipher = requestCipher(request);
      // One key for the stream's messages (the request code's answer key), each with its own random nonce.
      const dataOf = cipher?.answers ? (msg: unknown) => encryptJsonText(cipher.answer, cipher.aad, msg) : undefined;
      await hub.open({ sessionId, userId, orgId }, reply.raw, request.query as LiveQuery, dataOf);
    },
  });
}
