import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The request-signing scheme of docs/api.md, written once for the web client, the server, the tests and
 * the benchmarks (password sealing, its other half, is in seal.ts). Pure JS (noble) because WebCrypto is
 * missing on plain-HTTP origins such as a field-station LAN.
 */

export const Header = {
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

/** The per-session signing key: HMAC-SHA256(token, context). An empty token is used before sign-in. */
export function signingKey(token: string | undefined): Uint8Array {
  return hmac(sha256, utf8ToBytes(token ?? ''), SIGNING_CONTEXT);
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

/** Headers for one signed call, as the web client, tests and benchmarks send them. */
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
  const key = opts.key ?? signingKey(opts.token);
  const headers: Record<string, string> = {
    [Header.timestamp]: String(timestamp),
    [Header.requestCode]: requestCode,
    [Header.signature]: signRequest(key, { method: opts.method ?? 'POST', path: opts.path, timestamp, requestCode, body: opts.body }),
    [Header.dataFormat]: 'json',
  };
  if (opts.token) headers[Header.token] = opts.token;
  if (opts.lcid !== undefined) headers[Header.lang] = String(opts.lcid);
  return headers;
}
