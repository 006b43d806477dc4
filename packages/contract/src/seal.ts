import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The sealing scheme of docs/api.md (request signing is in wire.ts): passwords and codes sealed to the
 * server's key, and the session token of a sign-in answer sealed to a key the client made for that one
 * request. A module of its own, also exported as @wildtrack/contract/seal: the web client loads it, and
 * its X25519 and XChaCha20 code, only when a call carries a sealed field, so the sign-in page's first
 * load goes without it.
 */

export const SEAL_PREFIX = 'wt1.';

/**
 * What a sealed value is for, mixed into its key (HKDF info) so a value sealed for one use can't be
 * opened as another: `field` for a body field sealed to the server, `token` for an answer's token
 * sealed to the client's key.
 */
export type SealPurpose = 'field' | 'token';
const SEAL_INFO: Record<SealPurpose, Uint8Array> = {
  field: utf8ToBytes('wildtrack-password-seal-v1'),
  token: utf8ToBytes('wildtrack-token-seal-v1'),
};

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

function sealKey(shared: Uint8Array, ephemeralPublic: Uint8Array, recipientPublic: Uint8Array, purpose: SealPurpose): Uint8Array {
  const salt = new Uint8Array(64);
  salt.set(ephemeralPublic, 0);
  salt.set(recipientPublic, 32);
  return hkdf(sha256, shared, salt, SEAL_INFO[purpose], 32);
}

export function generateSealKeyPair(): { secretKey: Uint8Array; publicKey: Uint8Array } {
  const secretKey = x25519.utils.randomSecretKey();
  return { secretKey, publicKey: x25519.getPublicKey(secretKey) };
}

/**
 * Seals a secret to an X25519 public key (a password to the server's, a token to the client's):
 * ephemeral ECDH, HKDF-SHA256, then XChaCha20-Poly1305 with the request code as associated data, so a
 * sealed value is good for exactly the one request that carries it (request codes are single-use).
 */
export function sealSecret(recipientPublicKeyB64: string, secret: string, requestCode: string, purpose: SealPurpose = 'field'): string {
  const recipientPublic = fromBase64(recipientPublicKeyB64);
  if (recipientPublic.length !== 32) throw new Error('not an X25519 public key');
  const eph = generateSealKeyPair();
  const key = sealKey(x25519.getSharedSecret(eph.secretKey, recipientPublic), eph.publicKey, recipientPublic, purpose);
  const nonce = randomBytes(24);
  const ct = xchacha20poly1305(key, nonce, utf8ToBytes(requestCode)).encrypt(utf8ToBytes(secret));
  const packed = new Uint8Array(32 + 24 + ct.length);
  packed.set(eph.publicKey, 0);
  packed.set(nonce, 32);
  packed.set(ct, 56);
  return SEAL_PREFIX + toBase64(packed);
}

/** Opens a sealed secret; throws when it was not sealed to this key, for this request code and purpose. */
export function openSecret(secretKey: Uint8Array, sealed: string, requestCode: string, purpose: SealPurpose = 'field'): string {
  if (!sealed.startsWith(SEAL_PREFIX)) throw new Error('not a sealed value');
  const packed = fromBase64(sealed.slice(SEAL_PREFIX.length));
  if (packed.length < 32 + 24 + 16) throw new Error('sealed value too short');
  const ephemeralPublic = packed.subarray(0, 32);
  const nonce = packed.subarray(32, 56);
  const recipientPublic = x25519.getPublicKey(secretKey);
  const key = sealKey(x25519.getSharedSecret(secretKey, ephemeralPublic), ephemeralPublic, recipientPublic, purpose);
  const plain = xchacha20poly1305(key, nonce, utf8ToBytes(requestCode)).decrypt(packed.subarray(56));
  return new TextDecoder().decode(plain);
}

/**
 * The client's half of a sign-in (docs/api.md, "Sealed tokens"), for clients other than the web app
 * (tests, benchmarks, tools): the password sealed to the server for this request code, a key pair made
 * for this one call, and `credential(data)` opening the answer's Token into `<SessionId>.<Token>`.
 */
export function prepareSignIn(
  serverPublicKeyB64: string,
  password: string,
  requestCode: string,
): { pwd: string; clientKey: string; credential(data: { Token: string; SessionId: string }): string } {
  const pair = generateSealKeyPair();
  return {
    pwd: sealSecret(serverPublicKeyB64, password, requestCode),
    clientKey: toBase64(pair.publicKey),
    credential: (data) => `${data.SessionId}.${openSecret(pair.secretKey, data.Token, requestCode, 'token')}`,
  };
}
