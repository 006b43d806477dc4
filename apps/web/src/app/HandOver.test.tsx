import { Code } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLang } from '../i18n';
import { resetClientForTests } from '../lib/api/client';
import { queryClient } from '../lib/queryClient';
import { clearSession, getToken, readStoredUser, setToken } from '../lib/session';
import { user } from '../test/fixtures';
import { callsTo, envelope, fakeServer } from '../test/server';
import { adoptHashToken, handOverPending } from './guard';
import { StartGate } from './StartGate';
import { AppProviders } from './providers';

/** Issue 26 L10: a `#token=` signs this browser in only after "Signed in as X — continue?". */
function renderStart() {
  return render(
    <AppProviders>
      <StartGate>{() => <p>the console</p>}</StartGate>
    </AppProviders>,
  );
}

const victimUser = () => user({ UserName: 'poacher01', NickName: 'Mallory', CustomerName: 'Somebody Else Ltd' });

beforeEach(() => {
  resetClientForTests();
  queryClient.clear();
  clearSession();
  window.localStorage.clear();
  // the fetch stubs answer in clear: the console's field cipher off, as test/setup.ts has it for the screens
  window.localStorage.setItem('wildtrack_field_cipher', 'off');
  setLang('en');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a session handed over in the address (§2.2 #token=)', () => {
  it('asks first, with the account it opens; nothing of the console renders until Continue', async () => {
    const server = fakeServer({ '/api/User/GetInfo': () => envelope(Code.Success, '', victimUser()) });
    window.history.replaceState(null, '', '/device#/?token=sid-9.tok-9');
    expect(adoptHashToken()).toBe(true);
    expect(window.location.hash).toBe('');
    renderStart();
    expect(await screen.findByText('Signed in as Mallory: continue?')).toBeTruthy();
    expect(screen.getByTestId('hand-over-account').textContent).toBe('This link opened the account poacher01 of Somebody Else Ltd in this browser.');
    expect(screen.queryByText('the console')).toBeNull();
    // the question was asked with the handed-over session
    expect((callsTo(server, '/api/User/GetInfo')[0]!.headers as Record<string, string>)['x-session']).toBe('sid-9');

    fireEvent.click(screen.getByRole('button', { name: 'Continue as Mallory' }));
    expect(await screen.findByText('the console')).toBeTruthy();
    expect(getToken()).toBe('sid-9.tok-9');
    expect(readStoredUser()).toMatchObject({ userName: 'poacher01', customerName: 'Somebody Else Ltd' });
    expect(handOverPending()).toBe(false);
    expect(callsTo(server, '/api/User/Exit')).toHaveLength(0);
  });

  it('Cancel ends that session on the server and forgets it: the console goes on signed out', async () => {
    const server = fakeServer({
      '/api/User/GetInfo': () => envelope(Code.Success, '', victimUser()),
      '/api/User/Exit': () => envelope(Code.Success, '', null),
    });
    window.history.replaceState(null, '', '/#token=sid-5.tok-5');
    adoptHashToken();
    renderStart();
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel, and sign in myself' }));
    expect(await screen.findByText('the console')).toBeTruthy();
    const exits = callsTo(server, '/api/User/Exit');
    expect(exits).toHaveLength(1);
    expect((exits[0]!.headers as Record<string, string>)['x-session']).toBe('sid-5');
    expect(getToken()).toBeUndefined();
    expect(readStoredUser().userName).toBe('');
    expect(handOverPending()).toBe(false);
  });

  it('asks again after a reload until answered, in Chinese too', async () => {
    fakeServer({ '/api/User/GetInfo': () => envelope(Code.Success, '', victimUser()) });
    window.history.replaceState(null, '', '/#token=sid-6.tok-6');
    adoptHashToken();
    const first = renderStart();
    await screen.findByText('Signed in as Mallory: continue?');
    first.unmount();
    // a reload: the address has no token any more, the session waits for its answer
    setLang('zh');
    expect(adoptHashToken()).toBe(false);
    expect(handOverPending()).toBe(true);
    renderStart();
    expect(await screen.findByText('已登录为 Mallory，是否继续？')).toBeTruthy();
    expect(screen.getByTestId('hand-over-account').textContent).toBe('此链接在本浏览器中打开了 Somebody Else Ltd 的账号 poacher01。');
    expect(screen.getByRole('button', { name: '以 Mallory 继续' })).toBeTruthy();
    expect(screen.getByRole('button', { name: '取消，自己登录' })).toBeTruthy();
    expect(screen.queryByText('the console')).toBeNull();
  });

  it('a session ended meanwhile is said so and dropped', async () => {
    fakeServer({ '/api/User/GetInfo': () => envelope(Code.SessionExpired, 'Session expired') });
    window.history.replaceState(null, '', '/#token=sid-7.tok-7');
    adoptHashToken();
    renderStart();
    fireEvent.click(await screen.findByRole('button', { name: 'Go to sign-in' }));
    expect(await screen.findByText('the console')).toBeTruthy();
    expect(getToken()).toBeUndefined();
  });

  it('a browser already signed in keeps its own session and is not asked', async () => {
    fakeServer({});
    setToken('sid-1.mine');
    window.history.replaceState(null, '', '/#token=sid-8.theirs');
    expect(adoptHashToken()).toBe(false);
    renderStart();
    expect(await screen.findByText('the console')).toBeTruthy();
    await waitFor(() => expect(getToken()).toBe('sid-1.mine'));
  });
});
