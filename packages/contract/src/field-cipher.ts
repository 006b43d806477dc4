import { hchacha, xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';
import { fromBase64, toBase64 } from './seal.js';
import { newRequestCode, parseCredential, signedHeaders, signingKey } from './wire.js';

/**
 * The field cipher of docs/api.md ("Encrypted bodies and answers", §7.1 "field values are encrypted with a
 * symmetric cipher keyed from the token"): a signed-in request's body and its answer's `Data` travel
 * encrypted with XChaCha20-Poly1305 under keys derived from the session's signing key and the request's
 * single-use request code. Pure JS (noble) for the browser, where a plain-HTTP field-station page has no
 * WebCrypto; the server writes the same bytes with Node's native ChaCha20-Poly1305
 * (apps/server/src/http/field-cipher.ts). A module of its own, also exported as
 * @wildtrack/contract/field-cipher: the web client loads it with the first signed-in call.
 *
 *   okm          = HKDF-SHA256(ikm = signing key, salt = request code, info = "wildtrack-field-cipher-v1", 64)
 *   request key  = okm[0..32)     answer key = okm[32..64)
 *   sealed       = nonce (24 random bytes) ‖ XChaCha20-Poly1305(key, nonce, aad = request code, plaintext)
 *   text         = "wte1." + base64(sealed)
 *
 * The plaintext starts with one byte saying what follows (CipherForm): JSON, or the bytes a base64 `Data`
 * stands for (so binary answers are encrypted as bytes, never as base64 text of base64), or a JSON object
 * whose named field's bytes follow it.
 */

export const CIPHER_PREFIX = 'wte1.';
/** The one field of an encrypted request body: `{"Encrypted":"wte1.…"}` (and of a GET's query). */
export const ENCRYPTED_FIELD = 'Encrypted';

const CIPHER_INFO = utf8ToBytes('wildtrack-field-cipher-v1');
const NONCE = 24;
const TAG = 16;

/** The first byte of a plaintext. */
export const CipherForm = {
  /** UTF-8 JSON text follows. */
  Json: 0,
  /** The bytes follow whose base64 is the Data (a CallDef with `bytes: true`). */
  Bytes: 1,
  /** [u8 name length][name][u32 BE JSON length][JSON object][bytes of the named field] (`bytes: '<field>'`). */
  JsonWithBytes: 2,
} as const;
/** Set in the first byte when what follows it is deflate-raw compressed (the server compresses answers of 1 KiB and more). */
export const DEFLATED = 0x80;

/** The two keys of one request: the client encrypts with `request`, the server answers with `answer`. */
export interface CallKeys {
  request: Uint8Array;
  answer: Uint8Array;
  /** The request code as bytes: the associated data of both directions. */
  aad: Uint8Array;
}

/** The keys of one request, from the session's signing key (wire.ts signingKey) and its request code. */
export function callKeys(sessionSigningKey: Uint8Array, requestCode: string): CallKeys {
  const aad = utf8ToBytes(requestCode);
  const okm = hkdf(sha256, sessionSigningKey, aad, CIPHER_INFO, 64);
  return { request: okm.subarray(0, 32), answer: okm.subarray(32, 64), aad };
}

export function encryptBytes(key: Uint8Array, aad: Uint8Array, plaintext: Uint8Array): Uint8Array {
  const nonce = randomBytes(NONCE);
  const sealed = new Uint8Array(NONCE + plaintext.length + TAG);
  sealed.set(nonce, 0);
  xchacha20poly1305(key, nonce, aad).encrypt(plaintext, sealed.subarray(NONCE));
  return sealed;
}

/** Opens `nonce ‖ ciphertext ‖ tag`; throws when a byte was changed or the key or request code differ. */
export function decryptBytes(key: Uint8Array, aad: Uint8Array, sealed: Uint8Array): Uint8Array {
  if (sealed.length < NONCE + TAG) throw new Error('encrypted value too short');
  return xchacha20poly1305(key, sealed.subarray(0, NONCE), aad).decrypt(sealed.subarray(NONCE));
}

export function isEncryptedText(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(CIPHER_PREFIX);
}

function framed(form: number, payload: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + payload.length);
  out[0] = form;
  out.set(payload, 1);
  return out;
}

