// Over 400 lines on purpose: one file walks the API client through the whole error catalogue (every
// envelope code, transport failures, sealing, the duplicate-submission and session rules) with one
// shared fake fetch, so a reader sees every branch of lib/api/client.ts side by side.
import {
  Code,
  GetAccountSafeSetting,
  GetPublicKey,
  Header,
  Heartbeat,
  openSecret,
  PasswordLogin,
  generateSealKeyPair,
  imageKey,
  sealSecret,
  signingKey,
  signRequest,
  toBase64,
  TOKEN_COOKIE,
  defineCall,
  EmptyBody,
} from '@wildtrack/contract';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { z } from 'zod';
import { setLang } from '../../i18n';
import { loginResult } from '../../test/fixtures';
import { loadingCount } from '../loading';
import { setNavigator } from '../navigation';
import { setNotifier, type Notifier } from '../notify';
import { getToken, readStoredUser, setToken, writeStoredUser } from '../session';
import { call, callReply, FIELD_CIPHER_SWITCH, resetClientForTests } from './client';
import { ApiError } from './errors';

type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

interface Spies {
  notifyError: Mock;
  notifyWarning: Mock;
  messageError: Mock;
  messageWarning: Mock;
  messageSuccess: Mock;
}

let fetchMock: Mock<FetchFn>;
let navigate: Mock;
let spies: Spies;

function reply(body: unknown, status = 200): Response {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return { ok: status >= 200 && status < 300, status, text: () => Promise.resolve(text) } as Response;
}

function envelope(code: number, msg: string, data: unknown = null, status = 200): Response {
  return reply({ Code: code, Msg: msg, Data: data }, status);
}

/** A fetch that never answers and rejects only when its signal aborts, like the real one. */
function hangingFetch(): FetchFn {
  return (_input, init) =>
    new Promise<Response>((_resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('The operation was aborted.', 'AbortError')));
    });
}

function headersOf(callIndex = 0): Record<string, string> {
  const init = fetchMock.mock.calls[callIndex]?.[1];
  return (init?.headers ?? {}) as Record<string, string>;
}

