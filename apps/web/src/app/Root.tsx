import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { hasToken } from '../lib/session';
import { guardRedirect } from './guard';
import { isRouteHandle } from './routes';

/** The route root: the §2.2 guard, the page title from the route name, and scroll-to-top on change. */
export function Root() {
  const location = useLocation();
  // Decided per navigation, like a router guard, not on every session change: sign-in, sign-out and
  // session expiry each navigate explicitly, and reacting to the cookie as well would race with them
  // (a sign-out would land on /login?redirect=… instead of /login).
  const redirect = guardRedirect(location, hasToken());

  usePageTitle();
  useScrollToTop(location.pathname);

  if (redirect !== null) return <Navigate to={redirect} replace />;
  return <Outlet />;
}

function usePageTitle(): void {
  const { t, i18n } = useTranslation();
  const matches = useMatches();
  const handle = [...matches].reverse().map((m) => m.handle).find(isRouteHandle);
  const name = handle ? t(handle.nameKey) : '';
  const suffix = t('app.titleSuffix');
  useEffect(() => {
    document.title = name ? `${name} - ${suffix}` : suffix;
  }, [name, suffix, i18n.language]);
}

function useScrollToTop(pathname: string): void {
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
    document.getElementById('wt-content')?.scrollTo?.({ top: 0, left: 0 });
  }, [pathname]);
}