/** A JSON value encrypted as a `wte1.` text (a request body's, a live message's). */
export function encryptJson(key: Uint8Array, aad: Uint8Array, value: unknown): string {
  return CIPHER_PREFIX + toBase64(encryptBytes(key, aad, framed(CipherForm.Json, utf8ToBytes(JSON.stringify(value)))));
}

/** What an encrypted Data opens to: the value, and the bytes of a binary answer (`bytes` of its CallDef). */
export interface OpenedData {
  /** The Data: JSON as sent; for a Bytes answer the empty string, for JsonWithBytes the object with its field ''. */
  value: unknown;
  bytes?: Uint8Array;
  /** The field of a JsonWithBytes answer the bytes are of. */
  field?: string;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Opens a `wte1.` text (an answer's Data, a live message) into its JSON or bytes. */
export async function openData(key: Uint8Array, aad: Uint8Array, text: string): Promise<OpenedData> {
  if (!isEncryptedText(text)) throw new Error('not an encrypted value');
  return openPlaintext(decryptBytes(key, aad, fromBase64(text.slice(CIPHER_PREFIX.length))));
}

/**
 * Inflates deflate-raw bytes with the platform's DecompressionStream (browsers, also on plain-HTTP pages,
 * and Node): the answer was compressed before it was encrypted, since ciphertext doesn't compress.
 */
export function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  return throughStream(new DecompressionStream('deflate-raw'), bytes);
}

/** Deflate-raw with the platform's CompressionStream (tests, and clients that compress). */
export function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  return throughStream(new CompressionStream('deflate-raw'), bytes);
}

/** A compression stream as far as this module uses it (the DOM's and Node's types both fit). */
interface ByteStreamPair {
  readonly writable: { getWriter(): { write(chunk: Uint8Array<ArrayBuffer>): Promise<void>; close(): Promise<void> } };
  readonly readable: { getReader(): { read(): Promise<{ done: boolean; value?: Uint8Array }> } };
}

async function throughStream(pair: ByteStreamPair, bytes: Uint8Array): Promise<Uint8Array> {
  const writer = pair.writable.getWriter();
  const written = writer.write(bytes as Uint8Array<ArrayBuffer>).then(() => writer.close());
  const reader = pair.readable.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (value) {
      chunks.push(value);
      length += value.length;
    }
  }
  await written;
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export async function openPlaintext(plain: Uint8Array): Promise<OpenedData> {
  if (plain.length > 0 && (plain[0]! & DEFLATED) !== 0) {
    const rest = await inflate(plain.subarray(1));
    const whole = new Uint8Array(1 + rest.length);
    whole[0] = plain[0]! & ~DEFLATED;
    whole.set(rest, 1);
    plain = whole;
  }
  const form = plain[0];
  if (form === CipherForm.Json) return { value: JSON.parse(decoder.decode(plain.subarray(1))) };
  if (form === CipherForm.Bytes) return { value: '', bytes: plain.subarray(1) };
  if (form === CipherForm.JsonWithBytes) {
    const nameLength = plain[1]!;
    const name = decoder.decode(plain.subarray(2, 2 + nameLength));
    const at = 2 + nameLength;
    const jsonLength = new DataView(plain.buffer, plain.byteOffset + at, 4).getUint32(0);
    const value = JSON.parse(decoder.decode(plain.subarray(at + 4, at + 4 + jsonLength))) as Record<string, unknown>;
    return { value: { ...value, [name]: '' }, bytes: plain.subarray(at + 4 + jsonLength), field: name };
  }
  throw new Error('unknown plaintext form');
}

