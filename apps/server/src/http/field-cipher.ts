import { createCipheriv, createDecipheriv, createHmac, randomFillSync } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyRequest } from 'fastify';
import { CIPHER_PREFIX, CipherForm, Code, DEFLATED, ENCRYPTED_FIELD, Header, isEncryptedText, xchachaSubkey } from '@wildtrack/contract';
import { AppError } from './errors.js';

/**
 * The server's half of the field cipher (contract field-cipher.ts; docs/api.md "Encrypted bodies and
 * answers"): the same keys and bytes, with Node's native ChaCha20-Poly1305 under XChaCha20's subkey
 * (HChaCha20, one block in JS). Native because it is an order of magnitude faster than noble on the
 * megabytes of a track (8 MB: 40 ms against 441 ms; 60 B: 52-61 µs against 171-220 µs, measured on the
 * shared machine), and the output is byte for byte the one noble writes (field-cipher.test.ts).
 *
 * `on` (FIELD_CIPHER, the default): a signed-in request's body must come encrypted (an empty one may not)
 * and every signed-in answer's Data goes encrypted. `off` (debugging): a body in clear is served and
 * answered in clear; an encrypted request still gets an encrypted answer, so the console keeps working.
 */
export type FieldCipherMode = 'on' | 'off';

/** The keys of one request and whether its answers are encrypted. */
export interface RequestCipher {
  request: Buffer;
  answer: Buffer;
  aad: Buffer;
  /** The answer's Data (and a refusal's non-null Data) is encrypted. */
  answers: boolean;
}

const ciphers = new WeakMap<FastifyRequest, RequestCipher>();

/** The cipher of a signed-in request once its body was opened; undefined for public calls and refusals before it. */
export function requestCipher(request: FastifyRequest): RequestCipher | undefined {
  return ciphers.get(request);
}

const INFO = Buffer.from('wildtrack-field-cipher-v1');
const NONCE = 24;
const TAG = 16;
/** Answers at least this long are deflated before they are encrypted (as HTTP compression would have done). */
const DEFLATE_FROM = 1024;

/** HKDF-SHA256 (RFC 5869) of 64 bytes with native HMACs: Node's hkdfSync costs twice as much per call. */
export function callKeys(signingKey: Uint8Array, requestCode: string): { request: Buffer; answer: Buffer; aad: Buffer } {
  const aad = Buffer.from(requestCode, 'utf8');
  const prk = createHmac('sha256', aad).update(signingKey).digest();
  const t1 = createHmac('sha256', prk).update(INFO).update(Buffer.of(1)).digest();
  const t2 = createHmac('sha256', prk).update(t1).update(INFO).update(Buffer.of(2)).digest();
  return { request: t1, answer: t2, aad };
}

// Nonces come from a pool filled a few kilobytes at a time: one call into the system's random source per
// 170 answers instead of one each.
const pool = Buffer.alloc(4096);
let poolAt = pool.length;
function nonce(): Buffer {
  if (poolAt + NONCE > pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  const n = Buffer.from(pool.subarray(poolAt, poolAt + NONCE));
  poolAt += NONCE;
  return n;
}

function ietfNonce(n: Uint8Array): Buffer {
  const iv = Buffer.alloc(12);
  iv.set(n.subarray(16, 24), 4);
  return iv;
}

/** nonce ‖ ciphertext ‖ tag of the parts, concatenated as one plaintext. */
export function encryptParts(key: Uint8Array, aad: Uint8Array, parts: readonly Uint8Array[]): Buffer {
  const n = nonce();
  const cipher = createCipheriv('chacha20-poly1305', xchachaSubkey(key, n), ietfNonce(n), { authTagLength: TAG });
  cipher.setAAD(aad, { plaintextLength: parts.reduce((s, p) => s + p.length, 0) });
  const out = [n];
  for (const p of parts) out.push(cipher.update(p));
  out.push(cipher.final(), cipher.getAuthTag());
  return Buffer.concat(out);
}

export function decryptBytes(key: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Buffer {
  if (sealed.length < NONCE + TAG) throw new Error('encrypted value too short');
  const n = sealed.subarray(0, NONCE);
  const decipher = createDecipheriv('chacha20-poly1305', xchachaSubkey(key, n), ietfNonce(n), { authTagLength: TAG });
  decipher.setAAD(aad, { plaintextLength: sealed.length - NONCE - TAG });
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
  return Buffer.concat([decipher.update(sealed.subarray(NONCE, sealed.length - TAG)), decipher.final()]);
}

/** A JSON value as a `wte1.` text, not compressed (a refusal's Data, a live message: small). */
export function encryptJsonText(key: Uint8Array, aad: Uint8Array, value: unknown): string {
  return CIPHER_PREFIX + encryptParts(key, aad, [Buffer.of(CipherForm.Json), Buffer.from(JSON.stringify(value))]).toString('base64');
}

function openJson(key: Uint8Array, aad: Uint8Array, text: string): unknown {
  const plain = decryptBytes(key, aad, Buffer.from(text.slice(CIPHER_PREFIX.length), 'base64'));
  if (plain[0] !== CipherForm.Json) throw new Error('a request body is JSON');
  return JSON.parse(plain.subarray(1).toString('utf8'));
}

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length === 0);
}

