/**
 * The console's lazily loaded code, one loader per route. The router calls a loader when its route is
 * first opened; after sign-in the shell calls them all while the browser is idle (prefetchScreens), so a
 * dropped connection later costs no screen: a module once loaded is never fetched again.
 */
export const screens = {
  layout: () => import('./layout/AppLayout'),
  device: () => import('../features/device/DevicePage'),
  track: () => import('../features/track/TrackPage'),
  map2d: () => import('../features/map2d'),
  map3d: () => import('../features/map3d'),
  // the maps' own code, which their routes load inside the screen (MapLibre, deck.gl, CesiumJS)
  map2dPage: () => import('../features/map2d/Map2dPage'),
  map3dPage: () => import('../features/map3d/Map3dPage'),
  notFound: () => import('./NotFound'),
};

type IdleWindow = Window & {
  requestIdleCallback?: (cb: () => void, opts?: { timeout: number }) => number;
  cancelIdleCallback?: (id: number) => void;
};

/**
 * Loads every screen's code one after another when the browser is idle (at the latest after `timeoutMs`).
 * Returns a cancel function. A failed load is left for the route to meet (its error page offers Retry).
 */
export function prefetchScreens(timeoutMs = 2000): () => void {
  const w = window as IdleWindow;
  let cancelled = false;
  const loaders = Object.values(screens);
  const next = (i: number): void => {
    if (cancelled || i >= loaders.length) return;
    loaders[i]!().then(
      () => schedule(i + 1),
      () => undefined,
    );
  };
  let handle: number | undefined;
  const schedule = (i: number): void => {
    if (cancelled) return;
    handle = w.requestIdleCallback ? w.requestIdleCallback(() => next(i), { timeout: timeoutMs }) : window.setTimeout(() => next(i), 200);
  };
  schedule(0);
  return () => {
    cancelled = true;
    if (handle !== undefined) (w.cancelIdleCallback ?? window.clearTimeout)(handle);
  };
}
