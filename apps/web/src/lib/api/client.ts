import {
  API_BASE,
  bodyHash,
  Code,
  DUPLICATE_SUBMIT_WINDOW_MS,
  GetPublicKey,
  Header,
  LanguageId,
  LONG_REQUEST_TIMEOUT_MS,
  newRequestCode,
  parseCredential,
  REQUEST_TIMEOUT_MS,
  sessionCredential,
  signedHeaders,
  signingKey,
  SILENT_CODES,
  type CallBody,
  type CallData,
  type CallDef,
  type Envelope,
} from '@wildtrack/contract';
import type * as FieldCipherModule from '@wildtrack/contract/field-cipher';
import { getLang, i18n } from '../../i18n';
import { beginLoading } from '../loading';
import { currentFullPath, loginPathFor, navigateTo } from '../navigation';
import { notifier, type Notifier } from '../notify';
import { clearSession, getToken } from '../session';
import { readStored } from '../../browser/storage';
import { ApiError } from './errors';
import { terminalDescription } from './terminal';
import { fetchWithUploadProgress } from './xhr';

/**
 * The one way the console talks to the server (§7.1, §8): a signed POST to /prod-api + path, the
 * envelope mapped exactly as the error catalogue says.
 *
 * - `callReply()` resolves for 1000 and for the silent codes 1005/1006/1007 (handed back as data, no
 *   notification), so verification flows can branch on the code.
 * - `call()` resolves with Data for 1000 and rejects otherwise (silent codes as an `ApiError` of kind
 *   'silent', still without a notification).
 * Every other outcome rejects with an `ApiError` after showing what §8 asks for.
 */

export interface CallOptions {
  /** Drop the same call with the same body within 400 ms (§5). Default true. */
  repeatCheck?: boolean;
  /** Show the global loading overlay while the call runs. Default true. */
  loading?: boolean;
  /**
   * Show the warning for refusal codes other than 500/601/1004/1005–1007. Default true; false for the
   * user-log record call (§8), which must never bother the user.
   */
  notify?: boolean;
  /**
   * Nothing at all is shown and nothing navigates, whatever the outcome (network, timeout, 601, an ended
   * session): the user log's background record (§8 "no notification when it fails"). The call still fails.
   */
  quiet?: boolean;
  /** Aborting it cancels the call silently. */
  signal?: AbortSignal;
  /** An upload's progress (bytes sent, of total): the upload then goes by XMLHttpRequest, fetch can't report it. */
  onUploadProgress?: (sent: number, total: number) => void;

  /**
   * A download call (§7.1: answered with the file): the file and its Content-Disposition (download.ts).
   * A refusal still comes as the envelope and is handled as any call's.
   */
  onFile?: (file: Blob, disposition: string | null) => void;
}

export type Reply<C extends CallDef> =
  | { ok: true; code: typeof Code.Success; msg: string; data: CallData<C>; /** A binary answer's bytes (CallDef.bytes) when it came encrypted. */ bytes?: Uint8Array }
  | { ok: false; code: number; msg: string; data: unknown };

/** The body a caller gives: the contract's, less `clientKey`, which the client makes for the call itself. */
export type ClientBody<C> = CallBody<C> extends infer B ? (B extends { clientKey: unknown } ? Omit<B, 'clientKey'> : B) : never;

/** A call's body is optional when its schema accepts `undefined` (calls without a body). */
export type CallArgs<C extends CallDef> = undefined extends ClientBody<C>
  ? [body?: ClientBody<C>, opts?: CallOptions]
  : [body: ClientBody<C>, opts?: CallOptions];

const TIMEOUT = Symbol('timeout');
const CANCELLED = Symbol('cancelled');

const t = (key: string, params?: Record<string, unknown>): string => i18n.t(key, params ?? {});

// ---- state kept across calls ----------------------------------------------------------------------

/** When each (path, body) was last sent, for the duplicate-submit window. Bodies are kept as hashes. */
const recentSubmissions = new Map<string, number>();
let publicKeyPromise: Promise<string> | null = null;
/** The token whose expiry was already announced, so parallel 1004 replies warn once. */
let expiryAnnouncedFor: string | undefined;
let terminal: string | undefined;

export function resetClientForTests(): void {
  recentSubmissions.clear();
  publicKeyPromise = null;
  expiryAnnouncedFor = undefined;
  terminal = undefined;
}

