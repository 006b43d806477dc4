import { Code, generateSealKeyPair, Header, openSecret, sealSecret, toBase64 } from '@wildtrack/contract';
import { vi, type Mock } from 'vitest';
import { user } from './fixtures';

export type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

export function envelope(code: number, msg: string, data: unknown = null, status = 200): Response {
  const text = JSON.stringify({ Code: code, Msg: msg, Data: data });
  return { ok: status >= 200 && status < 300, status, headers: new Headers({ 'content-type': 'application/json; charset=utf-8' }), text: () => Promise.resolve(text) } as Response;
}

/**
 * A fake server for component tests: answers each call path with a handler, and the public key with a
 * real X25519 key so sealed fields work. Unknown paths answer HTTP 404 like the real server.
 */
const defaults: Record<string, (body: Record<string, unknown>) => Response> = {
  '/api/User/GetInfo': () => envelope(Code.Success, '', user()),
  // an organisation without devices or folders
  '/api/Device/GetTree': () =>
    envelope(Code.Success, '', { Folders: [{ IdStr: '-1', ParentIdStr: '', Name: 'Qinling Reserve', DeviceCount: 0, Example: false, Folders: [], Devices: [] }], Permissions: [], Total: 0, SensorCounts: { '0': 0 } }),
  // the tree's marks: nothing known of any device
  '/api/Device/GetTreeState': () => envelope(Code.Success, '', { IMEI: [], LastWorkAt: [], ReportGapMinutes: [] }),
  // the sign-in page asks whether to show the register link
  '/api/Auth/GetRegistration': () => envelope(Code.Success, '', { Open: true }),
};

/** Each fake server's key pair, so a test can open what the client sealed to it (openSealed). */
const serverKeys = new WeakMap<Mock<FetchFn>, ReturnType<typeof generateSealKeyPair>>();

export function fakeServer(handlers: Record<string, (body: Record<string, unknown>) => Response>): Mock<FetchFn> {
  const keys = generateSealKeyPair();
  const fetchMock = vi.fn<FetchFn>((url, init) => {
    const path = url.replace(/^\/prod-api/, '');
    if (path === '/api/Auth/GetPublicKey') {
      return Promise.resolve(
        envelope(Code.Success, '', { Algorithm: 'X25519-HKDF-SHA256-XChaCha20Poly1305', PublicKey: toBase64(keys.publicKey) }),
      );
    }
    // a GET carries its fields in the query string
    const [bare = path, query] = path.split('?');
    const handler = handlers[bare] ?? defaults[bare];
    const body =
      query !== undefined
        ? (Object.fromEntries(new URLSearchParams(query)) as Record<string, unknown>)
        : typeof init.body === 'string'
          ? (JSON.parse(init.body || '{}') as Record<string, unknown>)
          : {};
    const answer = handler ? handler(body) : envelope(1031, `No such interface: ${path}`, null, 404);
    const clientKey = body.clientKey;
    if (typeof clientKey !== 'string') return Promise.resolve(answer);
    // As the server does: a token in the answer goes sealed to the call's client key for its request code.
    const requestCode = (init.headers as Record<string, string>)[Header.requestCode]!;
    return answer.text().then((text) => {
      const sent = JSON.parse(text) as { Code: number; Msg: string; Data: { Token?: unknown } | null };
      const data = sent.Data && typeof sent.Data.Token === 'string' ? { ...sent.Data, Token: sealSecret(clientKey, sent.Data.Token, requestCode, 'token') } : sent.Data;
      return envelope(sent.Code, sent.Msg, data, answer.status);
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  serverKeys.set(fetchMock, keys);
  return fetchMock;
}

/** A sealed field of a request sent to a fake server, opened as the server would (throws when it was not sealed to it). */
export function openSealed(fetchMock: Mock<FetchFn>, init: RequestInit, field: string): string {
  const body = JSON.parse(init.body as string) as Record<string, string>;
  return openSecret(serverKeys.get(fetchMock)!.secretKey, body[field]!, (init.headers as Record<string, string>)[Header.requestCode]!);
}

export function callsTo(fetchMock: Mock<FetchFn>, path: string): RequestInit[] {
  return fetchMock.mock.calls.filter(([url]) => url.split('?')[0] === `/prod-api${path}`).map(([, init]) => init);
}
