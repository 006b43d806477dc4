import type { FastifyReply } from 'fastify';
import { envelope } from '@wildtrack/contract';

/** Sends an envelope with its HTTP status: refusals and answers outside registerCall (errors, files, uploads). */
export function sendEnvelope(reply: FastifyReply, status: number, code: number, msg: string, data: unknown = null) {
  return reply.status(status).type('application/json; charset=utf-8').send(envelope(code, msg, data));
}
