import { BatchDownloadWAV, Code } from '@wildtrack/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession } from '../session';
import { signInForTest } from '../../test/session';
import { attachmentName, download } from './download';

beforeEach(() => signInForTest());
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const body = { imei: '860000000000333', pickTimes: ['2026-11-01 09:03:01'], timeZone: '+08:00' };

describe('downloads', () => {
  it("reads the server's file name, the UTF-8 one first", () => {
    expect(attachmentName(`attachment; filename="audio-wav(X).zip"; filename*=UTF-8''audio-wav%28%E9%B8%9F%29.zip`)).toBe('audio-wav(鸟).zip');
    expect(attachmentName('attachment; filename="a.zip"')).toBe('a.zip');
    expect(attachmentName(`attachment; filename*=UTF-8''%E0%A4%A`)).toBe('download');
    expect(attachmentName(null)).toBe('download');
  });

  it('saves the answered file under its name, and rejects with the message of a refusal', async () => {
    const zip = new Response(new Uint8Array([0x50, 0x4b, 3, 4]), {
      headers: { 'content-type': 'application/zip', 'content-disposition': `attachment; filename="audio-wav(860000000000333).zip"` },
    });
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(zip)));
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    URL.createObjectURL = vi.fn(() => 'blob:zip');
    URL.revokeObjectURL = vi.fn();
    expect(await download(BatchDownloadWAV, body)).toBe('audio-wav(860000000000333).zip');
    expect(clicked).toEqual(['audio-wav(860000000000333).zip']);

    const refusal = JSON.stringify({ Code: Code.Invalid, Msg: 'There is no recording at this time.', Data: { Field: 'pickTimes[0]' } });
    vi.stubGlobal('fetch', vi.fn(() => Promise.resolve(new Response(refusal, { headers: { 'content-type': 'application/json; charset=utf-8' } }))));
    await expect(download(BatchDownloadWAV, { ...body, pickTimes: ['2026-11-01 09:03:02'] })).rejects.toThrow('There is no recording at this time.');
  });
});
