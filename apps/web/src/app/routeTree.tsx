import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage';
import { RedirectHelper } from './RedirectHelper';
import { contextLoader } from './contextLoader';
import { RouteError } from './RouteError';
import { Root } from './Root';
import type { RouteHandle } from './routes';
import { prefetchScreens, screens } from './screens';

const handle = (h: RouteHandle): RouteHandle => h;

/**
 * A route's `lazy`: the screen's code, or when it can't be fetched (server restarting, Wi-Fi gone) the
 * error page in its place, inside the shell. Retry there reloads the page, which fetches the code anew.
 */
function screen<M>(loader: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async (): Promise<{ Component: ComponentType }> => {
    try {
      return { Component: pick(await loader()) };
    } catch (error) {
      return { Component: () => <RouteError error={error} /> };
    }
  };
}

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
    // the shell's own code failed to load, or an error outside a screen: the whole page says so
    errorElement: <RouteError />,
    children: [
      { path: '/login', element: <LoginPage />, handle: handle({ nameKey: 'route.login' }) },
      { path: '/login2', element: <LoginPage key="login2" initialMethod="qr" />, handle: handle({ nameKey: 'route.login' }) },
      { path: '/redirect/*', element: <RedirectHelper /> },
      {
        lazy: screen(screens.layout, ({ AppLayout }) => () => <AppLayout prefetch={prefetchScreens} />),
        // A screen's errors show inside the shell (header, menu and tree stay usable).
        children: [
          { index: true, element: <Navigate to="/device" replace /> },
          {
            path: '/device',
            loader: contextLoader('device'),
            lazy: screen(screens.device, (m) => m.DevicePage),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.device' }),
          },
          {
            path: '/track',
            loader: contextLoader('track'),
            lazy: screen(screens.track, (m) => m.TrackPage),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.track' }),
          },
          {
            path: '/map2d',
            loader: contextLoader('map'),
            lazy: screen(screens.map2d, (m) => m.Map2dRoute),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.map2d', trail: ['menu.map', 'route.map2d'] }),
          },
          {
            path: '/map3d',
            loader: contextLoader('map'),
            lazy: screen(screens.map3d, (m) => m.Map3dRoute),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.map3d', trail: ['menu.map', 'route.map3d'] }),
          },
          {
            path: '/fence',
            lazy: screen(screens.fence, (m) => m.FenceRoute),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.fence', trail: ['menu.map', 'route.fence'] }),
          },
          {
            path: '/media',
            loader: contextLoader('map'),
            lazy: screen(screens.media, (m) => m.MediaPage),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.media' }),
          },
          {
            path: '/instr',
            lazy: screen(screens.instr, (m) => m.InstrPage),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.instr' }),
          },
          {
            path: '/download',
            lazy: screen(screens.download, (m) => m.DownloadPage),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.download' }),
          },
          {
            path: '/notice',
            lazy: screen(screens.notice, (m) => m.NoticePage),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.notice' }),
          },
          {
            path: '/share',
            lazy: screen(screens.share, (m) => m.SharePage),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.share' }),
          },
          {
            path: '/qr-login',
            lazy: screen(screens.qrLogin, (m) => m.QrLoginPage),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.qrLogin' }),
          },
          {
            path: '*',
            lazy: screen(screens.notFound, (m) => m.NotFound),
            errorElement: <RouteError />,
            handle: handle({ nameKey: 'route.notFound' }),
          },
        ],
      },
    ],
  },
];
