import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { callKeys, Code, encryptJson, ENCRYPTED_FIELD, Header, type LiveMessage, openData, signingKey } from '@wildtrack/contract';
import { applyLiveMessage, startLive } from './live';
import { queryKeys } from './queryKeys';
import { positionKeys } from './tracks/hooks';

/** vi.waitFor's own 1 s is too short when both cores are busy (a mail through SMTP took longer in a loaded run). */
const WAIT = { timeout: 30_000 };

const keysOf = (init: RequestInit) => callKeys(signingKey('tok-1'), (init.headers as Record<string, string>)[Header.requestCode]!);

/**
 * A stream answer carrying these messages, each encrypted for the request as the server writes them
 * (docs/api.md "Encrypted bodies and answers"), then ending (as a server restart would end it).
 */
const stream = (messages: LiveMessage[], clear: LiveMessage[] = []) => async (_url: string, init: RequestInit): Promise<Response> => {
  const keys = keysOf(init);
  const text =
    clear.map((m) => `id: ${m.id}\ndata: ${JSON.stringify(m)}\n\n`).join('') +
    messages.map((m) => `id: ${m.id}\ndata: ${encryptJson(keys.answer, keys.aad, m)}\n\n`).join('');
  const keepOpen = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(`: open\n\n${text}`));
      if (!keepOpen) controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
}

const ready = (event: number, fix: string): LiveMessage => ({ type: 'ready', id: 'r:0', cursor: { event, notice: 0, fix } });

describe('the live connection', () => {
  let fetchMock: Mock;
  let client: QueryClient;
  beforeEach(() => {
    // the stream's messages come encrypted: the cipher on (test/setup.ts turns it off for the screens' tests)
    window.localStorage.removeItem('wildtrack_field_cipher');
    vi.useFakeTimers();
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    client = new QueryClient();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('invalidates what each message changes, reconnects after a break naming the last ids it saw, and stops on 1004', async () => {
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    fetchMock
      .mockImplementationOnce(
        stream(
          [
            ready(10, 'r-5'),
            { type: 'event', id: 'e:11', eventId: 11, imei: 'A1', eventType: 2, happenTime: 1 },
            { type: 'fix', id: 'f:r-6', imei: 'A1', time: 1, lon: 1, lat: 2 },
          ],
          // A message in clear was not written by the server (which encrypts each): dropped.
          [{ type: 'fix', id: 'f:r-7', imei: 'B2', time: 1, lon: 1, lat: 2 }],
        ),
      )
      .mockImplementationOnce(stream([ready(12, 'r-9'), { type: 'notice', id: 'n:3', noticeId: 3 }]))
      .mockRejectedValueOnce(new TypeError('network down'))
      .mockResolvedValueOnce(new Response(JSON.stringify({ Code: Code.SessionExpired, Msg: 'expired', Data: null }), { headers: { 'content-type': 'application/json' } }));
    const stop = startLive(client, 'sid-1.tok-1');
    await vi.waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.events }), WAIT);
    // Fixes are gathered for 1.5 s, then the positions naming the device are read again.
    await vi.advanceTimersByTimeAsync(1_600);
    const positions = invalidate.mock.calls.find(([f]) => f?.queryKey === positionKeys.all)?.[0] as unknown as { predicate: (q: { queryKey: unknown[] }) => boolean };
    expect(positions.predicate({ queryKey: ['positions', 'last', ['A1'], '+08:00'] })).toBe(true);
    expect(positions.predicate({ queryKey: ['positions', 'last', ['B2'], '+08:00'] })).toBe(false);

    // The stream ended: reconnected after 1 s, naming (encrypted) the last event and fix it saw, signed for the session.
    expect(fetchMock).toHaveBeenCalledTimes(2);
    const cursors = async (i: number) => {
      const [url, init] = fetchMock.mock.calls[i]! as [string, RequestInit];
      const keys = keysOf(init);
      return (await openData(keys.request, keys.aad, new URL(url, 'http://x').searchParams.get(ENCRYPTED_FIELD)!)).value;
    };
    expect(String(fetchMock.mock.calls[1]![0])).not.toContain('event=');
    expect(await cursors(1)).toMatchObject({ event: '11', fix: 'r-6' });
    expect((fetchMock.mock.calls[1]![1] as RequestInit).headers).toMatchObject({ 'x-session': 'sid-1' });
    await vi.waitFor(() => expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.notices }), WAIT);

    // That one ended too (it had opened: the delay starts again at 1 s); the next attempt fails outright.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(await cursors(2)).toMatchObject({ notice: '3' });
    // After a failure the delay doubles: nothing at 1 s, the attempt at 2 s; it is refused 1004, and no more come.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await vi.advanceTimersByTimeAsync(1_100);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchMock).toHaveBeenCalledTimes(4);
    stop();
  });

  it("reads the device tree again when a share to the user ended or changed ('access'): a revoked device leaves the tree", () => {
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    applyLiveMessage(client, { type: 'access', id: 'a:0' }, new Set(), () => undefined);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: queryKeys.tree });
    expect(invalidate).toHaveBeenCalledWith({ queryKey: positionKeys.all });
  });
});