function nothingShown(): void {
  expect(spies.notifyError).not.toHaveBeenCalled();
  expect(spies.notifyWarning).not.toHaveBeenCalled();
  expect(spies.messageError).not.toHaveBeenCalled();
  expect(spies.messageWarning).not.toHaveBeenCalled();
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

beforeEach(() => {
  resetClientForTests();
  fetchMock = vi.fn<FetchFn>();
  vi.stubGlobal('fetch', fetchMock);
  navigate = vi.fn();
  setNavigator(navigate);
  spies = {
    notifyError: vi.fn(),
    notifyWarning: vi.fn(),
    messageError: vi.fn(),
    messageWarning: vi.fn(),
    messageSuccess: vi.fn(),
  };
  const notifier: Notifier = {
    notification: { error: spies.notifyError, warning: spies.notifyWarning },
    message: { error: spies.messageError, warning: spies.messageWarning, success: spies.messageSuccess },
  };
  setNotifier(notifier);
  setLang('en');
  Cookies.remove(TOKEN_COOKIE, { path: '/' });
  window.localStorage.clear();
  // The catalogue's branches with clear envelopes; the field cipher has its own file (field-cipher.test.ts).
  window.localStorage.setItem(FIELD_CIPHER_SWITCH, 'off');
  window.history.replaceState(null, '', '/device?folder=2');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  setNavigator(null);
  setNotifier(null);
  expect(loadingCount()).toBe(0);
});

describe('success (1000)', () => {
  it('posts a signed JSON request to /prod-api + path and resolves with the parsed Data', async () => {
    setToken('sid-1.tok-1');
    fetchMock.mockResolvedValue(envelope(Code.Success, 'ok', { ServerTime: 42 }));

    const data = await call(Heartbeat);

    expect(data).toEqual({ ServerTime: 42 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/prod-api/api/Auth/Heartbeat');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{}');
    const headers = headersOf();
    // The session by its id; the token only in the key (docs/api.md "Sessions and signing").
    expect(headers[Header.session]).toBe('sid-1');
    expect(headers[Header.token]).toBeUndefined();
    expect(JSON.stringify(init)).not.toContain('tok-1');
    expect(headers[Header.lang]).toBe('1033');
    expect(headers[Header.dataFormat]).toBe('json');
    expect(headers[Header.terminal]).toMatch(/^Wildtrack-Web\/1\.1\.6 \(/);
    expect(headers['content-type']).toBe('application/json');
    const expected = signRequest(signingKey('tok-1'), {
      method: 'POST',
      path: '/api/Auth/Heartbeat',
      timestamp: headers[Header.timestamp]!,
      requestCode: headers[Header.requestCode]!,
      body: '{}',
    });
    expect(headers[Header.signature]).toBe(expected);
    nothingShown();
  });

  it('sends x-lang 2052 when the interface is Chinese', async () => {
    setLang('zh');
    fetchMock.mockResolvedValue(envelope(Code.Success, '', { Algorithm: 'X25519-HKDF-SHA256-XChaCha20Poly1305', PublicKey: 'AAAA' }));
    await call(GetPublicKey);
    expect(headersOf()[Header.lang]).toBe('2052');
  });

  it('signs public calls with the empty-token key and without a session, even when signed in', async () => {
    setToken('sid-1.tok-1');
    fetchMock.mockResolvedValue(envelope(Code.Success, '', { Algorithm: 'X25519-HKDF-SHA256-XChaCha20Poly1305', PublicKey: 'AAAA' }));
    await call(GetPublicKey);
    const headers = headersOf();
    expect(headers[Header.token]).toBeUndefined();
    expect(headers[Header.session]).toBeUndefined();
    const expected = signRequest(signingKey(undefined), {
      method: 'POST',
      path: '/api/Auth/GetPublicKey',
      timestamp: headers[Header.timestamp]!,
      requestCode: headers[Header.requestCode]!,
      body: '{}',
    });
    expect(headers[Header.signature]).toBe(expected);
  });

  it('rejects Data that does not match the contract with a warning', async () => {
    setToken('tok-1');
    fetchMock.mockResolvedValue(envelope(Code.Success, '', { ServerTime: 'soon' }));
    const error = await rejection(call(Heartbeat));
    expect(error.kind).toBe('bad-reply');
    expect(spies.notifyWarning).toHaveBeenCalledWith(expect.objectContaining({ title: 'Network problem' }));
  });
});

describe('sealed fields', () => {
  it('fetches the public key once and seals pwd to the request code of the same request', async () => {
    const keys = generateSealKeyPair();
    fetchMock.mockImplementation((url) => {
      if (url.endsWith('/GetPublicKey')) {
        return Promise.resolve(
          envelope(Code.Success, '', { Algorithm: 'X25519-HKDF-SHA256-XChaCha20Poly1305', PublicKey: toBase64(keys.publicKey) }),
        );
      }
      return Promise.resolve(envelope(Code.SignInFailed, 'Incorrect account or password'));
    });

    await rejection(call(PasswordLogin, { account: 'ranger01', pwd: 'Secret123', timeZone: '+08:00' }));
    await rejection(call(PasswordLogin, { account: 'ranger01', pwd: 'Other456x', timeZone: '+08:00' }));

    const urls = fetchMock.mock.calls.map(([url]) => url);
    expect(urls.filter((u) => u.endsWith('/GetPublicKey'))).toHaveLength(1);
    expect(urls.filter((u) => u.endsWith('/PasswordLogin'))).toHaveLength(2);

    const loginIndex = urls.indexOf('/prod-api/api/Auth/PasswordLogin');
    const init = fetchMock.mock.calls[loginIndex]![1];
    const sent = JSON.parse(init.body as string) as { account: string; pwd: string; timeZone: string };
    expect(sent.account).toBe('ranger01');
    expect(sent.pwd).not.toContain('Secret123');
    const headers = headersOf(loginIndex);
    expect(openSecret(keys.secretKey, sent.pwd, headers[Header.requestCode]!)).toBe('Secret123');
    // the signature covers the sealed body as sent
    expect(headers[Header.signature]).toBe(
      signRequest(signingKey(undefined), {
        method: 'POST',
        path: '/api/Auth/PasswordLogin',
        timestamp: headers[Header.timestamp]!,
        requestCode: headers[Header.requestCode]!,
        body: init.body as string,
      }),
    );
  });

  it('fetches the key again after a failed key request', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const first = await rejection(call(PasswordLogin, { account: 'a', pwd: 'b', timeZone: '+08:00' }));
    expect(first.kind).toBe('network');
    const keys = generateSealKeyPair();
    fetchMock.mockImplementation((url, init) =>
      Promise.resolve(
        url.endsWith('/GetPublicKey')
          ? envelope(Code.Success, '', { Algorithm: 'X25519-HKDF-SHA256-XChaCha20Poly1305', PublicKey: toBase64(keys.publicKey) })
          : envelope(Code.Success, '', loginResult({ Token: sealedToken(init, 'token-abc') })),
      ),
    );
    const data = await call(PasswordLogin, { account: 'a', pwd: 'c', timeZone: '+08:00' });
    expect(data.Token).toBe('session-1.token-abc');
  });
});

/** What the server does with a sign-in: the token sealed to the request's clientKey for its request code. */
function sealedToken(init: RequestInit, token: string): string {
  const { clientKey } = JSON.parse(init.body as string) as { clientKey: string };
  return sealSecret(clientKey, token, (init.headers as Record<string, string>)[Header.requestCode]!, 'token');
}

describe('sealed tokens (sign-in answers)', () => {
  function serveSignIn(token: (init: RequestInit) => string): void {
    const keys = generateSealKeyPair();
    fetchMock.mockImplementation((url, init) =>
      Promise.resolve(
        url.endsWith('/GetPublicKey')
          ? envelope(Code.Success, '', { Algorithm: 'X25519-HKDF-SHA256-XChaCha20Poly1305', PublicKey: toBase64(keys.publicKey) })
          : envelope(Code.Success, '', loginResult({ Token: token(init), SessionId: 'sid-9' })),
      ),
    );
  }

  it('sends a fresh X25519 public key per sign-in and opens the token into the credential <SessionId>.<Token>', async () => {
    serveSignIn((init) => sealedToken(init, 'the-token'));
    const first = await call(PasswordLogin, { account: 'a', pwd: 'Secret123', timeZone: '+08:00' });
    expect(first.Token).toBe('sid-9.the-token');
    resetClientForTests();
    await call(PasswordLogin, { account: 'a', pwd: 'Secret123', timeZone: '+08:00' }, { repeatCheck: false });
    const sent = fetchMock.mock.calls.filter(([url]) => url.endsWith('/PasswordLogin')).map(([, init]) => JSON.parse(init.body as string) as { clientKey: string });
    expect(sent).toHaveLength(2);
    for (const body of sent) expect(body.clientKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(sent[0]!.clientKey).not.toBe(sent[1]!.clientKey);
  });

  it('refuses an answer whose token was not sealed to this call (another key or request code) with a warning', async () => {
    const stranger = generateSealKeyPair();
    serveSignIn((init) => sealSecret(toBase64(stranger.publicKey), 'the-token', (init.headers as Record<string, string>)[Header.requestCode]!, 'token'));
    const error = await rejection(call(PasswordLogin, { account: 'a', pwd: 'Secret123', timeZone: '+08:00' }));
    expect(error.kind).toBe('bad-reply');
    expect(spies.notifyWarning).toHaveBeenCalledWith(expect.objectContaining({ title: 'Network problem' }));
    expect(getToken()).toBeUndefined();
  });

  it('keeps the token out of every cookie: the cookie holds the session id and the image key only', () => {
    setToken('sid-9.the-token');
    expect(getToken()).toBe('sid-9.the-token');
    expect(Cookies.get(TOKEN_COOKIE)).toBe(`sid-9.${imageKey(signingKey('the-token'))}`);
    expect(document.cookie).not.toContain('the-token');
    // A cookie of another session (or none, after the browser restarted) means no session.
    Cookies.set(TOKEN_COOKIE, `sid-8.${imageKey(signingKey('the-token'))}`, { path: '/' });
    expect(getToken()).toBeUndefined();
    Cookies.remove(TOKEN_COOKIE, { path: '/' });
    expect(getToken()).toBeUndefined();
  });
});

describe('1004 session expired', () => {
  it('clears the token and user values, goes to /login with the full path, and warns once for parallel calls', async () => {
    setToken('tok-old');
    writeStoredUser({ nickName: 'Ranger', userName: 'ranger01' });
    fetchMock.mockImplementation(() => Promise.resolve(envelope(Code.SessionExpired, 'Your session has expired, please sign in again')));

    const results = await Promise.allSettled([call(Heartbeat), call(GetAccountSafeSetting)]);

    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(((results[0] as PromiseRejectedResult).reason as ApiError).kind).toBe('session');
    expect(getToken()).toBeUndefined();
    expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined();
    expect(readStoredUser().nickName).toBe('');
    expect(navigate).toHaveBeenCalledWith('/login?redirect=%2Fdevice%3Ffolder%3D2', { replace: true });
    expect(spies.messageWarning).toHaveBeenCalledTimes(1);
    expect(spies.messageWarning).toHaveBeenCalledWith('Your session has expired, please sign in again');
    expect(spies.notifyWarning).not.toHaveBeenCalled();
  });

  it('warns again for a later session', async () => {
    fetchMock.mockImplementation(() => Promise.resolve(envelope(Code.SessionExpired, 'expired')));
    setToken('tok-a');
    await rejection(call(Heartbeat));
    setToken('tok-b');
    await rejection(call(Heartbeat, undefined, { repeatCheck: false }));
    expect(spies.messageWarning).toHaveBeenCalledTimes(2);
  });
});

describe('silent codes 1005, 1006, 1007', () => {
  it.each([Code.VerificationExpired, Code.VerificationRequired, Code.VerificationFailed])(
    'callReply hands %i back as data without a notification',
    async (code) => {
      setToken('tok-1');
      fetchMock.mockResolvedValue(envelope(code, 'verify first', { Step: 'auth' }));
      const result = await callReply(GetAccountSafeSetting);
      expect(result).toEqual({ ok: false, code, msg: 'verify first', data: { Step: 'auth' } });
      nothingShown();
    },
  );

  it('call() rejects with kind silent and the code, still without a notification', async () => {
    setToken('tok-1');
    fetchMock.mockResolvedValue(envelope(Code.VerificationExpired, 'expired'));
    const error = await rejection(call(GetAccountSafeSetting));
    expect(error.kind).toBe('silent');
    expect(error.code).toBe(1005);
    expect(error.notified).toBe(false);
    nothingShown();
  });
});

describe('refusal codes', () => {
  beforeEach(() => setToken('tok-1'));

  it('500 shows an error notification with the server title and the Msg', async () => {
    fetchMock.mockResolvedValue(envelope(Code.ServerError, 'Internal server error (request id r1)'));
    const error = await rejection(call(Heartbeat));
    expect(error.kind).toBe('code');
    expect(error.code).toBe(500);
    expect(spies.notifyError).toHaveBeenCalledWith({ title: 'Server error', description: 'Internal server error (request id r1)' });
    expect(spies.notifyWarning).not.toHaveBeenCalled();
  });

  it('601 shows a warning with the Msg', async () => {
    fetchMock.mockResolvedValue(envelope(Code.Invalid, 'lcid: language must be 2052 or 1033'));
    const error = await rejection(call(Heartbeat));
    expect(error.code).toBe(601);
    expect(spies.messageWarning).toHaveBeenCalledWith('lcid: language must be 2052 or 1033');
    expect(spies.notifyWarning).not.toHaveBeenCalled();
    expect(spies.notifyError).not.toHaveBeenCalled();
  });

  it('another code shows a warning with the note title and the Msg', async () => {
    fetchMock.mockResolvedValue(envelope(Code.Forbidden, 'You do not have permission for this operation'));
    const error = await rejection(call(Heartbeat));
    expect(error.code).toBe(1003);
    expect(error.notified).toBe(true);
    expect(spies.notifyWarning).toHaveBeenCalledWith({ title: 'Note', description: 'You do not have permission for this operation' });
  });

  it('the note title follows the interface language', async () => {
    setLang('zh');
    fetchMock.mockResolvedValue(envelope(Code.Failed, '操作失败'));
    await rejection(call(Heartbeat));
    expect(spies.notifyWarning).toHaveBeenCalledWith({ title: '提示', description: '操作失败' });
  });

  it('notify: false (the user-log record call) keeps another code quiet but still fails', async () => {
    fetchMock.mockResolvedValue(envelope(Code.Failed, 'Operation failed'));
    const error = await rejection(call(Heartbeat, undefined, { notify: false }));
    expect(error.code).toBe(1001);
    expect(error.notified).toBe(false);
    nothingShown();
  });
});

describe('transport errors', () => {
  beforeEach(() => setToken('tok-1'));

  it('a network error shows the network text', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const error = await rejection(call(Heartbeat));
    expect(error.kind).toBe('network');
    expect(spies.messageError).toHaveBeenCalledWith('Connection to the server failed');
  });

  it('an HTTP failure shows the last three characters of the status, with the envelope Msg when there is one', async () => {
    fetchMock.mockResolvedValueOnce(envelope(1031, 'No such interface: /api/Nope', null, 404));
    const error = await rejection(call(Heartbeat));
    expect(error.kind).toBe('http');
    expect(error.info.status).toBe(404);
    expect(spies.messageError).toHaveBeenCalledWith('Interface error 404: No such interface: /api/Nope');

    fetchMock.mockResolvedValueOnce(reply('<html>bad gateway</html>', 502));
    await rejection(call(Heartbeat, undefined, { repeatCheck: false }));
    expect(spies.messageError).toHaveBeenLastCalledWith('Interface error 502');
  });

  it('a reply that is not an envelope shows a warning with the network title', async () => {
    fetchMock.mockResolvedValue(reply('<html>proxy page</html>', 200));
    const error = await rejection(call(Heartbeat));
    expect(error.kind).toBe('bad-reply');
    expect(spies.notifyWarning).toHaveBeenCalledWith(expect.objectContaining({ title: 'Network problem' }));
  });

  it('times out after 30 s with the timeout text', async () => {
    vi.useFakeTimers();
    fetchMock.mockImplementation(hangingFetch());
    const pending = rejection(call(Heartbeat));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(spies.messageError).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    const error = await pending;
    expect(error.kind).toBe('timeout');
    expect(spies.messageError).toHaveBeenCalledWith('The request timed out');
  });

  it("waits 120 s when the call's timeout is long", async () => {
    vi.useFakeTimers();
    const LongCall = defineCall({ path: '/api/Test/Long', auth: 'session', body: EmptyBody, data: z.null(), timeout: 'long', summary: 'test' });
    fetchMock.mockImplementation(hangingFetch());
    const pending = rejection(call(LongCall));
    await vi.advanceTimersByTimeAsync(30_000);
    expect(spies.messageError).not.toHaveBeenCalled();
    expect(loadingCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(90_000);
    expect((await pending).kind).toBe('timeout');
    expect(spies.messageError).toHaveBeenCalledWith('The request timed out');
  });

  it('a request cancelled by the caller is ignored', async () => {
    fetchMock.mockImplementation(hangingFetch());
    const controller = new AbortController();
    const pending = rejection(call(Heartbeat, undefined, { signal: controller.signal }));
    controller.abort();
    const error = await pending;
    expect(error.kind).toBe('cancelled');
    nothingShown();
  });
});

describe('duplicate submission (400 ms)', () => {
  beforeEach(() => {
    setToken('tok-1');
    vi.useFakeTimers();
    fetchMock.mockImplementation(() => Promise.resolve(envelope(Code.Success, '', { ServerTime: 1 })));
  });

  it('drops the same call with the same body within 400 ms silently', async () => {
    await call(Heartbeat);
    vi.advanceTimersByTime(399);
    const error = await rejection(call(Heartbeat));
    expect(error.kind).toBe('duplicate');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    nothingShown();
  });

  it('sends it again once 400 ms have passed', async () => {
    await call(Heartbeat);
    vi.advanceTimersByTime(400);
    await call(Heartbeat);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('sends a different body or a different path', async () => {
    const Echo = defineCall({ path: '/api/Test/Echo', auth: 'session', body: z.object({ n: z.number() }), data: z.null(), summary: 'test' });
    fetchMock.mockImplementation(() => Promise.resolve(envelope(Code.Success, '', null)));
    await call(Echo, { n: 1 });
    await call(Echo, { n: 2 });
    await rejection(call(Echo, { n: 1 }));
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('repeatCheck: false sends every time', async () => {
    await call(Heartbeat, undefined, { repeatCheck: false });
    await call(Heartbeat, undefined, { repeatCheck: false });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

describe('session rules before sending', () => {
  it('without a token a session call is cancelled and the browser goes to the root', async () => {
    const error = await rejection(call(Heartbeat));
    expect(error.kind).toBe('cancelled');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/', {});
    nothingShown();
  });

  it('a public call goes out without a token', async () => {
    fetchMock.mockResolvedValue(envelope(Code.Success, '', { Algorithm: 'X25519-HKDF-SHA256-XChaCha20Poly1305', PublicKey: 'AAAA' }));
    await call(GetPublicKey);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('a password sign-in while signed in is cancelled and goes to /', async () => {
    setToken('tok-1');
    const error = await rejection(call(PasswordLogin, { account: 'a', pwd: 'b', timeZone: '+08:00' }));
    expect(error.kind).toBe('cancelled');
    expect(fetchMock).not.toHaveBeenCalled();
    expect(navigate).toHaveBeenCalledWith('/', {});
  });
});

describe('loading overlay', () => {
  it('is open while a call runs and closes on success and on failure', async () => {
    setToken('tok-1');
    let answer: (r: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const pending = call(Heartbeat);
    await Promise.resolve();
    expect(loadingCount()).toBe(1);
    answer(envelope(Code.Success, '', { ServerTime: 1 }));
    await pending;
    expect(loadingCount()).toBe(0);

    fetchMock.mockResolvedValueOnce(envelope(Code.ServerError, 'boom'));
    await rejection(call(Heartbeat, undefined, { repeatCheck: false }));
    expect(loadingCount()).toBe(0);
  });

  it('stays closed with loading: false', async () => {
    setToken('tok-1');
    let answer: (r: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const pending = call(Heartbeat, undefined, { loading: false });
    await Promise.resolve();
    expect(loadingCount()).toBe(0);
    answer(envelope(Code.Success, '', { ServerTime: 1 }));
    await pending;
  });
});
