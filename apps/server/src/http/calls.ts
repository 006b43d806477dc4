import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE, type CallDef, Code, envelopeSchema, Header, type Lang, message } from '@wildtrack/contract';
import type { z } from 'zod';
import type { SessionInfo } from '../modules/auth/service.js';
import { AppError } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body exactly as sent, for the signature's body hash. */
    rawBody: string | undefined;
    lang: Lang;
    session: SessionInfo | undefined;
  }
  interface FastifyContextConfig {
    call?: CallDef;
  }
}

export interface CallContext<B> {
  body: B;
  request: FastifyRequest;
  reply: FastifyReply;
  /** The caller's session; present on every `session` call. */
  session: SessionInfo;
}

export interface CallHooks {
  /** Signature, timestamp and replay check (http/signature.ts). */
  verify(request: FastifyRequest): void;
  resolveSession(token: string | undefined): Promise<SessionInfo>;
  /** Opens a field sealed to the server key; throws 1023 naming the field. */
  openSealed(field: string, value: string, requestCode: string): Promise<string>;
}

/**
 * Registers one contract call: POST /prod-api + path, the body checked by the contract's schema, and the
 * handler's result wrapped in the envelope. Security runs before validation: signature, then session,
 * then sealed fields are opened.
 */
export function registerCall<B extends z.ZodType, D extends z.ZodType>(
  app: FastifyInstance,
  hooks: CallHooks,
  def: CallDef<B, D>,
  handler: (ctx: CallContext<z.output<B>>) => Promise<z.output<D>>,
): void {
  const get = def.method === 'GET';
  app.route({
    method: get ? 'GET' : 'POST',
    url: API_BASE + def.path,
    config: { call: def },
    schema: {
      summary: def.summary,
      tags: [def.path.split('/')[2] ?? 'api'],
      ...(get ? { querystring: def.body } : { body: def.body }),
      response: { 200: envelopeSchema(def.data) },
    },
    preValidation: async (request) => {
      hooks.verify(request);
      if (def.auth === 'session') {
        const token = request.headers[Header.token];
        request.session = await hooks.resolveSession(typeof token === 'string' ? token : undefined);
      }
      // Sealed fields are opened before validation so the contract's rules apply to the plain value.
      if (!def.sealed || !request.body || typeof request.body !== 'object') return;
      const body = request.body as Record<string, unknown>;
      const code = String(request.headers[Header.requestCode]);
      for (const field of def.sealed) {
        const value = body[field];
        if (typeof value === 'string') body[field] = await hooks.openSealed(field, value, code);
      }
    },
    handler: async (request, reply) => {
      const data = await handler({
        body: (get ? request.query : request.body) as z.output<B>,
        request,
        reply,
        session: request.session as SessionInfo,
      });
      return { Code: Code.Success, Msg: message(request.lang, 'ok'), Data: data ?? null };
    },
  });
}

export function requireSession(request: FastifyRequest): SessionInfo {
  if (!request.session) throw new AppError(Code.SessionExpired, 'error.sessionExpired');
  return request.session;
}
