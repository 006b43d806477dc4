import { Spin } from 'antd';
import { lazy, Suspense } from 'react';

/** The 2D map's code (MapLibre, deck.gl) loads when the screen is first opened. */
const Map2dPage = lazy(() => import('./Map2dPage'));

export function Map2dRoute() {
  return (
    <Suspense fallback={<Spin className="wt-page-spin" />}>
      <Map2dPage />
    </Suspense>
  );
}
