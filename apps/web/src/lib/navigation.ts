/**
 * The API client and the session helpers live outside React, yet they must send the browser to /login
 * or to the root (§4 Session). The router registers its navigate function here at start-up; before that
 * (and in tests) a plain location change is used.
 */
type Navigate = (to: string, opts?: { replace?: boolean }) => void;

let navigateImpl: Navigate | null = null;
let locationImpl: (() => string) | null = null;

/** Registers the router: how to navigate and, for routers other than the browser's, where it is. */
export function setNavigator(fn: Navigate | null, currentPath: (() => string) | null = null): void {
  navigateImpl = fn;
  locationImpl = currentPath;
}

export function navigateTo(to: string, opts: { replace?: boolean } = {}): void {
  if (navigateImpl) navigateImpl(to, opts);
  else if (opts.replace) window.location.replace(to);
  else window.location.assign(to);
}

/** The full current path with query and hash, as the redirect query of /login carries it (§2.2). */
export function currentFullPath(): string {
  if (locationImpl) return locationImpl();
  const { pathname, search, hash } = window.location;
  return `${pathname}${search}${hash}`;
}

export function isLoginPath(pathname: string): boolean {
  return pathname === '/login' || pathname === '/login2';
}

/** Builds /login?redirect=… for a path; the sign-in page sends the user back there afterwards. */
export function loginPathFor(fullPath: string): string {
  const pathOnly = fullPath.split(/[?#]/)[0] ?? '';
  if (isLoginPath(pathOnly) || fullPath === '/' || fullPath === '') return '/login';
  return `/login?redirect=${encodeURIComponent(fullPath)}`;
}

/**
 * The redirect target after sign-in: only a path inside this app (never another origin such as
 * "//evil.example" or "https://…"), and never the sign-in page itself.
 */
export function safeRedirectTarget(raw: string | null | undefined): string {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  const pathOnly = raw.split(/[?#]/)[0] ?? '';
  if (isLoginPath(pathOnly)) return '/';
  return raw;
}
