import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_BASE } from '@wildtrack/contract';

/**
 * A browser that signed in to an account before (issue 26, L1): the server marks it at each sign-in with
 * a cookie only it can make (an HMAC under a server key), and the signed-out code paths (reset, phone-code
 * sign-in) give such a browser a budget of tries and codes of its own, apart from everyone else's. An
 * attacker who spends the account's budget (docs/accounts.md "Verification codes") therefore does not
 * lock the owner out of a browser they used before: a mark is had only by signing in to the account.
 * After "Device cookies" (OWASP, "Slow Down Online Guessing Attacks with Device Cookies").
 *
 * The cookie `wildtrack_known` holds up to KNOWN_MAX marks (several accounts on one browser), newest
 * first, each `<userId>.<issued, s, base 36>.<id>.<mac>`; HttpOnly, SameSite=Strict, sent with the API's
 * calls only, Secure when the request came over TLS. A mark names nobody to anyone but the server and
 * grants nothing but the separate budget: no session, no right.
 */
export const KNOWN_COOKIE = 'wildtrack_known';
export const KNOWN_KEEP_MS = 180 * 24 * 3_600_000;
const KNOWN_MAX = 5;

function mac(secret: Buffer, body: string): string {
  return createHmac('sha256', secret).update(body).digest().subarray(0, 16).toString('base64url');
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

interface Mark {
  userId: number;
  issued: number;
  id: string;
  text: string;
}

/** The marks of a cookie header that check out under the secret and have not expired. */
export function marksOf(header: string | undefined, secret: Buffer, now: number): Mark[] {
  const value = cookieValue(header, KNOWN_COOKIE);
  if (!value || value.length > 1_000) return [];
  const out: Mark[] = [];
  for (const text of value.split('~').slice(0, KNOWN_MAX)) {
    const parts = text.split('.');
    if (parts.length !== 4 || !/^\d{1,15}$/.test(parts[0]!) || !/^[0-9a-z]{1,12}$/.test(parts[1]!)) continue;
    const [user, issued, id, given] = parts as [string, string, string, string];
    if (!sameText(mac(secret, `${user}.${issued}.${id}`), given)) continue;
    const issuedMs = parseInt(issued, 36) * 1000;
    if (issuedMs + KNOWN_KEEP_MS <= now) continue;
    out.push({ userId: Number(user), issued: issuedMs, id, text });
  }
  return out;
}

/** The Set-Cookie header marking the browser for the user, keeping its other accounts' marks. */
export function markCookie(header: string | undefined, userId: number, secret: Buffer, now: number, secure: boolean): string {
  const issued = Math.floor(now / 1000).toString(36);
  const id = randomBytes(12).toString('base64url');
  const body = `${userId}.${issued}.${id}`;
  const others = marksOf(header, secret, now).filter((m) => m.userId !== userId).map((m) => m.text);
  const value = [`${body}.${mac(secret, body)}`, ...others].slice(0, KNOWN_MAX).join('~');
  return `${KNOWN_COOKIE}=${value}; Path=${API_BASE}; Max-Age=${KNOWN_KEEP_MS / 1000}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}
