// How bench/load signs in and signs its calls: the web client's scheme (docs/api.md), through the
// contract's own helpers, so the generator does the client's work and the server checks it as it would.
import { API_BASE, callKeys, calls, ENCRYPTED_FIELD, encryptJson, LanguageId, newRequestCode, parseCredential, prepareSignIn, signedHeaders, signingKey } from '@wildtrack/contract';

/** A signed-in user as the generator holds them. */
export interface Session {
  account: string;
  /** The session credential `<SessionId>.<Token>`: only the id travels; the token keys the signature. */
  token: string;
  key: Uint8Array;
}

export async function publicKey(base: string): Promise<string> {
  const body = '{}';
  const res = await fetch(base + API_BASE + calls.GetPublicKey.path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...signedHeaders({ path: calls.GetPublicKey.path, body, lcid: LanguageId.en }) },
    body,
  });
  const env = (await res.json()) as { Code: number; Data: { PublicKey: string } };
  return env.Data.PublicKey;
}

/** A sign-in as the web client sends it: password sealed to the server, a key pair made for this call. */
export interface SignInRequest {
  body: string;
  headers: Record<string, string>;
  /** Opens the answer's sealed Token with the call's own key: the session, or null when refused. */
  session(answer: string): Session | null;
}

export function signInRequest(serverKey: string, account: string, password: string): SignInRequest {
  const requestCode = newRequestCode();
  const prepared = prepareSignIn(serverKey, password, requestCode);
  const body = JSON.stringify({ account, pwd: prepared.pwd, clientKey: prepared.clientKey, timeZone: '+08:00' });
  return {
    body,
    headers: { 'content-type': 'application/json', ...signedHeaders({ path: calls.PasswordLogin.path, body, lcid: LanguageId.en, requestCode }) },
    session: (answer) => {
      const env = JSON.parse(answer) as { Code: number; Data: { Token: string; SessionId: string } | null };
      if (env.Code !== 1000 || !env.Data) return null;
      const credential = prepared.credential(env.Data);
      return { account, token: credential, key: signingKey(parseCredential(credential).token) };
    },
  };
}

export async function signIn(base: string, serverKey: string, account: string, password: string): Promise<Session> {
  const request = signInRequest(serverKey, account, password);
  const res = await fetch(base + API_BASE + calls.PasswordLogin.path, { method: 'POST', headers: request.headers, body: request.body });
  const text = await res.text();
  const s = request.session(text);
  if (!s) throw new Error(`sign-in of ${account} refused: ${text}`);
  return s;
}

/** Headers of one signed call of a signed-in user. */
export function callHeaders(s: Session, path: string, body: string | undefined, method: 'POST' | 'GET' = 'POST'): Record<string, string> {
  const signed = signedHeaders({ token: s.token, key: s.key, method, path, body, lcid: LanguageId.en });
  return method === 'GET' ? signed : { 'content-type': 'application/json', ...signed };
}

/**
 * One signed call of a signed-in user as the console sends it: the body (a GET's query, `?a=1&b=2`)
 * encrypted with the request code's key (docs/api.md "Encrypted bodies and answers"); what goes on the wire.
 */
export function encryptedCall(s: Session, path: string, body: string | undefined, method: 'POST' | 'GET' = 'POST'): { path: string; body: string | undefined; headers: Record<string, string> } {
  const requestCode = newRequestCode();
  const keys = callKeys(s.key, requestCode);
  if (method === 'GET') {
    const query = body?.startsWith('?') ? Object.fromEntries(new URLSearchParams(body.slice(1))) : {};
    const p = `${path}?${ENCRYPTED_FIELD}=${encodeURIComponent(encryptJson(keys.request, keys.aad, query))}`;
    return { path: p, body: undefined, headers: signedHeaders({ token: s.token, key: s.key, method, path: p, body: undefined, lcid: LanguageId.en, requestCode }) };
  }
  const payload = JSON.stringify({ [ENCRYPTED_FIELD]: encryptJson(keys.request, keys.aad, JSON.parse(body ?? '{}')) });
  return { path, body: payload, headers: { 'content-type': 'application/json', ...signedHeaders({ token: s.token, key: s.key, method, path, body: payload, lcid: LanguageId.en, requestCode }) } };
}
