import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Code, QR_LOGIN_POLL_MS } from '@wildtrack/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { setLang } from '../../../i18n';
import { resetClientForTests } from '../../../lib/api/client';
import { envelope, fakeServer } from '../../../test/server';
import { QrSignIn } from './QrSignIn';

/** The waiting page of QR sign-in: the code's end on its own clock, a refusal, Refresh (contract calls/qrlogin.ts). */
describe('QR sign-in on the sign-in page', () => {
  let codes = 0;
  const qr = () => envelope(Code.Success, '', { Code: String(++codes).padStart(43, 'A'), Ticket: 'B'.repeat(43), ExpiresIn: 120 });
  const polls = (fetchMock: ReturnType<typeof fakeServer>) => fetchMock.mock.calls.filter(([url]) => url.endsWith('/api/Auth/QRCodeLogin')).length;

  beforeEach(() => {
    codes = 0;
    setLang('en');
    resetClientForTests();
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows the code with the time left, covers it at 2 minutes with Expired and Refresh, and Refresh asks for a new one', async () => {
    const fetchMock = fakeServer({ '/api/Auth/GetLoginQRCode': qr, '/api/Auth/QRCodeLogin': () => envelope(Code.Success, '', { Status: 'Waiting' }) });
    render(
      <AppProviders>
        <QrSignIn onSignedIn={() => undefined} />
      </AppProviders>,
    );
    const image = await screen.findByTestId('qr-login-image');
    expect(image.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(screen.getByTestId('qr-login').querySelector('[data-link]')?.getAttribute('data-link')).toMatch(/\/qr-login\?code=A+1$/);
    await screen.findByText('Valid for 2:00');
    await act(async () => void (await vi.advanceTimersByTimeAsync(QR_LOGIN_POLL_MS + 10)));
    expect(polls(fetchMock)).toBeGreaterThan(0);
    await act(async () => void (await vi.advanceTimersByTimeAsync(120_000)));
    await screen.findByText('The QR code has expired');
    expect(screen.getByTestId('qr-login').dataset.state).toBe('ended');
    // no poll after the end
    const after = polls(fetchMock);
    await act(async () => void (await vi.advanceTimersByTimeAsync(4 * QR_LOGIN_POLL_MS)));
    expect(polls(fetchMock)).toBe(after);

    fireEvent.click(screen.getByTestId('qr-login-refresh'));
    await waitFor(() => expect(screen.getByTestId('qr-login').querySelector('[data-link]')?.getAttribute('data-link')).toMatch(/code=A+2$/));
    expect(screen.getByTestId('qr-login').dataset.state).toBe('waiting');
  });

  it("says Scanned, then covers the code with the server's refusal (declined) and stops polling", async () => {
    let answer = () => envelope(Code.Success, '', { Status: 'Scanned' });
    const fetchMock = fakeServer({ '/api/Auth/GetLoginQRCode': qr, '/api/Auth/QRCodeLogin': () => answer() });
    render(
      <AppProviders>
        <QrSignIn onSignedIn={() => undefined} />
      </AppProviders>,
    );
    await screen.findByTestId('qr-login-image');
    await act(async () => void (await vi.advanceTimersByTimeAsync(QR_LOGIN_POLL_MS + 10)));
    await screen.findByText('Scanned. Confirm the sign-in on your phone.');
    answer = () => envelope(Code.Failed, 'The sign-in was declined');
    await act(async () => void (await vi.advanceTimersByTimeAsync(QR_LOGIN_POLL_MS + 10)));
    await screen.findByText('The sign-in was declined');
    expect(screen.getByTestId('qr-login-refresh')).toBeTruthy();
    const after = polls(fetchMock);
    await act(async () => void (await vi.advanceTimersByTimeAsync(4 * QR_LOGIN_POLL_MS)));
    expect(polls(fetchMock)).toBe(after);
  });
});
