import type { GeoJSONSource, MapMouseEvent } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { useMap } from './MapView';

const SOURCE = 'picked-point';

interface Props {
  lon: number | null;
  lat: number | null;
  /** Called with the clicked position; absent when the point can't be changed. */
  onPick?: ((lon: number, lat: number) => void) | undefined;
}

/** An overlay: one point (e.g. a release point) drawn as a circle, moved by a click when editable. */
export function PointPicker({ lon, lat, onPick }: Props) {
  const map = useMap();
  const pick = useRef(onPick);
  useEffect(() => {
    pick.current = onPick;
  }, [onPick]);

  useEffect(() => {
    map.addSource(SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] } });
    map.addLayer({
      id: `${SOURCE}-halo`,
      type: 'circle',
      source: SOURCE,
      paint: { 'circle-radius': 11, 'circle-color': '#0f766e', 'circle-opacity': 0.18 },
    });
    map.addLayer({
      id: SOURCE,
      type: 'circle',
      source: SOURCE,
      paint: { 'circle-radius': 5.5, 'circle-color': '#0f766e', 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2 },
    });
    const onClick = (e: MapMouseEvent): void => pick.current?.(Number(e.lngLat.lng.toFixed(6)), Number(e.lngLat.lat.toFixed(6)));
    map.on('click', onClick);
    return () => {
      map.off('click', onClick);
      // The map may be gone already (the view unmounts with its overlays): nothing left to remove then.
      if (!map.style) return;
      if (map.getLayer(SOURCE)) map.removeLayer(SOURCE);
      if (map.getLayer(`${SOURCE}-halo`)) map.removeLayer(`${SOURCE}-halo`);
      if (map.getSource(SOURCE)) map.removeSource(SOURCE);
    };
  }, [map]);

  useEffect(() => {
    if (!map.style) return;
    const source = map.getSource<GeoJSONSource>(SOURCE);
    const has = lon !== null && lat !== null && Number.isFinite(lon) && Number.isFinite(lat);
    source?.setData({
      type: 'FeatureCollection',
      features: has ? [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [lon, lat] } }] : [],
    });
    if (has) map.easeTo({ center: [lon, lat], zoom: Math.max(map.getZoom(), 3), duration: 300 });
  }, [map, lon, lat]);

  useEffect(() => {
    if (!map.style) return;
    map.getCanvas().style.cursor = onPick ? 'crosshair' : '';
  }, [map, onPick]);

  return null;
}