/**
 * One signed-in call as a client other than the web console sends it (tests, benchmarks, e2e, tools):
 * the headers, the encrypted body (`{"Encrypted":"wte1.…"}`) and `open`, which turns the answer's envelope
 * text into the envelope with its Data opened (a binary answer's Data in base64 as in clear, and its `bytes`). `credential` is the session
 * credential `<SessionId>.<Token>`; `key` spares deriving its signing key on every call.
 */
export function prepareCall(opts: {
  credential: string;
  key?: Uint8Array;
  path: string;
  body: unknown;
  lcid?: number;
  now?: number;
  requestCode?: string;
}): { headers: Record<string, string>; payload: string; keys: CallKeys; open(envelopeText: string): Promise<{ Code: number; Msg: string; Data: unknown; bytes?: Uint8Array }> } {
  const key = opts.key ?? signingKey(parseCredential(opts.credential).token);
  const requestCode = opts.requestCode ?? newRequestCode();
  const keys = callKeys(key, requestCode);
  const payload = JSON.stringify({ [ENCRYPTED_FIELD]: encryptJson(keys.request, keys.aad, opts.body ?? {}) });
  const headers = {
    ...signedHeaders({ token: opts.credential, key, path: opts.path, body: payload, requestCode, ...(opts.lcid !== undefined ? { lcid: opts.lcid } : {}), ...(opts.now !== undefined ? { now: opts.now } : {}) }),
    'content-type': 'application/json',
  };
  return {
    headers,
    payload,
    keys,
    async open(text) {
      const env = JSON.parse(text) as { Code: number; Msg: string; Data: unknown };
      if (!isEncryptedText(env.Data)) return env;
      const opened = await openData(keys.answer, keys.aad, env.Data);
      if (!opened.bytes) return { ...env, Data: opened.value };
      // A binary answer's base64 is made only when Data is read: a client wanting the bytes skips it.
      let data: unknown;
      const out = { Code: env.Code, Msg: env.Msg, bytes: opened.bytes } as { Code: number; Msg: string; Data: unknown; bytes: Uint8Array };
      Object.defineProperty(out, 'Data', { enumerable: true, get: () => (data ??= clearData(opened)) });
      return out;
    },
  };
}

/** The Data as it reads in clear: a binary answer's bytes back in base64 (made when first read). */
function clearData(opened: OpenedData): unknown {
  const { value, bytes, field } = opened;
  if (!bytes) return value;
  if (field === undefined) return toBase64(bytes);
  return { ...(value as Record<string, unknown>), [field]: toBase64(bytes) };
}

const SIGMA = new Uint32Array([0x61707865, 0x3320646e, 0x79622d32, 0x6b206574]);

/**
 * XChaCha20's subkey, HChaCha20(key, nonce[0..16)): with it a native IETF ChaCha20-Poly1305 (12-byte nonce
 * 0000 ‖ nonce[16..24)) writes exactly XChaCha20-Poly1305's bytes. For the server, whose crypto has
 * ChaCha20-Poly1305 but not its extended-nonce form; one ChaCha block, the same code noble uses.
 */
export function xchachaSubkey(key: Uint8Array, nonce: Uint8Array): Uint8Array {
  const k = new Uint32Array(8);
  const n = new Uint32Array(4);
  const kv = new DataView(key.buffer, key.byteOffset, 32);
  const nv = new DataView(nonce.buffer, nonce.byteOffset, 16);
  for (let i = 0; i < 8; i++) k[i] = kv.getUint32(i * 4, true);
  for (let i = 0; i < 4; i++) n[i] = nv.getUint32(i * 4, true);
  const out = new Uint32Array(8);
  hchacha(SIGMA, k, n, out);
  const bytes = new Uint8Array(32);
  const ov = new DataView(bytes.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(i * 4, out[i]!, true);
  return bytes;
}
