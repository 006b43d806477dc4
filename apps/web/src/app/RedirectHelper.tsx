import { Navigate, useLocation, useParams } from 'react-router';

/** /redirect/<path>: replaces itself with /<path> (keeping query and hash), e.g. to re-enter a page. */
export function RedirectHelper() {
  const params = useParams();
  const { search, hash } = useLocation();
  const target = `/${params['*'] ?? ''}`.replace(/^\/+/, '/');
  return <Navigate to={`${target}${search}${hash}`} replace />;
}