function isDuplicate(path: string, plainBody: string): boolean {
  const now = Date.now();
  for (const [key, at] of recentSubmissions) if (now - at >= DUPLICATE_SUBMIT_WINDOW_MS) recentSubmissions.delete(key);
  const key = `${path}\n${bodyHash(plainBody)}`;
  const last = recentSubmissions.get(key);
  if (last !== undefined && now - last < DUPLICATE_SUBMIT_WINDOW_MS) return true;
  recentSubmissions.set(key, now);
  return false;
}

function cancelled(reason: string): ApiError {
  return new ApiError('cancelled', reason, { notified: false });
}

/** The server's sealing key, fetched once per page life; a failed fetch is retried on the next need. */
function publicKey(): Promise<string> {
  if (!publicKeyPromise) {
    publicKeyPromise = call(GetPublicKey, undefined, { loading: false, repeatCheck: false }).then(
      (data) => data.PublicKey,
      (error: unknown) => {
        publicKeyPromise = null;
        throw error;
      },
    );
  }
  return publicKeyPromise;
}

function parseEnvelope(text: string): Envelope<unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === 'object' && typeof (value as { Code?: unknown }).Code === 'number') {
      const env = value as { Code: number; Msg?: unknown; Data?: unknown };
      return { Code: env.Code, Msg: typeof env.Msg === 'string' ? env.Msg : '', Data: env.Data ?? null };
    }
  } catch {
    // not JSON: handled by the caller
  }
  return null;
}

// ---- the exchange -------------------------------------------------------------------------------

/**
 * The debugging switch of the field cipher (docs/api.md "Encrypted bodies and answers"): with
 * `localStorage.wildtrack_field_cipher = 'off'` the console sends signed-in calls in clear, which a server
 * with FIELD_CIPHER=off answers in clear. Any other value, or none, encrypts.
 */
export const FIELD_CIPHER_SWITCH = 'wildtrack_field_cipher';

function fieldCipherWanted(): boolean {
  return readStored('local', FIELD_CIPHER_SWITCH) !== 'off';
}

type FieldCipher = typeof FieldCipherModule;

/** What came back: the envelope, its Data opened, and a binary answer's bytes. */
interface Answer {
  envelope: Envelope<unknown>;
  bytes?: Uint8Array;
}

function badReply(opts: CallOptions, why: string, status?: number): ApiError {
  say(opts).notification.warning({ title: t('api.networkTitle'), description: t('api.badReply') });
  return new ApiError('bad-reply', why, { ...(status === undefined ? {} : { status }), notified: true });
}

/** Whether a call answers a token sealed to a key the client makes for it: its body has `clientKey`. */
function takesClientKey(def: CallDef): boolean {
  const shape = (def.body as { shape?: unknown }).shape;
  return typeof shape === 'object' && shape !== null && 'clientKey' in shape;
}

/**
 * The answer of a call that returns a token (sign-in): its `Token`, sealed to this call's client key,
 * opened and handed on as the session credential `<SessionId>.<Token>` that session.ts keeps.
 */
function openTokenAnswer(data: unknown, open: (sealed: string) => string): unknown {
  if (!data || typeof data !== 'object') return data;
  const { Token, SessionId } = data as { Token?: unknown; SessionId?: unknown };
  if (typeof Token !== 'string' || typeof SessionId !== 'string') return data;
  let token: string;
  try {
    token = open(Token);
  } catch {
    notifier().notification.warning({ title: t('api.networkTitle'), description: t('api.badReply') });
    throw new ApiError('bad-reply', 'the token in the answer did not open with this call\'s key', { notified: true });
  }
  return { ...data, Token: sessionCredential(SessionId, token) };
}

/**
 * The query string of a GET call (§7.2: GetDetailByIMEI): the body's fields in their order, absent and
 * null ones left out. The signature covers the path with this query and an empty body.
 */
