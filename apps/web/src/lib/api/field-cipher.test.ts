import {
  callKeys,
  CIPHER_PREFIX,
  CipherForm,
  Code,
  deflate,
  DEFLATED,
  encryptBytes,
  encryptJson,
  ENCRYPTED_FIELD,
  fromBase64,
  GetDetailByIMEI,
  GetFixList,
  GetLastFixList,
  Header,
  openData,
  signingKey,
  toBase64,
} from '@wildtrack/contract';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { setLang } from '../../i18n';
import { setNavigator } from '../navigation';
import { setNotifier } from '../notify';
import { setToken } from '../session';
import { call, callBinary, resetClientForTests } from './client';
import { ApiError } from './errors';

type FetchFn = (input: string, init: RequestInit) => Promise<Response>;

let fetchMock: Mock<FetchFn>;
let warning: Mock;
const KEY = signingKey('tok-1');

function text(body: unknown): Response {
  const s = JSON.stringify(body);
  return { ok: true, status: 200, headers: new Headers({ 'content-type': 'application/json' }), text: () => Promise.resolve(s) } as Response;
}

function codeOf(init: RequestInit): string {
  return (init.headers as Record<string, string>)[Header.requestCode]!;
}

/** A server: opens the request's body with its request code's keys and answers `data(body)` encrypted. */
function server(answer: (body: unknown, keys: ReturnType<typeof callKeys>) => Promise<string> | string) {
  fetchMock.mockImplementation(async (_url, init) => {
    const keys = callKeys(KEY, codeOf(init));
    const sent = JSON.parse(String(init.body)) as Record<string, string>;
    const body = (await openData(keys.request, keys.aad, sent[ENCRYPTED_FIELD]!)).value;
    return text({ Code: Code.Success, Msg: 'ok', Data: await answer(body, keys) });
  });
}

const fix = { imeis: ['861234567890123'], timeZone: '+08:00' };

beforeEach(() => {
  resetClientForTests();
  fetchMock = vi.fn<FetchFn>();
  vi.stubGlobal('fetch', fetchMock);
  setNavigator(vi.fn());
  warning = vi.fn();
  setNotifier({ notification: { error: vi.fn(), warning }, message: { error: vi.fn(), warning: vi.fn(), success: vi.fn() } });
  setLang('en');
  window.localStorage.clear();
  setToken('sid-1.tok-1');
});

afterEach(() => {
  vi.unstubAllGlobals();
  setNavigator(null);
  setNotifier(null);
});

describe('the field cipher of signed-in calls', () => {
  it('sends the body encrypted to this request code and opens the encrypted Data', async () => {
    server((_body, keys) => encryptJson(keys.answer, keys.aad, []));
    await expect(call(GetLastFixList, fix)).resolves.toEqual([]);
    const init = fetchMock.mock.calls[0]![1];
    expect(String(init.body)).not.toContain('861234567890123');
    expect(Object.keys(JSON.parse(String(init.body)) as object)).toEqual([ENCRYPTED_FIELD]);
    const keys = callKeys(KEY, codeOf(init));
    expect((await openData(keys.request, keys.aad, (JSON.parse(String(init.body)) as Record<string, string>)[ENCRYPTED_FIELD]!)).value).toEqual(fix);
  });

  it('hands a track on as its bytes, deflated by the server before it was encrypted', async () => {
    const bytes = Uint8Array.from({ length: 5000 }, (_, i) => i % 7);
    server(async (_body, keys) => CIPHER_PREFIX + toBase64(encryptBytes(keys.answer, keys.aad, Uint8Array.of(CipherForm.Bytes | DEFLATED, ...(await deflate(bytes))))));
    const got = await callBinary(GetFixList, { imei: '861234567890123', startTime: '2026-01-01 00:00:00', endTime: '2026-01-02 00:00:00', timeZone: '+08:00' });
    expect(Array.from(got.bytes)).toEqual(Array.from(bytes));
  });

  it('encrypts the one GET\'s query', async () => {
    fetchMock.mockImplementation(async (url, init) => {
      const keys = callKeys(KEY, codeOf(init));
      const query = new URL(url, 'http://x').searchParams.get(ENCRYPTED_FIELD)!;
      expect((await openData(keys.request, keys.aad, query)).value).toEqual({ imei: '861234567890123', timeZone: '+08:00' });
      return text({ Code: Code.Invalid, Msg: 'Enter the IMEI.', Data: encryptJson(keys.answer, keys.aad, { Field: 'imei' }) });
    });
    const error = await call(GetDetailByIMEI, { imei: '861234567890123', timeZone: '+08:00' }).catch((e: unknown) => e);
    expect(String(fetchMock.mock.calls[0]![0])).not.toContain('861234567890123');
    // A refusal's Msg is clear, its Data opened.
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).info.data).toEqual({ Field: 'imei' });
  });

  it('refuses an answer with a changed byte, or in clear, with the bad-reply warning', async () => {
    server((_body, keys) => {
      const sealed = fromBase64(encryptJson(keys.answer, keys.aad, []).slice(CIPHER_PREFIX.length));
      sealed[30]! ^= 1;
      return CIPHER_PREFIX + toBase64(sealed);
    });
    await expect(call(GetLastFixList, fix)).rejects.toMatchObject({ kind: 'bad-reply' });
    expect(warning).toHaveBeenCalledTimes(1);
    fetchMock.mockResolvedValue(text({ Code: Code.Success, Msg: 'ok', Data: [] }));
    await expect(call(GetLastFixList, fix, { repeatCheck: false })).rejects.toMatchObject({ kind: 'bad-reply' });
    expect(warning).toHaveBeenCalledTimes(2);
  });

  it('sends in clear with the debugging switch off', async () => {
    window.localStorage.setItem('wildtrack_field_cipher', 'off');
    fetchMock.mockResolvedValue(text({ Code: Code.Success, Msg: 'ok', Data: [] }));
    await expect(call(GetLastFixList, fix)).resolves.toEqual([]);
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1].body))).toEqual(fix);
  });
});
