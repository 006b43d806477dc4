import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';

/**
 * The password-sealing scheme of docs/api.md (request signing is in wire.ts). A module of its own, also
 * exported as @wildtrack/contract/seal: the web client loads it, and its X25519 and XChaCha20 code, only
 * when a call carries a sealed field, so the sign-in page's first load goes without it.
 */

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