export function queryString(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(body as Record<string, unknown>)) {
    if (value === undefined || value === null) continue;
    params.append(key, typeof value === 'object' ? JSON.stringify(value) : String(value as string | number | boolean));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** What goes on the wire for one call: method, path (with the query of a GET) and body. */
interface Outgoing {
  method: 'POST' | 'GET';
  path: string;
  /** JSON text, FormData for an upload (signed as an empty body), or nothing for a GET. */
  body: string | FormData | undefined;
  timeout: 'normal' | 'long';
}

async function exchange(
  def: CallDef,
  body: unknown,
  plainBody: string,
  token: string | undefined,
  opts: CallOptions,
  upload?: FormData,
): Promise<Answer> {
  // The request code is chosen first: sealed values and the field cipher's keys are bound to it (wire.ts).
  const requestCode = newRequestCode();
  const method = def.method ?? 'POST';
  let wireBody = plainBody;
  let wireObject: unknown = body ?? {};
  let openToken: ((sealed: string) => string) | undefined;
  const sealsAnswer = takesClientKey(def);
  if ((def.sealed?.length || sealsAnswer) && body && typeof body === 'object') {
    // Sealing (X25519, XChaCha20) is loaded with the first sealed call, not with the sign-in page.
    const [key, seal] = await Promise.all([def.sealed?.length ? publicKey() : Promise.resolve(''), import('@wildtrack/contract/seal')]);
    const sealed: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    for (const field of def.sealed ?? []) {
      const value = sealed[field];
      if (typeof value === 'string') sealed[field] = seal.sealSecret(key, value, requestCode);
    }
    if (sealsAnswer) {
      // A key pair for this call only: the answer's token is sealed to its public half, which is all
      // that travels; the secret half opens it and is dropped with this closure.
      const pair = seal.generateSealKeyPair();
      sealed.clientKey = seal.toBase64(pair.publicKey);
      openToken = (text) => seal.openSecret(pair.secretKey, text, requestCode, 'token');
    }
    wireBody = JSON.stringify(sealed);
    wireObject = sealed;
  }

  // A signed-in call's body (a GET's query) goes encrypted, and its answer's Data comes encrypted: keys
  // from the session's signing key and this request code (contract field-cipher.ts, loaded with the
  // first signed-in call, not with the sign-in page). Uploads go as they are (docs/api.md says why).
  const key = token ? signingKey(parseCredential(token).token) : undefined;
  let cipher: { mod: FieldCipher; keys: ReturnType<FieldCipher['callKeys']> } | undefined;
  if (key && upload === undefined && fieldCipherWanted()) {
    const mod = await import('@wildtrack/contract/field-cipher');
    cipher = { mod, keys: mod.callKeys(key, requestCode) };
  }
  const encrypted = cipher ? cipher.mod.encryptJson(cipher.keys.request, cipher.keys.aad, wireObject) : undefined;

  const out: Outgoing =
    upload !== undefined
      ? { method: 'POST', path: def.path, body: upload, timeout: def.timeout ?? 'normal' }
      : method === 'GET'
        ? {
            method: 'GET',
            path: def.path + (encrypted && cipher ? `?${cipher.mod.ENCRYPTED_FIELD}=${encodeURIComponent(encrypted)}` : queryString(body)),
            body: undefined,
            timeout: def.timeout ?? 'normal',
          }
        : { method: 'POST', path: def.path, body: encrypted && cipher ? JSON.stringify({ [cipher.mod.ENCRYPTED_FIELD]: encrypted }) : wireBody, timeout: def.timeout ?? 'normal' };

  terminal ??= terminalDescription();
  const headers: Record<string, string> = {
    [Header.terminal]: terminal,
    // A GET and a multipart upload are signed over an empty body; the browser sets the multipart type.
    ...signedHeaders({
      token,
      ...(key ? { key } : {}),
      method: out.method,
      path: out.path,
      body: typeof out.body === 'string' ? out.body : '',
      lcid: LanguageId[getLang()],
      requestCode,
    }),
  };
  if (typeof out.body === 'string') headers['content-type'] = 'application/json';

  const controller = new AbortController();
  const limit = out.timeout === 'long' ? LONG_REQUEST_TIMEOUT_MS : REQUEST_TIMEOUT_MS;
  let timer = setTimeout(() => controller.abort(TIMEOUT), limit);
  // An upload whose progress is shown times out on silence, not on its length: a large file on a slow
  // link takes longer than any fixed limit while its bytes still go out.
  const onUploadProgress =
    opts.onUploadProgress &&
    ((sent: number, total: number): void => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(TIMEOUT), limit);
      opts.onUploadProgress?.(sent, total);
    });
  const onCancel = (): void => controller.abort(CANCELLED);
  if (opts.signal?.aborted) onCancel();
  else opts.signal?.addEventListener('abort', onCancel, { once: true });

  let response: Response;
  let text: string;
  try {
    const transport = upload !== undefined && onUploadProgress ? fetchWithUploadProgress(onUploadProgress) : fetch;
    response = await transport(`${API_BASE}${out.path}`, {
      method: out.method,
      headers,
      ...(out.body === undefined ? {} : { body: out.body }),
      signal: controller.signal,
      credentials: 'same-origin',
    });
    if (opts.onFile && response.ok && !(response.headers.get('content-type') ?? '').includes('json')) {
      opts.onFile(await response.blob(), response.headers.get('content-disposition'));
      text = JSON.stringify({ Code: Code.Success, Msg: '', Data: null });
    } else text = await response.text();
  } catch (error) {
    if (controller.signal.aborted && controller.signal.reason === TIMEOUT) {
      say(opts).message.error(t('api.timeout'));
      throw new ApiError('timeout', t('api.timeout'), { notified: true });
    }
    if (controller.signal.aborted) throw cancelled('aborted by the caller');
    say(opts).message.error(t('api.network'));
    throw new ApiError('network', error instanceof Error ? error.message : String(error), { notified: true });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onCancel);
  }

  const envelope = parseEnvelope(text);
  if (!response.ok) {
    const status = String(response.status).slice(-3);
    const base = t('api.http', { status });
    say(opts).message.error(envelope?.Msg ? `${base}: ${envelope.Msg}` : base);
    throw new ApiError('http', base, {
      status: response.status,
      ...(envelope ? { code: envelope.Code, msg: envelope.Msg } : {}),
      notified: true,
    });
  }
  if (!envelope) throw badReply(opts, 'the reply is not an envelope', response.status);
  if (openToken && envelope.Code === Code.Success) return { envelope: { ...envelope, Data: openTokenAnswer(envelope.Data, openToken) } };
  if (!cipher) return { envelope };
  if (cipher.mod.isEncryptedText(envelope.Data)) {
    let opened: Awaited<ReturnType<FieldCipher['openData']>>;
    try {
      opened = await cipher.mod.openData(cipher.keys.answer, cipher.keys.aad, envelope.Data);
    } catch {
      throw badReply(opts, 'the answer did not open with this call\'s key', response.status);
    }
    return { envelope: { ...envelope, Data: opened.value }, ...(opened.bytes ? { bytes: opened.bytes } : {}) };
  }
  // An encrypted call's success comes with its Data encrypted: one in clear was not written by the server.
  if (envelope.Code === Code.Success && envelope.Data !== null) throw badReply(opts, 'an encrypted call was answered in clear', response.status);
  return { envelope };
}

