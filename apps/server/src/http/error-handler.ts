import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE, Code, fieldSentence, message } from '@wildtrack/contract';
import { sendEnvelope as send } from './envelope.js';
import { AppError, FieldRefusal, ValidationFailure } from './errors.js';
import { describeValidation } from './validation.js';

/**
 * The one error handler (§7.1): application refusals are HTTP 200 with their code, transport failures
 * keep their HTTP status, and anything unexpected is a 500 with the request id; details go to the log only.
 */
export function installErrorHandling(app: FastifyInstance, bodyLimit: number): void {
  app.setErrorHandler((err: FastifyError | AppError | ValidationFailure, request: FastifyRequest, reply: FastifyReply) => {
    const lang = request.lang ?? 'en';
    if (err instanceof FieldRefusal) {
      return send(reply, err.httpStatus, err.code, fieldSentence(lang, err.path, err.messageKey, err.params), err.data);
    }
    if (err instanceof AppError) {
      return send(reply, err.httpStatus, err.code, message(lang, err.messageKey, err.params), err.data);
    }
    if (err instanceof ValidationFailure) {
      const { text, field } = describeValidation(lang, err);
      return send(reply, 200, Code.Invalid, text, { Field: field });
    }
    switch (err.code) {
      case 'FST_ERR_CTP_BODY_TOO_LARGE':
        return send(reply, 413, Code.TooLarge, message(lang, 'error.tooLarge', { limit: `${Math.round(bodyLimit / 1024)} KiB` }));
      case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
        return send(reply, 415, Code.Invalid, message(lang, 'error.unsupportedMedia', { type: String(request.headers['content-type'] ?? '') }));
      case 'WT_SHARED_STATE_UNAVAILABLE':
        // Redis (REDIS_URL) away or silent: nothing was done; a refusal the caller can retry, not a 500.
        request.log.warn({ err }, 'shared state unavailable');
        void reply.header('retry-after', '5');
        return send(reply, 503, Code.Unavailable, message(lang, 'error.unavailable'), null);
      case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      case 'FST_ERR_CTP_INVALID_JSON_BODY':
        return send(reply, 400, Code.BadJson, message(lang, 'error.badJson'));
    }
    if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
      request.log.info({ err }, 'client error');
      return send(reply, err.statusCode, Code.Invalid, message(lang, 'failed'));
    }
    request.log.error({ err }, 'unexpected error');
    return send(reply, 500, Code.ServerError, message(lang, 'error.server', { requestId: request.id }), { RequestId: request.id });
  });

  app.setNotFoundHandler((request, reply) => {
    const lang = request.lang ?? 'en';
    const path = request.url.split('?')[0] ?? '';
    return send(reply, 404, Code.UnknownPath, message(lang, 'error.notFound', { path: `${request.method} ${path.slice(0, 200)}` }));
  });
}

export function isApiPath(url: string): boolean {
  return url === API_BASE || url.startsWith(`${API_BASE}/`) || url.startsWith(`${API_BASE}?`);
}
