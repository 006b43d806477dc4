import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The request-signing and password-sealing scheme of docs/api.md, written once for the web client, the
 * server, the tests and the benchmarks. Pure JS (noble) because WebCrypto is missing on plain-HTTP
 * origins such as a field-station LAN.
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

// ---- password sealing ----------------------------------------------------------------------------

export const SEAL_PREFIX = 'wt1.';
const SEAL_INFO = utf8ToBytes('wildtrack-password-seal-v1');

export function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s);
}

export function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function sealKey(shared: Uint8Array, ephemeralPublic: Uint8Array, serverPublic: Uint8Array): Uint8Array {
  const salt = new Uint8Array(64);
  salt.set(ephemeralPublic, 0);
  salt.set(serverPublic, 32);
  return hkdf(sha256, shared, salt, SEAL_INFO, 32);
}

export function generateSealKeyPair(): { secretKey: Uint8Array; publicKey: Uint8Array } {
  const secretKey = x25519.utils.randomSecretKey();
  return { secretKey, publicKey: x25519.getPublicKey(secretKey) };
}

/**
 * Seals a secret (a password) to the server's X25519 public key: ephemeral ECDH, HKDF-SHA256, then
 * XChaCha20-Poly1305 with the request code as associated data, so a sealed value is good for exactly
 * the one request that carries it (request codes are single-use).
 */
export function sealSecret(serverPublicKeyB64: string, secret: string, requestCode: string): string {
  const serverPublic = fromBase64(serverPublicKeyB64);
  const eph = generateSealKeyPair();
  const key = sealKey(x25519.getSharedSecret(eph.secretKey, serverPublic), eph.publicKey, serverPublic);
  const nonce = randomBytes(24);
  const ct = xchacha20poly1305(key, nonce, utf8ToBytes(requestCode)).encrypt(utf8ToBytes(secret));
  const packed = new Uint8Array(32 + 24 + ct.length);
  packed.set(eph.publicKey, 0);
  packed.set(nonce, 32);
  packed.set(ct, 56);
  return SEAL_PREFIX + toBase64(packed);
}

/** Opens a sealed secret; throws when it was not sealed to this key or for this request code. */
export function openSecret(secretKey: Uint8Array, sealed: string, requestCode: string): string {
  if (!sealed.startsWith(SEAL_PREFIX)) throw new Error('not a sealed value');
  const packed = fromBase64(sealed.slice(SEAL_PREFIX.length));
  if (packed.length < 32 + 24 + 16) throw new Error('sealed value too short');
  const ephemeralPublic = packed.subarray(0, 32);
  const nonce = packed.subarray(32, 56);
  const serverPublic = x25519.getPublicKey(secretKey);
  const key = sealKey(x25519.getSharedSecret(secretKey, ephemeralPublic), ephemeralPublic, serverPublic);
  const plain = xchacha20poly1305(key, nonce, utf8ToBytes(requestCode)).decrypt(packed.subarray(56));
  return new TextDecoder().decode(plain);
}
