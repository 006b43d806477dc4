import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The request-signing scheme of docs/api.md, written once for the web client, the server, the tests and
 * the benchmarks (password sealing, its other half, is in seal.ts). Pure JS (noble) because WebCrypto is
 * missing on plain-HTTP origins such as a field-station LAN.
 *
 * The session token never travels after sign-in: a request names its session by `x-session` (the
 * non-secret SessionId of the sign-in answer) and proves it holds the token by the HMAC, keyed from it.
 * Clients keep the two together as one credential text, `<SessionId>.<Token>` (sessionCredential).
 */

export const Header = {
  /** The session id (not secret) of a signed-in request; the server looks the signing key up by it. */
  session: 'x-session',
  /** The clear token header of the old transport: a request carrying it is refused (1020). */
  token: 'x-token',
  signature: 'x-signature',
  timestamp: 'x-timestamp',
  requestCode: 'x-request-code',
  lang: 'x-lang',
  terminal: 'x-terminal',
  dataFormat: 'x-data-format',
  requestId: 'x-request-id',
} as const;

/** Signed requests older (or newer) than this are refused, and request codes are remembered this long. */
export const SIGNATURE_WINDOW_MS = 5 * 60_000;

const SIGNING_CONTEXT = utf8ToBytes('wildtrack-request-signing-v1');

/**
 * The per-session signing key: HMAC-SHA256(token, context). An empty token is used before sign-in.
 * The server stores this key (not the token) with the session, so it can check the HMAC.
 */
export function signingKey(token: string | undefined): Uint8Array {
  return hmac(sha256, utf8ToBytes(token ?? ''), SIGNING_CONTEXT);
}

const IMAGE_CONTEXT = utf8ToBytes('wildtrack-image-cookie-v1');

/**
 * The image key of a session: HMAC-SHA256(signing key, context), hex. An <img> can't sign, so the
 * browser keeps `<SessionId>.<image key>` in the session cookie for the uploads route; it opens
 * pictures only, and the token can't be worked back from it.
 */
export function imageKey(signingKeyBytes: Uint8Array): string {
  return bytesToHex(hmac(sha256, signingKeyBytes, IMAGE_CONTEXT));
}

/** A session as a client keeps it: the id it names in `x-session` and the token it signs with. */
export interface SessionCredential {
  id: string;
  token: string;
}

/** The browser's localStorage key of the session credential (never a cookie: cookies travel). */
export const SESSION_CREDENTIAL_KEY = 'wildtrack_session';

/** `<SessionId>.<Token>`: how a client keeps (and the §2.2 URL hash hands over) a session. */
export function sessionCredential(id: string, token: string): string {
  return `${id}.${token}`;
}

/** Splits a credential text; a text without a dot is all token (no session id: the server answers 1004). */
export function parseCredential(text: string): SessionCredential {
  const dot = text.indexOf('.');
  return dot < 0 ? { id: '', token: text } : { id: text.slice(0, dot), token: text.slice(dot + 1) };
}

export function bodyHash(body: string | Uint8Array | undefined): string {
  const bytes = body === undefined ? new Uint8Array(0) : typeof body === 'string' ? utf8ToBytes(body) : body;
  return bytesToHex(sha256(bytes));
}

export interface SignInput {
  method: string;
  /** The path under /prod-api, with its query string, e.g. `/api/Auth/PasswordLogin`. */
  path: string;
  timestamp: number | string;
  requestCode: string;
  body: string | Uint8Array | undefined;
}

/** The signed string: method, path, timestamp, request code and the body's SHA-256 (hex), one per line. */
export function canonicalString(method: string, path: string, timestamp: number | string, requestCode: string, bodyHashHex: string): string {
  return [method.toUpperCase(), path, String(timestamp), requestCode, bodyHashHex].join('\n');
}

export function canonicalRequest(input: SignInput): string {
  return canonicalString(input.method, input.path, input.timestamp, input.requestCode, bodyHash(input.body));
}

export function signRequest(key: Uint8Array, input: SignInput): string {
  return bytesToHex(hmac(sha256, key, utf8ToBytes(canonicalRequest(input))));
}

export function newRequestCode(): string {
  return bytesToHex(randomBytes(16));
}

/** Constant-time comparison of two hex strings. */
export function safeEqualHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * Headers for one signed call, as the web client, tests and benchmarks send them. `token` is the
 * session credential (`<SessionId>.<Token>`, see sessionCredential): its id goes in `x-session`, its
 * token only into the key. `key` spares deriving the key on every call.
 */
export function signedHeaders(opts: {
  token?: string | undefined;
  key?: Uint8Array;
  method?: string;
  path: string;
  body: string | undefined;
  lcid?: number;
  now?: number;
  requestCode?: string;
}): Record<string, string> {
  const timestamp = opts.now ?? Date.now();
  const requestCode = opts.requestCode ?? newRequestCode();
  const credential = opts.token ? parseCredential(opts.token) : undefined;
  const key = opts.key ?? signingKey(credential?.token);
  const headers: Record<string, string> = {
    [Header.timestamp]: String(timestamp),
    [Header.requestCode]: requestCode,
    [Header.signature]: signRequest(key, { method: opts.method ?? 'POST', path: opts.path, timestamp, requestCode, body: opts.body }),
    [Header.dataFormat]: 'json',
  };
  if (credential?.id) headers[Header.session] = credential.id;
  if (opts.lcid !== undefined) headers[Header.lang] = String(opts.lcid);
  return headers;
}
