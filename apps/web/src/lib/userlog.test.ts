import { afterEach, beforeEach, describe, expect, it, vi, type Mock } from 'vitest';
import { Code, RecordUserLog, UserLogTargetSchema } from '@wildtrack/contract';
import { resetClientForTests } from './api/client';
import { setNavigator } from './navigation';
import { setNotifier } from './notify';
import { clearSession, setToken } from './session';
import { enableUserLog, flushUserLog, logTarget, recordAction, recordVisit } from './userlog';

describe('logTarget', () => {
  it('keeps a path without its query and makes anything else acceptable to the server', () => {
    expect(logTarget('/track?imei=1#x')).toBe('/track');
    expect(logTarget('/device/a b/ü')).toBe('/device/a_b/_');
    expect(logTarget('')).toBe('/');
    for (const t of ['/track?imei=1', '/a b', 'x'.repeat(500), '', '?']) expect(UserLogTargetSchema.safeParse(logTarget(t)).success).toBe(true);
  });
});

describe('the recorder', () => {
  let fetchMock: Mock;
  let shown: Mock;
  let navigate: Mock;
  beforeEach(() => {
    resetClientForTests();
    fetchMock = vi.fn();
    vi.stubGlobal('fetch', fetchMock);
    shown = vi.fn();
    navigate = vi.fn();
    setNavigator(navigate);
    setNotifier({ notification: { error: shown, warning: shown }, message: { error: shown, warning: shown, success: shown } });
    setToken('sid-1.tok-1');
    enableUserLog(true);
  });
  afterEach(() => {
    enableUserLog(false);
    clearSession();
    setNotifier(null);
    setNavigator(null);
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  const reply = (code: number) => ({ ok: true, status: 200, text: () => Promise.resolve(JSON.stringify({ Code: code, Msg: 'm', Data: code === Code.Invalid ? { Field: 'entries' } : null })) });

  it('sends what it gathered as one batch a few seconds later', async () => {
    vi.useFakeTimers();
    fetchMock.mockResolvedValue(reply(Code.Success));
    recordVisit('/device');
    recordVisit('/track?imei=1');
    recordAction('logout');
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3500);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url.endsWith(RecordUserLog.path)).toBe(true);
    const body = JSON.parse(init.body as string) as { entries: { entryType: string; target: string }[] };
    expect(body.entries.map((e) => `${e.entryType} ${e.target}`)).toEqual(['visit /device', 'visit /track', 'action logout']);
    expect(RecordUserLog.body.safeParse(body).success).toBe(true);
  });

  it('never shows a failure nor navigates: network, 601, 1003, an ended session, 500', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    for (const code of [Code.Invalid, Code.Forbidden, Code.SessionExpired, Code.ServerError]) fetchMock.mockResolvedValueOnce(reply(code));
    for (let i = 0; i < 5; i += 1) {
      recordVisit(`/page${i}`);
      await flushUserLog();
    }
    expect(fetchMock).toHaveBeenCalledTimes(5);
    expect(shown).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });

  it("a reader's flush waits for the send already on its way (the log it then lists holds those entries)", async () => {
    vi.useFakeTimers();
    let answer!: () => void;
    fetchMock.mockImplementationOnce(() => new Promise((resolve) => (answer = () => resolve(reply(Code.Success)))));
    recordVisit('/device');
    // the timer's send takes the entry from the queue and waits for the server
    await vi.advanceTimersByTimeAsync(3500);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    // a reader asks for a flush (the queue is empty now): it must not resolve before that send did
    let flushed = false;
    const reader = flushUserLog().then(() => (flushed = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(flushed).toBe(false);
    answer();
    await reader;
    expect(flushed).toBe(true);
  });

  it('records nothing without a session', async () => {
    clearSession();
    recordVisit('/device');
    await flushUserLog();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