const QUIET: Notifier = {
  notification: { error: () => undefined, warning: () => undefined },
  message: { error: () => undefined, warning: () => undefined, success: () => undefined },
};

/** Where a call's outcome is said: nowhere for a quiet call. */
function say(opts: CallOptions): Notifier {
  return opts.quiet ? QUIET : notifier();
}

function sessionExpired(token: string | undefined, msg: string): void {
  clearSession();
  if (expiryAnnouncedFor !== token || token === undefined) {
    expiryAnnouncedFor = token;
    notifier().message.warning(msg || t('api.sessionExpired'));
  }
  const here = currentFullPath();
  const loginPath = loginPathFor(here);
  if (!here.startsWith('/login')) navigateTo(loginPath, { replace: true });
}

function handleEnvelope<C extends CallDef>(def: C, answer: Answer, token: string | undefined, opts: CallOptions): Reply<C> {
  const { envelope, bytes } = answer;
  const { Code: code, Msg: msg } = envelope;
  if (code === Code.Success) {
    const parsed = def.data.safeParse(envelope.Data);
    if (!parsed.success) {
      say(opts).notification.warning({ title: t('api.networkTitle'), description: t('api.badReply') });
      throw new ApiError('bad-reply', `Data of ${def.path} does not match the contract`, { code, notified: true });
    }
    return { ok: true, code: Code.Success, msg, data: parsed.data as CallData<C>, ...(bytes ? { bytes } : {}) };
  }
  if (code === Code.SessionExpired) {
    if (!opts.quiet) sessionExpired(token, msg);
    throw new ApiError('session', msg || t('api.sessionExpired'), { code, msg, notified: true });
  }
  if (SILENT_CODES.includes(code)) return { ok: false, code, msg, data: envelope.Data };

  const info = { code, msg, data: envelope.Data };
  if (code === Code.ServerError) {
    say(opts).notification.error({ title: t('api.serverTitle'), description: msg || t('api.badReply') });
    throw new ApiError('code', msg, { ...info, notified: true });
  }
  if (code === Code.Invalid) {
    say(opts).message.warning(msg);
    throw new ApiError('code', msg, { ...info, notified: true });
  }
  const notify = opts.notify !== false;
  if (notify) say(opts).notification.warning({ title: t('api.noteTitle'), description: msg });
  throw new ApiError('code', msg, { ...info, notified: notify });
}

