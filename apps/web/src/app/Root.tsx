import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router';
import { hasToken } from '../lib/session';
import { recordVisit } from '../lib/userlog';
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
  useVisitLog(redirect === null ? location.pathname : null);

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

/**
 * Every screen a signed-in user lands on goes to the user log (queued, sent quietly in batches); a path
 * that only redirects ('/') has no route name and is not a visit.
 */
function useVisitLog(pathname: string | null): void {
  const named = useMatches().some((m) => isRouteHandle(m.handle));
  const visited = pathname !== null && named && !pathname.startsWith('/login') ? pathname : null;
  useEffect(() => {
    if (visited !== null && hasToken()) recordVisit(visited);
  }, [visited]);
}

function useScrollToTop(pathname: string): void {
  useEffect(() => {
    window.scrollTo({ top: 0, left: 0 });
    document.getElementById('wt-content')?.scrollTo?.({ top: 0, left: 0 });
  }, [pathname]);
}
