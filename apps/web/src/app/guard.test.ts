import { TOKEN_COOKIE } from '@wildtrack/contract';
import Cookies from 'js-cookie';
import { beforeEach, describe, expect, it } from 'vitest';
import { getToken, setToken } from '../lib/session';
import { adoptHashToken, guardRedirect, hashWithoutToken, tokenFromHash } from './guard';

const at = (path: string) => {
  const url = new URL(path, 'http://x');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
};

describe('guardRedirect (§2.2)', () => {
  it('sends a signed-out visitor to /login with the full original path', () => {
    expect(guardRedirect(at('/device?folder=2&q=a%20b'), false)).toBe(`/login?redirect=${encodeURIComponent('/device?folder=2&q=a%20b')}`);
    expect(guardRedirect(at('/track'), false)).toBe('/login?redirect=%2Ftrack');
    expect(guardRedirect(at('/redirect/device'), false)).toBe('/login?redirect=%2Fredirect%2Fdevice');
  });

  it('sends the root to a plain /login', () => {
    expect(guardRedirect(at('/'), false)).toBe('/login');
  });

  it('lets a signed-out visitor see both sign-in paths', () => {
    expect(guardRedirect(at('/login'), false)).toBeNull();
    expect(guardRedirect(at('/login2?redirect=%2Fdevice'), false)).toBeNull();
  });

  it('sends a signed-in user away from the sign-in page, to its redirect target or /', () => {
    expect(guardRedirect(at('/login'), true)).toBe('/');
    expect(guardRedirect(at('/login2'), true)).toBe('/');
    expect(guardRedirect(at('/login?redirect=%2Fdevice%3Fx%3D1'), true)).toBe('/device?x=1');
  });

  it('never redirects to another origin', () => {
    expect(guardRedirect(at('/login?redirect=%2F%2Fevil.example'), true)).toBe('/');
    expect(guardRedirect(at('/login?redirect=https%3A%2F%2Fevil.example'), true)).toBe('/');
    expect(guardRedirect(at('/login?redirect=%2Flogin'), true)).toBe('/');
  });

  it('lets a signed-in user through', () => {
    expect(guardRedirect(at('/device'), true)).toBeNull();
    expect(guardRedirect(at('/'), true)).toBeNull();
  });
});

describe('token in the URL hash', () => {
  beforeEach(() => {
    Cookies.remove(TOKEN_COOKIE, { path: '/' });
  });

  it('reads it from the hash query in its usual forms', () => {
    expect(tokenFromHash('#/?token=abc')).toBe('abc');
    expect(tokenFromHash('#/device?x=1&token=t%2B1')).toBe('t+1');
    expect(tokenFromHash('#token=xyz')).toBe('xyz');
    expect(tokenFromHash('#/device')).toBeNull();
    expect(tokenFromHash('')).toBeNull();
  });

  it('removes only the token from the hash', () => {
    expect(hashWithoutToken('#/?token=abc')).toBe('');
    expect(hashWithoutToken('#token=abc')).toBe('');
    expect(hashWithoutToken('#/device?x=1&token=abc')).toBe('#/device?x=1');
  });

  it('stores it when no token exists yet and cleans the address bar', () => {
    window.history.replaceState(null, '', '/device?a=1#/?token=from-hash');
    expect(adoptHashToken()).toBe(true);
    expect(getToken()).toBe('from-hash');
    expect(window.location.hash).toBe('');
    expect(window.location.pathname + window.location.search).toBe('/device?a=1');
  });

  it('keeps an existing token', () => {
    setToken('sid-1.existing');
    window.history.replaceState(null, '', '/#token=other');
    expect(adoptHashToken()).toBe(false);
    expect(getToken()).toBe('sid-1.existing');
  });
});
