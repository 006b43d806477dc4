import type { FastifyReply } from 'fastify';
import { envelope } from '@wildtrack/contract';
import { encryptJsonText, requestCipher } from './field-cipher.js';

/**
 * Sends an envelope with its HTTP status: refusals and answers outside registerCall (errors, files, uploads).
 * A signed-in request's non-null Data goes encrypted as a success's does (field-cipher.ts); Code and Msg
 * stay clear, so that a client shows the refusal whatever happened to its keys.
 */
export function sendEnvelope(reply: FastifyReply, status: number, code: number, msg: string, data: unknown = null) {
  const cipher = requestCipher(reply.request);
  const sent = cipher?.answers && data !== null && data !== undefined ? encryptJsonText(cipher.answer, cipher.aad, data) : data;
  return reply.status(status).type('application/json; charset=utf-8').send(envelope(code, msg, sent));
}