export async function callReply<C extends CallDef>(def: C, ...args: CallArgs<C>): Promise<Reply<C>> {
  const [body, opts = {}] = args as [unknown, CallOptions | undefined];
  return send(def, body, opts);
}

async function send<C extends CallDef>(def: C, body: unknown, opts: CallOptions, upload?: FormData): Promise<Reply<C>> {
  const token = getToken();

  // §4 Session: without a token nothing but public calls leave; signing in twice is refused.
  if (def.auth === 'session' && !token) {
    navigateTo('/');
    throw cancelled(`${def.path} needs a session`);
  }
  if (token && takesClientKey(def)) {
    navigateTo('/');
    throw cancelled('already signed in');
  }
  if (opts.signal?.aborted) throw cancelled('aborted by the caller');

  const plainBody = JSON.stringify(body ?? {});
  // §5 drops repeated posts; a GET only reads, and an upload's files differ even when the body text does not.
  const repeatCheck = opts.repeatCheck !== false && def.method !== 'GET' && upload === undefined;
  if (repeatCheck && isDuplicate(def.path, plainBody)) {
    throw new ApiError('duplicate', t('api.duplicate'), { notified: false });
  }

  const endLoading = opts.loading === false ? () => undefined : beginLoading();
  try {
    const sessionToken = def.auth === 'session' ? token : undefined;
    let envelope: Answer;
    try {
      envelope = await exchange(def, body, plainBody, sessionToken, opts, upload);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // Anything unforeseen (sealing, a broken header value): a warning with the network title.
      say(opts).notification.warning({ title: t('api.networkTitle'), description: error instanceof Error ? error.message : String(error) });
      throw new ApiError('network', error instanceof Error ? error.message : String(error), { notified: true });
    }
    return handleEnvelope(def, envelope, sessionToken, opts);
  } finally {
    endLoading();
  }
}

export async function call<C extends CallDef>(def: C, ...args: CallArgs<C>): Promise<CallData<C>> {
  const reply = await callReply(def, ...args);
  if (reply.ok) return reply.data;
  throw new ApiError('silent', reply.msg, { code: reply.code, msg: reply.msg, data: reply.data, notified: false });
}

/**
 * A call whose Data, or one field of it, is base64 binary (CallDef.bytes: tracks, series, acceleration):
 * the Data, and the bytes themselves. An encrypted answer carries the bytes (no base64 to undo); one in
 * clear has them decoded from the base64 here.
 */
export async function callBinary<C extends CallDef>(def: C, ...args: CallArgs<C>): Promise<{ data: CallData<C>; bytes: Uint8Array }> {
  const reply = await callReply(def, ...args);
  if (!reply.ok) throw new ApiError('silent', reply.msg, { code: reply.code, msg: reply.msg, data: reply.data, notified: false });
  if (reply.bytes) return { data: reply.data, bytes: reply.bytes };
  const text: unknown = def.bytes === true ? reply.data : def.bytes ? (reply.data as Record<string, unknown>)[def.bytes] : undefined;
  if (typeof text !== 'string' || text === '') return { data: reply.data, bytes: new Uint8Array(0) };
  // In clear (the debugging switch): the base64 decoded here. Both modules stay out of /login's first load.
  const { fromBase64 } = await import('@wildtrack/contract/seal');
  return { data: reply.data, bytes: fromBase64(text) };
}

/**
 * A multipart upload (§7.2 /api/Image/Upload): the form's fields travel as multipart/form-data, the
 * headers are those of every call and the signature covers an empty body. The reply is the envelope,
 * mapped like any call's.
 */
export async function upload<C extends CallDef>(def: C, form: FormData, opts: CallOptions = {}): Promise<CallData<C>> {
  const reply = await send(def, undefined, opts, form);
  if (reply.ok) return reply.data;
  throw new ApiError('silent', reply.msg, { code: reply.code, msg: reply.msg, data: reply.data, notified: false });
}
