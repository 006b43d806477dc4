import { Code, EXPERIENCE_FLAG_KEY, TOKEN_COOKIE } from '@wildtrack/contract';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import Cookies from 'js-cookie';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { setLang } from '../i18n';
import { resetClientForTests } from '../lib/api/client';
import { setNavigator } from '../lib/navigation';
import { queryClient } from '../lib/queryClient';
import { clearSession, getToken, readStoredUser, setToken, writeStoredUser } from '../lib/session';
import { loginResult, user } from '../test/fixtures';
import { callsTo, envelope, fakeServer } from '../test/server';
import { AppProviders } from './providers';
import { routeTree } from './routeTree';

function renderApp(path: string) {
  const router = createMemoryRouter(routeTree, { initialEntries: [path] });
  const here = () => `${router.state.location.pathname}${router.state.location.search}`;
  setNavigator((to, opts) => void router.navigate(to, { replace: opts?.replace ?? false }), here);
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, here };
}

function signIn(): void {
  setToken('tok-1');
  writeStoredUser({ nickName: 'Ranger One', userName: 'ranger01', timeZone: '+08:00', customerName: 'Qinling Reserve' });
}

beforeEach(() => {
  resetClientForTests();
  queryClient.clear();
  clearSession();
  window.sessionStorage.clear();
  setLang('en');
  // The console's screens load lazily: a title left by the previous test must not pass for this one's.
  document.title = '';
});

afterEach(() => {
  vi.unstubAllGlobals();
  setNavigator(null);
});

describe('routes and guard', () => {
  it('sends a signed-out visitor to the sign-in page with the redirect, titled from the route', async () => {
    fakeServer({});
    const { here } = renderApp('/device?x=1');
    await waitFor(() => expect(here()).toBe('/login?redirect=%2Fdevice%3Fx%3D1'));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Sign in - Wildtrack'));
  });

  it('opens / as /device inside the layout, with the tree panel, time zone and an honest empty state', async () => {
    fakeServer({});
    signIn();
    const { here } = renderApp('/');
    await waitFor(() => expect(here()).toBe('/device'));
    await waitFor(() => expect(document.title).toBe('Device management - Wildtrack'));
    expect(screen.getByTestId('tree-panel')).toBeTruthy();
    expect(screen.getByTestId('time-zone').textContent).toContain('+08:00');
    expect((await screen.findAllByText('Your organisation has no devices yet')).length).toBeGreaterThan(0);
    // how to get devices: register, import a Movebank file, or the experience devices
    expect(screen.getByText(/Register a device/)).toBeTruthy();
    expect(screen.getByText(/Import a Movebank file:/)).toBeTruthy();
    expect(screen.getByText(/experience devices/i, { selector: 'li' })).toBeTruthy();
    expect(await screen.findByText('Our devices')).toBeTruthy();
    expect(screen.getByText('Device list')).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/coming soon/i);
  });

  it('sends a signed-in user from /login to the redirect target', async () => {
    fakeServer({});
    signIn();
    const { here } = renderApp('/login2?redirect=%2Fdevice%3Fy%3D2');
    await waitFor(() => expect(here()).toBe('/device?y=2'));
  });

  it('resolves /redirect/<path> to /<path>', async () => {
    fakeServer({});
    signIn();
    const { here } = renderApp('/redirect/device?tab=2');
    await waitFor(() => expect(here()).toBe('/device?tab=2'));
  });

  it('packs and expands the tree panel', async () => {
    fakeServer({});
    signIn();
    renderApp('/device');
    const panel = await screen.findByTestId('tree-panel');
    const before = panel.getAttribute('data-packed');
    fireEvent.click(screen.getByRole('button', { name: before === '1' ? 'Expand the device panel' : 'Pack the device panel' }));
    await waitFor(() => expect(screen.getByTestId('tree-panel').getAttribute('data-packed')).not.toBe(before));
  });
});

