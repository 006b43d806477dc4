import { lazy, Suspense } from 'react';
import { LoadingOverlay } from '../../components/LoadingOverlay';

/** The globe screen's code loads when it is first opened; CesiumJS itself only once the page asks for it. */
const Map3dPage = lazy(() => import('./Map3dPage'));

export function Map3dRoute() {
  return (
    <Suspense fallback={<LoadingOverlay />}>
      <Map3dPage />
    </Suspense>
  );
}
