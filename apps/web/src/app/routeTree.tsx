import { Navigate, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/LoginPage';
import { DevicePage } from '../features/device/DevicePage';
import { Map2dRoute } from '../features/map2d';
import { Map3dRoute } from '../features/map3d';
import { TrackPage } from '../features/track/TrackPage';
import { AppLayout } from './layout/AppLayout';
import { NotFound } from './NotFound';
import { RedirectHelper } from './RedirectHelper';
import { Root } from './Root';
import type { RouteHandle } from './routes';

const handle = (h: RouteHandle): RouteHandle => h;

/** The route table of §2.1 for the screens that exist today. */
export const routeTree: RouteObject[] = [
  {
    element: <Root />,
    children: [
      { path: '/login', element: <LoginPage />, handle: handle({ nameKey: 'route.login' }) },
      { path: '/login2', element: <LoginPage />, handle: handle({ nameKey: 'route.login' }) },
      { path: '/redirect/*', element: <RedirectHelper /> },
      {
        element: <AppLayout />,
        children: [
          { index: true, element: <Navigate to="/device" replace /> },
          { path: '/device', element: <DevicePage />, handle: handle({ nameKey: 'route.device' }) },
          { path: '/track', element: <TrackPage />, handle: handle({ nameKey: 'route.track' }) },
          { path: '/map2d', element: <Map2dRoute />, handle: handle({ nameKey: 'route.map2d', trail: ['menu.map', 'route.map2d'] }) },
          { path: '/map3d', element: <Map3dRoute />, handle: handle({ nameKey: 'route.map3d', trail: ['menu.map', 'route.map3d'] }) },
          { path: '*', element: <NotFound />, handle: handle({ nameKey: 'route.notFound' }) },
        ],
      },
    ],
  },
];