describe('sign-in page', () => {
  async function submit(account: string, pwd: string): Promise<void> {
    fireEvent.change(await screen.findByLabelText('Account'), { target: { value: account } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: pwd } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
  }

  it('shows the required messages from the contract catalogue', async () => {
    fakeServer({});
    renderApp('/login');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Enter the account.')).toBeTruthy();
    expect(await screen.findByText('Enter the password.')).toBeTruthy();
  });

  it('signs in, keeps the token and user values, and goes to the redirect target', async () => {
    const server = fakeServer({
      '/api/Auth/PasswordLogin': () => envelope(Code.Success, '', loginResult({}, { Lcid: 1033 })),
    });
    const { here } = renderApp('/login?redirect=%2Fdevice%3Fx%3D1');
    await submit('ranger01', 'Secret123');

    await waitFor(() => expect(here()).toBe('/device?x=1'));
    // The session credential kept (the token opened from the sealed answer); the cookie has no token.
    expect(getToken()).toBe('session-1.token-abc');
    expect(Cookies.get(TOKEN_COOKIE)).not.toContain('token-abc');
    const stored = readStoredUser();
    expect(stored).toMatchObject({ nickName: 'Ranger One', userName: 'ranger01', customerName: 'Qinling Reserve', email: 'ranger@example.org', timeZone: '+08:00' });
    expect(window.localStorage.getItem(EXPERIENCE_FLAG_KEY)).toBe('1');
    const sent = JSON.parse(callsTo(server, '/api/Auth/PasswordLogin')[0]!.body as string) as Record<string, string>;
    expect(sent.account).toBe('ranger01');
    expect(sent.timeZone).toMatch(/^[+-]\d{2}:00$/);
    expect(sent.pwd).toMatch(/^wt1\./);
    // same language on both sides: nothing to record
    expect(callsTo(server, '/api/User/ModifyLcid')).toHaveLength(0);
    expect(screen.queryByText('Secure your account')).toBeNull();
  });

  it('signs in with a phone code: checks the phone, sends the code with the 60 s countdown, seals the code', async () => {
    const server = fakeServer({
      '/api/Auth/GetLoginPhoneCode': () => envelope(Code.Success, '', { Target: '+86 138*****678', ResendSeconds: 60 }),
      '/api/Auth/PhoneCodeLogin': () => envelope(Code.Success, '', loginResult({}, { Lcid: 1033 })),
    });
    const { here } = renderApp('/login?redirect=%2Fdevice%3Fx%3D1');
    fireEvent.click(await screen.findByText('By phone code'));
    const phone = await screen.findByLabelText('Phone number');
    fireEvent.change(phone, { target: { value: '1381234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Enter an 11-digit mobile number starting with 1.')).toBeTruthy();
    expect(callsTo(server, '/api/Auth/GetLoginPhoneCode')).toHaveLength(0);
    fireEvent.change(phone, { target: { value: '13812345678' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('A code was sent to +86 138*****678')).toBeTruthy();
    expect(await screen.findByRole('button', { name: /Resend in (60|59) s/ })).toBeTruthy();
    expect(JSON.parse(callsTo(server, '/api/Auth/GetLoginPhoneCode')[0]!.body as string)).toEqual({ countryCode: '86', phone: '13812345678' });
    fireEvent.change(screen.getByTestId('phone-login-code'), { target: { value: '4321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(here()).toBe('/device?x=1'));
    expect(getToken()).toBe('session-1.token-abc');
    const sent = JSON.parse(callsTo(server, '/api/Auth/PhoneCodeLogin')[0]!.body as string) as Record<string, string>;
    expect([sent.phone, sent.countryCode]).toEqual(['13812345678', '86']);
    expect(sent.code).toMatch(/^wt1\./);
    expect(sent.clientKey).toBeTruthy();
  });

  it('shows the server message when the sign-in is refused', async () => {
    fakeServer({ '/api/Auth/PasswordLogin': () => envelope(Code.SignInFailed, 'Incorrect account or password') });
    const { here } = renderApp('/login');
    await submit('ranger01', 'nope');
    expect(await screen.findByText('Incorrect account or password')).toBeTruthy();
    expect(here()).toBe('/login');
    expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined();
  });

  it('warns about a weak password and records a different server language', async () => {
    const server = fakeServer({
      '/api/Auth/PasswordLogin': () => envelope(Code.Success, '', loginResult({ WeakPassword: true }, { Lcid: 2052 })),
      '/api/User/ModifyLcid': () => envelope(Code.Success, '', null),
    });
    renderApp('/login');
    await submit('ranger01', 'password');
    expect(await screen.findByText('Your password is too simple; please change it soon')).toBeTruthy();
    await waitFor(() => expect(callsTo(server, '/api/User/ModifyLcid')).toHaveLength(1));
    expect(JSON.parse(callsTo(server, '/api/User/ModifyLcid')[0]!.body as string)).toEqual({ lcid: 1033 });
  });

  it('forces the safety prompt for an account without e-mail and phone; cancelling signs out after confirmation', async () => {
    const server = fakeServer({
      '/api/Auth/PasswordLogin': () =>
        envelope(Code.Success, '', loginResult({}, { EMail: '', Phone: '', Lcid: 1033, SafeSetting: { CountryCode: '86', Email: '', Phone: '', PasswordOnly: true } })),
      '/api/User/Exit': () => envelope(Code.Success, '', null),
    });
    const { here } = renderApp('/login');
    await submit('ranger01', 'Secret123');
    expect(await screen.findByText('Secure your account')).toBeTruthy();
    // no close button, Escape does nothing
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(screen.getByText('Secure your account')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Not now' }));
    expect((await screen.findAllByText('Leave the account unsecured?')).length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(here()).toBe('/login'));
    expect(callsTo(server, '/api/User/Exit')).toHaveLength(1);
    expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined();
    expect(readStoredUser().userName).toBe('');
  });

  it('confirming the safety prompt opens account security with the state read from the server', async () => {
    fakeServer({
      '/api/Auth/PasswordLogin': () =>
        envelope(Code.Success, '', loginResult({}, { EMail: '', Phone: '', Lcid: 1033, SafeSetting: { CountryCode: '86', Email: '', Phone: '', PasswordOnly: true } })),
      '/api/Auth/GetAccountSafeSetting': () => envelope(Code.Success, '', { CountryCode: '86', Email: '', Phone: '', PasswordOnly: true }),
    });
    renderApp('/login');
    await submit('ranger01', 'Secret123');
    fireEvent.click(await screen.findByRole('button', { name: 'Secure it now' }));
    expect(await screen.findByText('Account security')).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('security-email').textContent).toContain('Not bound'));
    expect(screen.getByTestId('security-phone').textContent).toContain('Not bound');
    expect(screen.getByTestId('security-pwd').textContent).toContain('Set');
  });
});

describe('language toggle', () => {
  it('switches the texts, the title and antd, and records the choice when signed in', async () => {
    const server = fakeServer({ '/api/User/ModifyLcid': () => envelope(Code.Success, '', null) });
    signIn();
    renderApp('/device');
    await waitFor(() => expect(document.title).toBe('Device management - Wildtrack'));
    fireEvent.click(screen.getByText('中'));
    await waitFor(() => expect(document.title).toBe('设备管理 - Wildtrack'));
    expect(screen.getByText('设备列表')).toBeTruthy();
    expect(window.sessionStorage.getItem('wildtrack_lang')).toBe('zh');
    await waitFor(() => expect(callsTo(server, '/api/User/ModifyLcid')).toHaveLength(1));
    expect(JSON.parse(callsTo(server, '/api/User/ModifyLcid')[0]!.body as string)).toEqual({ lcid: 2052 });
  });

  it('does not call the server on the sign-in page (but to ask whether registration is open)', async () => {
    const server = fakeServer({});
    renderApp('/login');
    fireEvent.click(await screen.findByText('中'));
    expect(await screen.findByRole('button', { name: /登\s*录/ })).toBeTruthy();
    expect(server.mock.calls.map(([url]) => url).filter((url) => url !== '/prod-api/api/Auth/GetRegistration')).toEqual([]);
  });
});

describe('session expiry', () => {
  it('a 1004 reply when the shell opens sends the user to /login with the redirect and one warning', async () => {
    fakeServer({ '/api/User/GetInfo': () => envelope(Code.SessionExpired, 'Your session has expired, please sign in again') });
    signIn();
    const { here } = renderApp('/device?x=1');
    await waitFor(() => expect(here()).toBe('/login?redirect=%2Fdevice%3Fx%3D1'));
    expect(await screen.findAllByText('Your session has expired, please sign in again')).toHaveLength(1);
    expect(Cookies.get(TOKEN_COOKIE)).toBeUndefined();
    expect(readStoredUser().nickName).toBe('');
  });

  it("refreshes the kept user values from GetUserInfo, but not this browser's zone (another device's sign-in set the server's)", async () => {
    fakeServer({ '/api/User/GetInfo': () => envelope(Code.Success, '', user({ NickName: 'Fresh Name', TimeZone: '-05:00' })) });
    signIn();
    renderApp('/device');
    await waitFor(() => expect(readStoredUser().nickName).toBe('Fresh Name'));
    expect(screen.getByTestId('time-zone').textContent).toContain('+08:00');
    expect(readStoredUser().timeZone).toBe('+08:00');
  });
});
