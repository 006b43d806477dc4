import maplibregl, { type Map as MapLibreMap } from 'maplibre-gl';
import 'maplibre-gl/dist/maplibre-gl.css';
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { MAP_DEFAULT_CENTER, MAP_DEFAULT_ZOOM, MAP_ZOOM_MAX, MAP_ZOOM_MIN } from '@wildtrack/contract';
import { useTranslation } from 'react-i18next';
import { followDetailedCoast } from './coast';
import { mapLocale, nameMapControls } from './controlNames';
import { offlineStyle } from './offlineStyle';
import './map.css';

/**
 * The one map view (CONVENTIONS 10): it owns the MapLibre map; overlays are children that add their own
 * sources and layers through `useMap()` and render nothing.
 */
const MapContext = createContext<MapLibreMap | null>(null);

/** MapLibre draws with WebGL; without it the view shows its fallback instead of a broken canvas. */
function webglAvailable(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return !!(canvas.getContext('webgl2') ?? canvas.getContext('webgl'));
  } catch {
    return false;
  }
}

export function useMap(): MapLibreMap {
  const map = useContext(MapContext);
  if (!map) throw new Error('useMap() outside a <MapView>');
  return map;
}

interface Props {
  center?: readonly [number, number];
  zoom?: number;
  /** §9 allows zoom 1-19; a small map (a release point in a dialog) may show the world smaller. */
  minZoom?: number;
  className?: string;
  /** Shown instead of the map when the browser can't draw one (no WebGL). */
  fallback: ReactNode;
  children?: ReactNode;
}

export function MapView({ center = MAP_DEFAULT_CENTER, zoom = MAP_DEFAULT_ZOOM, minZoom = MAP_ZOOM_MIN - 1, className, fallback, children }: Props) {
  const container = useRef<HTMLDivElement | null>(null);
  const [map, setMap] = useState<MapLibreMap | null>(null);
  const [failed] = useState(() => !webglAvailable());
  const initial = useRef({ center, zoom, minZoom });
  const { t, i18n } = useTranslation();
  // The language the map is made in; a later one is applied by nameMapControls below.
  const names = useRef(t);

  useEffect(() => {
    if (!container.current || failed) return;
    const instance = new maplibregl.Map({
        container: container.current,
        style: offlineStyle(),
        center: [initial.current.center[0], initial.current.center[1]],
        zoom: initial.current.zoom,
        minZoom: initial.current.minZoom,
        maxZoom: MAP_ZOOM_MAX,
        attributionControl: false,
        dragRotate: false,
        pitchWithRotate: false,
        locale: mapLocale(names.current),
    });
    instance.addControl(new maplibregl.NavigationControl({ showCompass: false }), 'top-right');
    // Every map has a scale bar (metric, as the fixes' distances and speeds are).
    instance.addControl(new maplibregl.ScaleControl({ unit: 'metric', maxWidth: 120 }), 'bottom-right');
    // The state shows on the element (tests and support read it): loading, ready, or the last error.
    const box = container.current;
    box.dataset.state = 'loading';
    let stopCoast = (): void => {};
    instance.on('load', () => {
      box.dataset.state = 'ready';
      setMap(instance);
      // Zoomed in, the offline basemap's coast is Natural Earth 1:10m (read by view in a worker).
      stopCoast = followDetailedCoast(instance, box);
    });
    // Whether the view is moving (a zoom, a flight) and the zoom it last came to rest at.
    const rest = (): void => {
      box.dataset.moving = '0';
      box.dataset.zoom = instance.getZoom().toFixed(2);
    };
    rest();
    instance.on('movestart', () => (box.dataset.moving = '1'));
    instance.on('moveend', rest);
    instance.on('error', (e: { error?: Error }) => {
      box.dataset.error = e.error?.message ?? 'map error';
    });
    return () => {
      stopCoast();
      setMap(null);
      instance.remove();
    };
  }, [failed]);

  // MapLibre's buttons named in the interface language, again when it changes.
  useEffect(() => {
    if (map) nameMapControls(map, t);
  }, [map, t, i18n.language]);

  if (failed) return <div className={className}>{fallback}</div>;
  return (
    <div className={className} ref={container} data-testid="map">
      {map ? <MapContext.Provider value={map}>{children}</MapContext.Provider> : null}
    </div>
  );
}
