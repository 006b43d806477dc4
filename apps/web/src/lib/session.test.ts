import { TOKEN_COOKIE, type User } from '@wildtrack/contract';
import Cookies from 'js-cookie';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearSession, clearToken, currentZone, getToken, readStoredUser, refreshStoredUser, rememberTimeZone, setToken, userValues, writeStoredUser } from './session';

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

describe("this browser's time zone (issue 28 item 3)", () => {
  const user = (TimeZone: string): User => ({
    UserId: 7, UserIdStr: '7', UserName: 'ranger01', NickName: 'Ranger', CustomerId: 1, CustomerIdStr: '1', CustomerName: 'Qinling Reserve',
    ParentUnit: '', IsPrimary: true, FixTag: 'DEFAULT', TelephoneCode: '86', Phone: '', EMail: '', ImgUrl: '', ExperienceFunc: 0,
    Company: 'Qinling Reserve', Lcid: 1033, TimeZone, SafeSetting: { CountryCode: '86', Phone: '', Email: '', PasswordOnly: true },
  });
  afterEach(() => {
    clearSession();
    Cookies.remove('wildtrack_chosen_time_zone', { path: '/' });
    vi.restoreAllMocks();
  });

  it('the zone chosen on this browser wins over the one kept at sign-in and the server', () => {
    writeStoredUser(userValues(user('-05:00')));
    expect(currentZone()).toBe('-05:00');
    rememberTimeZone('+08:00');
    expect(currentZone()).toBe('+08:00');
    // The server's copy of the user (another device signed in from New York) changes neither.
    refreshStoredUser({ ...user('-05:00'), NickName: 'Fresh' });
    expect(currentZone()).toBe('+08:00');
    expect(readStoredUser()).toMatchObject({ nickName: 'Fresh', timeZone: '+08:00' });
  });

  it('without a choice, a refresh from the server keeps the zone this browser signed in with', () => {
    writeStoredUser(userValues(user('+08:00')));
    refreshStoredUser(user('-05:00'));
    expect(currentZone()).toBe('+08:00');
  });

  it("falls back to the browser's own zone, and keeps a choice 30 days in a cookie", () => {
    vi.spyOn(Date.prototype, 'getTimezoneOffset').mockReturnValue(-540);
    expect(currentZone()).toBe('+09:00');
    const set = vi.spyOn(Cookies, 'set');
    rememberTimeZone('-03:00');
    expect(set).toHaveBeenCalledWith('wildtrack_chosen_time_zone', '-03:00', expect.objectContaining({ expires: 30 }));
    expect(currentZone()).toBe('-03:00');
  });
});
