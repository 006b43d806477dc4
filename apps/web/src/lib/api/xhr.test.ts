import { Code, Header, LONG_REQUEST_TIMEOUT_MS, MovebankImport } from '@wildtrack/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, setToken } from '../session';
import { resetClientForTests, upload } from './client';

/**
 * An upload with progress goes by XMLHttpRequest (fetch can't report a request body's progress) and
 * times out on silence, not on its length. A fake XMLHttpRequest sends its body in steps under fake
 * timers.
 */

type Step = { afterMs: number; sent: number } | { afterMs: number; answer: unknown };

let script: Step[] = [];
const opened: FakeXhr[] = [];

class FakeXhr {
  upload: { onprogress: ((e: { lengthComputable: boolean; loaded: number; total: number }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  withCredentials = false;
  status = 0;
  responseText = '';
  method = '';
  url = '';
  headers: Record<string, string> = {};
  private timers: ReturnType<typeof setTimeout>[] = [];
  open(method: string, url: string): void {
    this.method = method;
    this.url = url;
    opened.push(this);
  }
  setRequestHeader(name: string, value: string): void {
    this.headers[name] = value;
  }
  send(): void {
    let at = 0;
    for (const step of script) {
      at += step.afterMs;
      this.timers.push(
        setTimeout(() => {
          if ('sent' in step) this.upload.onprogress?.({ lengthComputable: true, loaded: step.sent, total: 100 });
          else {
            this.status = 200;
            this.responseText = JSON.stringify(step.answer);
            this.onload?.();
          }
        }, at),
      );
    }
  }
  abort(): void {
    for (const t of this.timers) clearTimeout(t);
    this.onabort?.();
  }
}

const job = { IdStr: '1', FolderIdStr: '-1', FileName: 'big.csv', ReferenceFileName: '', Status: 'queued', Size: 100, BytesRead: 0, Percent: 0, Rows: 0, RowsPerSecond: 0, Stored: 0, CancelRequested: false, UserName: 'Ranger', CreateTime: '2026-11-24 15:00:00', StartTime: '', EndTime: '', Report: null, Error: '' };

beforeEach(() => {
  vi.useFakeTimers();
  resetClientForTests();
  setToken('session-1.token-abc');
  opened.length = 0;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
});

afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const form = () => {
  const f = new FormData();
  f.append('folderId', '-1');
  f.append('file', new File(['x'], 'big.csv'));
  return f;
};

describe('upload with progress', () => {
  it('reports progress and lasts longer than the call timeout while bytes keep going out', async () => {
    // five minutes of upload, a step every minute: more than twice the 120 s limit, never 120 s silent
    const minute = 60_000;
    script = [1, 2, 3, 4, 5].map((i) => ({ afterMs: minute, sent: i * 20 }));
    script.push({ afterMs: 1_000, answer: { Code: Code.Success, Msg: '', Data: job } });
    const progress: number[] = [];
    const answer = upload(MovebankImport, form(), { loading: false, onUploadProgress: (sent) => progress.push(sent) });
    await vi.advanceTimersByTimeAsync(5 * minute + 1_000);
    await expect(answer).resolves.toMatchObject({ IdStr: '1', Status: 'queued' });
    expect(5 * minute).toBeGreaterThan(2 * LONG_REQUEST_TIMEOUT_MS);
    expect(progress).toEqual([20, 40, 60, 80, 100]);
    expect(opened[0]!.url).toBe('/prod-api/api/Movebank/Import');
    expect(opened[0]!.headers[Header.session]).toBe('session-1');
  });

  it('times out when nothing goes out for the call timeout', async () => {
    script = [{ afterMs: 10_000, sent: 10 }, { afterMs: LONG_REQUEST_TIMEOUT_MS + 10_000, sent: 20 }];
    const answer = upload(MovebankImport, form(), { loading: false, onUploadProgress: () => undefined });
    const settled = expect(answer).rejects.toMatchObject({ kind: 'timeout' });
    await vi.advanceTimersByTimeAsync(10_000 + LONG_REQUEST_TIMEOUT_MS + 1);
    await settled;
  });
});
