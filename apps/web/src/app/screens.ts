import { getLang, loadLanguage } from '../i18n';

/**
 * A screen's code together with all of the page language's texts: /login's first load has only the
 * signed-out pages' texts (i18n/parts.ts), and a signed-in screen renders once the rest is here.
 */
const withTexts =
  <T>(load: () => Promise<T>) =>
  (): Promise<T> =>
    Promise.all([load(), loadLanguage(getLang())]).then(([module]) => module);

/**
 * The console's lazily loaded code, one loader per route. The router calls a loader when its route is
 * first opened; after sign-in the shell calls them all while the browser is idle (prefetchScreens), so a
 * dropped connection later costs no screen: a module once loaded is never fetched again.
 */
export const screens = {
  layout: withTexts(() => import('./layout/AppLayout')),
  device: withTexts(() => import('../features/device/DevicePage')),
  track: withTexts(() => import('../features/track/TrackPage')),
  map2d: withTexts(() => import('../features/map2d')),
  map3d: withTexts(() => import('../features/map3d')),
  media: withTexts(() => import('../features/media/MediaPage')),
  instr: withTexts(() => import('../features/instr/InstrPage')),
  download: withTexts(() => import('../features/download/DownloadPage')),
  notice: withTexts(() => import('../features/notice/NoticePage')),
  share: withTexts(() => import('../features/share/SharePage')),
  fence: withTexts(() => import('../features/fence')),
  // the maps' own code, which their routes load inside the screen (MapLibre, deck.gl, CesiumJS)
  map2dPage: withTexts(() => import('../features/map2d/Map2dPage')),
  map3dPage: withTexts(() => import('../features/map3d/Map3dPage')),
  fencePage: withTexts(() => import('../features/fence/FencePage')),
  qrLogin: withTexts(() => import('../features/qr-login/QrLoginPage')),
  notFound: withTexts(() => import('./NotFound')),
  // what screens load inside themselves when a part of them opens: /track's map (its positions and the
  // acceleration panel), the acceleration panel, the animal info's release map. Offline after sign-in,
  // /track met the error page once its map became a chunk of its own.
  trackMap: () => import('../features/track/components/TrackMap'),
  accelerationPanel: () => import('../features/track/acceleration/AccelerationPanel'),
  releaseMap: () => import('../features/device/components/ReleaseMap'),
  // not a screen: the other language's texts, so that a language switch works offline too
  otherLanguage: () => loadLanguage(getLang() === 'zh' ? 'en' : 'zh'),
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
    if (cancelled) return;
    if (i >= loaders.length) {
      // every screen's code is here: said on the page (a browser spec waits for it before the Wi-Fi drops)
      document.documentElement.dataset.screens = 'loaded';
      return;
    }
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
