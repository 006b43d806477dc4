import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage';
import { RedirectHelper } from './RedirectHelper';
import { Root } from './Root';
import type { RouteHandle } from './routes';

const handle = (h: RouteHandle): RouteHandle => h;

/**
 * Shown while the first screen's code loads (a deep link into the console): the same spinner as the
 * loading overlay, after the same delay, so a fast load never flashes it.
 */
function FirstScreenLoading() {
  const { t } = useTranslation();
  return <Spin fullscreen delay={250} description={t('common.loading')} />;
}

/**
 * The route table of §2.1 for the screens that exist today. The sign-in page is part of the entry; the
 * console's layout and each screen are loaded by the router when first opened (`lazy`), so /login does not
 * download the console, its tables and its maps. The function form of `lazy`, not the object form: the
 * router clears an object's entries once loaded, in place, and this table is shared by every router made
 * from it (the tests make one each).
 */
export const routeTree: RouteObject[] = [
  {
    element: <Root />,
    hydrateFallbackElement: <FirstScreenLoading />,
    children: [
      { path: '/login', element: <LoginPage />, handle: handle({ nameKey: 'route.login' }) },
      { path: '/login2', element: <LoginPage />, handle: handle({ nameKey: 'route.login' }) },
      { path: '/redirect/*', element: <RedirectHelper /> },
      {
        lazy: async () => ({ Component: (await import('./layout/AppLayout')).AppLayout }),
        children: [
          { index: true, element: <Navigate to="/device" replace /> },
          {
            path: '/device',
            lazy: async () => ({ Component: (await import('../features/device/DevicePage')).DevicePage }),
            handle: handle({ nameKey: 'route.device' }),
          },
          {
            path: '/track',
            lazy: async () => ({ Component: (await import('../features/track/TrackPage')).TrackPage }),
            handle: handle({ nameKey: 'route.track' }),
          },
          {
            path: '/map2d',
            lazy: async () => ({ Component: (await import('../features/map2d')).Map2dRoute }),
            handle: handle({ nameKey: 'route.map2d', trail: ['menu.map', 'route.map2d'] }),
          },
          {
            path: '/map3d',
            lazy: async () => ({ Component: (await import('../features/map3d')).Map3dRoute }),
            handle: handle({ nameKey: 'route.map3d', trail: ['menu.map', 'route.map3d'] }),
          },
          {
            path: '*',
            lazy: async () => ({ Component: (await import('./NotFound')).NotFound }),
            handle: handle({ nameKey: 'route.notFound' }),
          },
        ],
      },
    ],
  },
];
