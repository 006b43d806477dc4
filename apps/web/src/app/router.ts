import { createBrowserRouter } from 'react-router';
import { setNavigator } from '../lib/navigation';
import { routeTree } from './routeTree';

export function createAppRouter() {
  const router = createBrowserRouter(routeTree);
  // The API client sends the browser to /login or / through the router, without a page reload.
  setNavigator((to, opts) => void router.navigate(to, { replace: opts?.replace ?? false }));
  return router;
}
