import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { API_BASE, canonicalString, Code, Header, SIGNATURE_WINDOW_MS } from '@wildtrack/contract';
import type { Signer } from './caller.js';
import { AppError, sessionExpired } from './errors.js';
import type { ReplayGuard } from './replay.js';
import { now as clockNow } from '../lib/clock.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The session named by `x-session` whose key the signature checked out with (not yet checked for idleness). */
    signer: Signer | undefined;
  }
}

const EMPTY_HASH = createHash('sha256').update('').digest('hex');

/** The key of requests outside a session: HMAC-SHA256("", context), the contract's `signingKey(undefined)`. */
const NO_SESSION_KEY = createHmac('sha256', '').update('wildtrack-request-signing-v1').digest();
/** A session id as the server makes them (16 random bytes, base64url); anything else is no session. */
const SESSION_ID = /^[A-Za-z0-9_-]{22}$/;

/** Finds the session a request names by its id, with its signing key; undefined when there is none. */
export type SignerLookup = (sessionId: string) => Promise<Signer | undefined>;

function headerValue(request: FastifyRequest, name: string): string | undefined {
  const v = request.headers[name];
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

/**
 * Checks the signature headers of a console call (docs/api.md): no clear token, timestamp inside the
 * window, an HMAC over method, path, timestamp, request code and body hash keyed with the key of the
 * session named by `x-session` (the empty-token key without one), and a request code not seen before.
 * The session found is left on `request.signer` for the session check.
 */
export async function verifySignature(request: FastifyRequest, replay: ReplayGuard, findSigner: SignerLookup, now = clockNow()): Promise<void> {
  request.signer = undefined;
  // The old transport's clear token: refused outright, so no client keeps sending it.
  if (request.headers[Header.token] !== undefined) throw new AppError(Code.BadSignature, 'error.clearToken');
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
  const sessionId = headerValue(request, Header.session);
  let signer: Signer | undefined;
  if (sessionId !== undefined) {
    signer = SESSION_ID.test(sessionId) ? await findSigner(sessionId) : undefined;
    if (!signer) throw sessionExpired();
  }
  const expected = createHmac('sha256', signer ? signer.key : NO_SESSION_KEY).update(canonical).digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError(Code.BadSignature, 'error.badSignature');
  }
  // A session call signed with the empty-token key names no caller: it is refused as the session check
  // would refuse it, before its code is remembered (anyone can sign so, without any limit; L3 of issue 26).
  // Only a declared public call goes on without a session (the live stream, say, is no call and needs one).
  if (!signer && request.routeOptions?.config?.call?.auth !== 'public') throw sessionExpired();
  if (!(await replay.remember(requestCode, now))) throw new AppError(Code.Replayed, 'error.replayed');
  request.signer = signer;
}