/**
 * Opens a signed-in request's encrypted body (or a GET's query, `?Encrypted=wte1.…`) in place, before
 * validation, and remembers the request's keys for its answer. Refused with 1024: an encrypted value that
 * doesn't open (a changed byte, another request code or session), or, with the cipher on, a body in clear.
 */
export function openRequest(request: FastifyRequest, signingKey: Uint8Array, mode: FieldCipherMode, where: 'body' | 'query', opts: { clearAllowed?: boolean } = {}): void {
  const keys = callKeys(signingKey, String(request.headers[Header.requestCode]));
  const given = where === 'body' ? request.body : request.query;
  const fields = given && typeof given === 'object' ? (given as Record<string, unknown>) : undefined;
  const sealed = fields?.[ENCRYPTED_FIELD];
  if (fields && sealed !== undefined && Object.keys(fields).length === 1) {
    if (!isEncryptedText(sealed)) throw new AppError(Code.BadEncryption, 'error.badEncryption');
    let value: unknown;
    try {
      value = openJson(keys.request, keys.aad, sealed);
    } catch {
      throw new AppError(Code.BadEncryption, 'error.badEncryption');
    }
    ciphers.set(request, { ...keys, answers: true });
    if (where === 'body') request.body = value;
    else (request as { query: unknown }).query = value;
    return;
  }
  if (mode === 'on' && !opts.clearAllowed && !isEmpty(given)) throw new AppError(Code.BadEncryption, 'error.clearBody');
  ciphers.set(request, { ...keys, answers: mode === 'on' });
}

const deflateRaw = promisify(zlib.deflateRaw);

/** What a binary answer is made of (http/calls.ts JsonData.withBase64): the other fields, and the bytes of one. */
export interface BinaryParts {
  rest: Record<string, unknown>;
  field: string;
  bytes: Uint8Array;
}

/**
 * The success envelope of an encrypted answer, written into one buffer: `{"Code":1000,"Msg":…,"Data":"wte1.…"}`.
 * A base64 Data (`bytes: true`) and a binary field are encrypted as their bytes; answers of 1 KiB and
 * more are deflated first (on the thread pool), since the ciphertext no longer compresses on the way.
 */
export async function encryptedEnvelope(cipher: RequestCipher, msg: string, data: unknown, opts: { bytes?: true | string; binary?: BinaryParts; json?: Buffer }): Promise<Buffer> {
  let form: number;
  let body: Buffer[];
  if (opts.binary) {
    const { rest, field, bytes } = opts.binary;
    const name = Buffer.from(field);
    const json = Buffer.from(JSON.stringify(rest));
    const head = Buffer.alloc(1 + name.length + 4);
    head[0] = name.length;
    name.copy(head, 1);
    head.writeUInt32BE(json.length, 1 + name.length);
    form = CipherForm.JsonWithBytes;
    body = [head, json, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)];
  } else if (opts.bytes === true && typeof data === 'string') {
    form = CipherForm.Bytes;
    body = [Buffer.from(data, 'base64')];
  } else {
    form = CipherForm.Json;
    body = [opts.json ?? Buffer.from(JSON.stringify(data ?? null))];
  }
  const length = body.reduce((s, b) => s + b.length, 0);
  if (length >= DEFLATE_FROM) {
    body = [await deflateRaw(body.length === 1 ? body[0]! : Buffer.concat(body), { level: 1 })];
    form |= DEFLATED;
  }
  const sealed = encryptParts(cipher.answer, cipher.aad, [Buffer.of(form), ...body]);
  const head = Buffer.from(`{"Code":${Code.Success},"Msg":${JSON.stringify(msg)},"Data":"${CIPHER_PREFIX}`);
  const out = Buffer.allocUnsafe(head.length + Math.ceil(sealed.length / 3) * 4 + 2);
  let at = head.copy(out);
  at += out.write(sealed.toString('base64'), at, 'latin1');
  at += out.write('"}', at, 'latin1');
  return out.subarray(0, at);
}
