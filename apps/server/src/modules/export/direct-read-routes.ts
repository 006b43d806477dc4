import type { FastifyInstance } from 'fastify';
import { DIRECT_READ_PATH } from '@wildtrack/contract';
import { ReadRefusal, type TokenService } from '../token/service.js';
import type { UserLogService } from '../userlog/service.js';
import { type DirectReadQuery, type DirectReadService, ENTITY_TYPES, refusalText } from './direct-read.js';
import { now as clockNow } from '../../lib/clock.js';

/**
 * GET /movebank/service/direct-read: Movebank's read protocol with a personal access token (HTTP Basic,
 * the user's login name and the token). Not a console call (no envelope, no signature): CSV, or a
 * sentence in the caller's language with 400, 401 (and WWW-Authenticate), 403 or 429 (and Retry-After).
 * Every authenticated request is a line of its user's log.
 */
export function directReadRoutes(app: FastifyInstance, tokens: TokenService, reader: DirectReadService, userLog: UserLogService): void {
  app.get(DIRECT_READ_PATH, { schema: { hide: true } }, async (request, reply) => {
    const query = (request.query ?? {}) as DirectReadQuery;
    try {
      const now = clockNow();
      const { tokenId, caller } = await tokens.authenticate(request.headers.authorization, request.lang, now);
      const entity = typeof query.entity_type === 'string' && (ENTITY_TYPES as readonly string[]).includes(query.entity_type) ? query.entity_type : 'other';
      await userLog.record(caller, [{ entryType: 'action', target: `directRead/${entity}/token-${tokenId}`, time: now }], now);
      const answer = await reader.read(caller, query);
      return reply.type('text/csv; charset=utf-8').header('cache-control', 'no-store').send(answer.stream);
    } catch (e) {
      if (!(e instanceof ReadRefusal)) throw e;
      if (e.status === 401) void reply.header('www-authenticate', 'Basic realm="Wildtrack", charset="UTF-8"');
      if (e.retryAfter !== undefined) void reply.header('retry-after', String(e.retryAfter));
      return reply.code(e.status).type('text/plain; charset=utf-8').send(refusalText(request.lang, e));
    }
  });
}
