import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { API_BASE, canonicalString, Code, Header, SIGNATURE_WINDOW_MS } from '@wildtrack/contract';
import { AppError } from './errors.js';
import type { ReplayGuard } from './replay.js';

const EMPTY_HASH = createHash('sha256').update('').digest('hex');

/** HMAC-SHA256(token, context) with node's crypto: the same key as the contract's `signingKey`. */
function keyFor(token: string): Buffer {
  return createHmac('sha256', token).update('wildtrack-request-signing-v1').digest();
}

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * Checks the signature headers of a console call (docs/api.md): timestamp inside the window, an HMAC
 * over method, path, timestamp, request code and body hash keyed from the token, and a request code
 * not seen before.
 */
export async function verifySignature(request: FastifyRequest, replay: ReplayGuard, now = Date.now()): Promise<void> {
  const timestamp = headerValue(request, Header.timestamp);
  const requestCode = headerValue(request, Header.requestCode);
  const signature = headerValue(request, Header.signature);
  const missing = [
    timestamp ? null : Header.timestamp,
    requestCode ? null : Header.requestCode,
    signature ? null : Header.signature,
  ].filter((h) => h !== null);
  if (missing.length > 0 || !timestamp || !requestCode || !signature) {
    throw new AppError(Code.BadSignature, 'error.missingHeaders', { headers: missing.join(', ') });
  }
  const ts = Number(timestamp);
  if (!Number.isSafeInteger(ts) || Math.abs(now - ts) > SIGNATURE_WINDOW_MS) {
    throw new AppError(Code.StaleTimestamp, 'error.staleTimestamp');
  }
  if (requestCode.length < 8 || requestCode.length > 128) {
    throw new AppError(Code.BadSignature, 'error.badSignature');
  }
  const raw = request.rawBody;
  const bodyHashHex = raw === undefined || raw.length === 0 ? EMPTY_HASH : createHash('sha256').update(raw).digest('hex');
  const path = request.url.startsWith(API_BASE) ? request.url.slice(API_BASE.length) : request.url;
  const canonical = canonicalString(request.method, path, timestamp, requestCode, bodyHashHex);
  const expected = createHmac('sha256', keyFor(headerValue(request, Header.token) ?? '')).update(canonical).digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError(Code.BadSignature, 'error.badSignature');
  }
  if (!(await replay.remember(requestCode, now))) throw new AppError(Code.Replayed, 'error.replayed');
}
