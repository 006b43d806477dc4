import { Spin } from 'antd';
import { lazy, Suspense } from 'react';

/** The fence screen's code (MapLibre, terra-draw) loads when the screen is first opened. */
const FencePage = lazy(() => import('./FencePage').then((m) => ({ default: m.FencePage })));

export function FenceRoute() {
  return (
    <Suspense fallback={<Spin className="wt-page-spin" />}>
      <FencePage />
    </Suspense>
  );
}
