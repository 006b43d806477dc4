import { TOKEN_COOKIE } from '@wildtrack/contract';
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToken, getToken, setToken } from './session';

declare const jsdom: { reconfigure(options: { url: string }): void };

describe('the session cookie (issue 26 L9)', () => {
  afterEach(() => {
    clearToken();
    vi.restoreAllMocks();
    jsdom.reconfigure({ url: 'http://localhost:3000/' });
  });

  it('is Secure on a page served over TLS', () => {
    jsdom.reconfigure({ url: 'https://console.example.org/device' });
    const set = vi.spyOn(Cookies, 'set');
    setToken('sid-tls.token-tls');
    expect(set).toHaveBeenCalledWith(TOKEN_COOKIE, expect.stringMatching(/^sid-tls\./), { path: '/', sameSite: 'Strict', secure: true });
    expect(getToken()).toBe('sid-tls.token-tls');
  });

  it('is not Secure on a plain-HTTP page (a station LAN), where the browser would drop a Secure one', () => {
    jsdom.reconfigure({ url: 'http://192.168.1.10/device' });
    const set = vi.spyOn(Cookies, 'set');
    setToken('sid-lan.token-lan');
    expect(set).toHaveBeenCalledWith(TOKEN_COOKIE, expect.stringMatching(/^sid-lan\./), { path: '/', sameSite: 'Strict', secure: false });
    expect(getToken()).toBe('sid-lan.token-lan');
  });
});
