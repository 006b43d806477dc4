import type { GeoJSONSource, MapLayerMouseEvent } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { useMap } from '../../../map/MapView';
import { closedRing, shapeBounds, type FenceShape } from '../geometry';

export interface DrawnFence {
  id: string;
  name: string;
  shape: FenceShape;
  enabled: boolean;
}

const SOURCE = 'fences';
const FILL = 'fences-fill';
const LINE = 'fences-line';

interface Props {
  fences: readonly DrawnFence[];
  /** The fence being edited is left to the drawing tool (not drawn twice). */
  hiddenId: string | null;
  selectedId: string | null;
  onPick: (id: string) => void;
  /** The list has been read: the view is fitted to the fences then, once (not again when one is added). */
  ready: boolean;
}

/**
 * The organisation's fences on the fence map: each as a tinted area with its outline (a disabled one grey; the
 * offline basemap has no glyphs, so names are in the list beside the map), the chosen one stronger. A click on one picks it. Renders nothing.
 */
export function FenceLayer({ fences, hiddenId, selectedId, onPick, ready }: Props) {
  const map = useMap();
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  });
  const fitted = useRef(false);

  useEffect(() => {
    map.addSource(SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({
      id: FILL,
      type: 'fill',
      source: SOURCE,
      paint: {
        'fill-color': ['case', ['get', 'enabled'], '#1677ff', '#8c8c8c'],
        'fill-opacity': ['case', ['get', 'selected'], 0.3, 0.12],
      },
    });
    map.addLayer({
      id: LINE,
      type: 'line',
      source: SOURCE,
      paint: {
        'line-color': ['case', ['get', 'enabled'], '#1677ff', '#8c8c8c'],
        'line-width': ['case', ['get', 'selected'], 3, 1.5],
      },
    });
    const onClick = (e: MapLayerMouseEvent) => {
      const id = e.features?.[0]?.properties?.id;
      if (typeof id === 'string') pick.current(id);
    };
    const enter = () => (map.getCanvas().style.cursor = 'pointer');
    const leave = () => (map.getCanvas().style.cursor = '');
    map.on('click', FILL, onClick);
    map.on('mouseenter', FILL, enter);
    map.on('mouseleave', FILL, leave);
    return () => {
      map.off('click', FILL, onClick);
      map.off('mouseenter', FILL, enter);
      map.off('mouseleave', FILL, leave);
      for (const id of [LINE, FILL]) if (map.getLayer(id)) map.removeLayer(id);
      if (map.getSource(SOURCE)) map.removeSource(SOURCE);
    };
  }, [map]);

  useEffect(() => {
    const source = map.getSource(SOURCE) as GeoJSONSource | undefined;
    source?.setData({
      type: 'FeatureCollection',
      features: fences
        .filter((f) => f.id !== hiddenId)
        .map((f) => ({
          type: 'Feature' as const,
          properties: { id: f.id, name: f.name, enabled: f.enabled, selected: f.id === selectedId },
          geometry: { type: 'Polygon' as const, coordinates: [closedRing(f.shape).map((p) => [p[0], p[1]])] },
        })),
    });
    map.getContainer().dataset.fences = String(fences.length);
    if (ready && !fitted.current) {
      fitted.current = true;
      if (fences.length === 0) return;
      const b = fences.map((f) => shapeBounds(f.shape)).reduce((a, c) => [Math.min(a[0], c[0]), Math.min(a[1], c[1]), Math.max(a[2], c[2]), Math.max(a[3], c[3])]);
      map.fitBounds(b, { padding: 60, maxZoom: 14, duration: 0 });
    }
  }, [map, fences, hiddenId, selectedId, ready]);

  return null;
}
