import maplibregl, { type GeoJSONSource, type MapGeoJSONFeature, type MapMouseEvent } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceColor, type Rgb } from './deck/trackData';
import { fillCard } from './fixCard';
import { lastPositionsGeoJson, type DevicePosition } from './lastFix';
import { useMap } from './MapView';
import './map.css';

const SOURCE = 'last-positions';
const CLUSTERS = `${SOURCE}-clusters`;
/** The lowest of this overlay's map layers: tracks go beneath it, so positions and clusters stay on top. */
export const LAST_POSITIONS_LAYER = CLUSTERS;
const POINTS = `${SOURCE}-points`;

interface Props {
  /**
   * Where each device is: its last fix in the chosen range, or its fix at the replay clock
   * (positionsAt), so the marker and its name sit on the end of the track drawn.
   */
  positions: readonly DevicePosition[];
  colors?: ReadonlyMap<string, Rgb>;
  /** Show all positions whenever a different set arrives. Default true. */
  fit?: boolean;
  /** The user's time zone: the popup's time is shown in it. */
  zone: string;
}

/**
 * An overlay: each device's position, clustered when they crowd, with the device's name beside it (it
 * moves with the replay) and the fix in a popup on click. The names are HTML markers (the offline style
 * carries no glyphs, and there are only as many as devices chosen).
 */
export function LastPositions({ positions, colors, fit = true, zone }: Props) {
  const map = useMap();
  const { t } = useTranslation();
  const latest = useRef({ positions, t, zone });
  useEffect(() => {
    latest.current = { positions, t, zone };
  }, [positions, t, zone]);

  useEffect(() => {
    map.addSource(SOURCE, { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, cluster: true, clusterRadius: 40, clusterMaxZoom: 14 });
    map.addLayer({
      id: CLUSTERS,
      type: 'circle',
      source: SOURCE,
      filter: ['has', 'point_count'],
      paint: {
        'circle-color': '#0f766e',
        'circle-opacity': 0.85,
        'circle-radius': ['step', ['get', 'point_count'], 14, 10, 18, 50, 24],
        'circle-stroke-color': '#ffffff',
        'circle-stroke-width': 2,
      },
    });
    map.addLayer({
      id: POINTS,
      type: 'circle',
      source: SOURCE,
      filter: ['!', ['has', 'point_count']],
      paint: { 'circle-radius': 7, 'circle-color': ['get', 'color'], 'circle-stroke-color': '#ffffff', 'circle-stroke-width': 2 },
    });

    // Names beside single positions and counts on clusters, kept in step with what the source shows.
    const markers = new Map<string, maplibregl.Marker>();
    const sync = (): void => {
      if (!map.getSource(SOURCE) || !map.isSourceLoaded(SOURCE)) return;
      const seen = new Set<string>();
      for (const f of map.querySourceFeatures(SOURCE)) {
        const props = f.properties as { cluster?: boolean; cluster_id?: number; point_count?: number; imei?: string; caption?: string };
        const key = props.cluster ? `c${props.cluster_id}` : `p${props.imei}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const coordinates = (f.geometry as GeoJSON.Point).coordinates as [number, number];
        const text = props.cluster ? String(props.point_count) : (props.caption ?? '');
        const known = markers.get(key);
        if (known) {
          // A replay moves the device: its name goes with it.
          const at = known.getLngLat();
          if (at.lng !== coordinates[0] || at.lat !== coordinates[1]) known.setLngLat(coordinates);
          const el = known.getElement();
          if (el.textContent !== text) {
            el.textContent = text;
            el.setAttribute('aria-label', text);
          }
          continue;
        }
        const el = document.createElement('div');
        el.className = props.cluster ? 'wt-map-cluster-count' : 'wt-map-label';
        el.textContent = text;
        // MapLibre names a marker "Map marker" unless it has a name: the visible text is its name
        el.setAttribute('aria-label', text);
        if (!props.cluster) el.dataset.imei = props.imei ?? '';
        const marker = new maplibregl.Marker({ element: el, anchor: props.cluster ? 'center' : 'top', offset: props.cluster ? [0, 0] : [0, 9] })
          .setLngLat(coordinates)
          .addTo(map);
        markers.set(key, marker);
      }
      for (const [key, marker] of markers) {
        if (!seen.has(key)) {
          marker.remove();
          markers.delete(key);
        }
      }
    };
    map.on('render', sync);

    const popup = new maplibregl.Popup({ closeButton: true, maxWidth: '280px', className: 'wt-fix-popup' });
    let shown = 0;
    const onPoint = (e: MapMouseEvent & { features?: MapGeoJSONFeature[] }): void => {
      const imei = e.features?.[0]?.properties?.imei as string | undefined;
      const { positions: all, t: translate, zone: tz } = latest.current;
      const position = all.find((p) => p.imei === imei);
      if (!position) return;
      const click = ++shown;
      popup.setLngLat([position.lon, position.lat]).addTo(map);
      fillCard(popup, position, tz, translate, () => click === shown && popup.isOpen());
    };
    const onCluster = (e: MapMouseEvent & { features?: MapGeoJSONFeature[] }): void => {
      const feature = e.features?.[0];
      const id = feature?.properties?.cluster_id as number | undefined;
      if (!feature || id === undefined) return;
      void map
        .getSource<GeoJSONSource>(SOURCE)
        ?.getClusterExpansionZoom(id)
        .then((zoom) => map.easeTo({ center: (feature.geometry as GeoJSON.Point).coordinates as [number, number], zoom }));
    };
    const pointer = (): void => {
      map.getCanvas().style.cursor = 'pointer';
    };
    const unpointer = (): void => {
      map.getCanvas().style.cursor = '';
    };
    map.on('click', POINTS, onPoint);
    map.on('click', CLUSTERS, onCluster);
    for (const layer of [POINTS, CLUSTERS]) {
      map.on('mouseenter', layer, pointer);
      map.on('mouseleave', layer, unpointer);
    }
    return () => {
      map.off('render', sync);
      map.off('click', POINTS, onPoint);
      map.off('click', CLUSTERS, onCluster);
      for (const layer of [POINTS, CLUSTERS]) {
        map.off('mouseenter', layer, pointer);
        map.off('mouseleave', layer, unpointer);
      }
      popup.remove();
      for (const marker of markers.values()) marker.remove();
      // The map may be gone already (the view unmounts with its overlays).
      if (!map.style) return;
      if (map.getLayer(POINTS)) map.removeLayer(POINTS);
      if (map.getLayer(CLUSTERS)) map.removeLayer(CLUSTERS);
      if (map.getSource(SOURCE)) map.removeSource(SOURCE);
    };
  }, [map]);

  const fitted = useRef<string | null>(null);
  useEffect(() => {
    if (!map.style) return;
    const data = lastPositionsGeoJson(positions, (imei, i) => colors?.get(imei) ?? deviceColor(i));
    map.getSource<GeoJSONSource>(SOURCE)?.setData(data);
    // Where the markers are shows on the map's element (tests and support read it).
    map.getContainer().dataset.positions = positions.map((p) => `${p.imei}@${p.time}:${p.lon},${p.lat}`).join(';');
    const set = positions.map((p) => p.imei).join(',');
    if (!fit || fitted.current === set || data.features.length === 0) return;
    fitted.current = set;
    const bounds = new maplibregl.LngLatBounds();
    for (const f of data.features) bounds.extend(f.geometry.coordinates as [number, number]);
    map.fitBounds(bounds, { padding: 64, maxZoom: 10, duration: 0 });
  }, [map, positions, colors, fit]);

  return null;
}
