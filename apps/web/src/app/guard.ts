import { parseCredential } from '@wildtrack/contract';
import { isLoginPath, loginPathFor, safeRedirectTarget } from '../lib/navigation';
import { getToken, setToken } from '../lib/session';
import { readStored, removeStored, writeStored } from '../browser/storage';

/**
 * The navigation guard of §2.2 as a pure decision: where to send a location, or null to let it render.
 * - without a token, every non-login path goes to /login?redirect=<full path>;
 * - with a token, the sign-in page goes to its redirect target (/ when there is none).
 */
export function guardRedirect(location: { pathname: string; search: string; hash: string }, signedIn: boolean): string | null {
  if (isLoginPath(location.pathname)) {
    if (!signedIn) return null;
    return safeRedirectTarget(new URLSearchParams(location.search).get('redirect'));
  }
  if (signedIn) return null;
  return loginPathFor(`${location.pathname}${location.search}${location.hash}`);
}

/** The token in the query part of the URL hash: `#/?token=…`, `#/device?token=…` or `#token=…`. */
export function tokenFromHash(hash: string): string | null {
  if (!hash || hash === '#') return null;
  const body = hash.slice(1);
  const query = body.includes('?') ? body.slice(body.indexOf('?') + 1) : body;
  const token = new URLSearchParams(query).get('token');
  return token ? token : null;
}

/** The hash without its token parameter ('' when nothing else was in it). */
export function hashWithoutToken(hash: string): string {
  const body = hash.slice(1);
  const q = body.indexOf('?');
  const [prefix, query] = q >= 0 ? [body.slice(0, q), body.slice(q + 1)] : ['', body];
  const params = new URLSearchParams(query);
  params.delete('token');
  const rest = params.toString();
  const out = rest ? `${prefix}?${rest}` : prefix;
  return out === '' || out === '/' ? '' : `#${out}`;
}

/**
 * The session a `#token=` opened and its user has not yet confirmed (issue 26 L10): its session id, in
 * localStorage so that a reload or another tab asks again rather than using it unconfirmed.
 */
const HAND_OVER_KEY = 'wildtrack_hand_over';

/**
 * §2.2: a token given in the hash is stored when none exists yet, pending the user's confirmation
 * (HandOver.tsx: "Signed in as X — continue?"), since a link can open anyone's account in a browser with
 * no session (login CSRF). Runs once at start-up, before the first guard decision; the token is taken
 * out of the address bar either way.
 */
export function adoptHashToken(): boolean {
  const token = tokenFromHash(window.location.hash);
  if (!token) return false;
  const adopted = !getToken();
  if (adopted) {
    setToken(token);
    writeStored('local', HAND_OVER_KEY, parseCredential(token).id);
  }
  const { pathname, search, hash } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}${hashWithoutToken(hash)}`);
  return adopted;
}

/** Whether this browser's session is one handed over in the address and not yet confirmed. */
export function handOverPending(): boolean {
  const id = readStored('local', HAND_OVER_KEY);
  if (id === undefined) return false;
  const token = getToken();
  if (token !== undefined && parseCredential(token).id === id) return true;
  // the pending session is gone (signed out, another sign-in): nothing waits
  removeStored('local', HAND_OVER_KEY);
  return false;
}

/** The user confirmed the handed-over session, or it was discarded. */
export function endHandOver(): void {
  removeStored('local', HAND_OVER_KEY);
}
