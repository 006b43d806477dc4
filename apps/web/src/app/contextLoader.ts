import type { LoaderFunctionArgs } from 'react-router';
import { applyContextSearch, type ContextPage } from '../lib/contextUrl';

/**
 * A screen route's loader: the URL's search params (a reload, a shared link, Back) are read into the view
 * context before the screen renders, so the screen and the tree open on them. Loads nothing.
 */
export function contextLoader(page: ContextPage) {
  return ({ request }: LoaderFunctionArgs): null => {
    applyContextSearch(page, new URL(request.url).searchParams);
    return null;
  };
}
