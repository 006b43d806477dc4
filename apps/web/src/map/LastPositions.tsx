import type { Fix } from '@wildtrack/contract';
import maplibregl, { type GeoJSONSource, type MapGeoJSONFeature, type MapMouseEvent } from 'maplibre-gl';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { deviceColor, type Rgb } from './deck/trackData';
import { fixPosition, gradeLetter, lastPositionsGeoJson } from './lastFix';
import { useMap } from './MapView';
import './map.css';

const SOURCE = 'last-positions';
const CLUSTERS = `${SOURCE}-clusters`;
/** The lowest of this overlay's map layers: tracks go beneath it, so positions and clusters stay on top. */
export const LAST_POSITIONS_LAYER = CLUSTERS;
const POINTS = `${SOURCE}-points`;

interface Props {
  /** The latest fix of each device (GetLastList). */
  fixes: readonly Fix[];
  colors?: ReadonlyMap<string, Rgb>;
  /** Show all positions whenever a different set arrives. Default true. */
  fit?: boolean;
}

/**
 * An overlay: each device's last position, clustered when they crowd, with the device's name beside it
 * and its latest fix in a popup on click. The names are HTML markers (the offline style carries no
 * glyphs, and there are only as many as devices chosen).
 */
export function LastPositions({ fixes, colors, fit = true }: Props) {
  const map = useMap();
  const { t } = useTranslation();
  const fixesRef = useRef(fixes);
  const tRef = useRef(t);
  useEffect(() => {
    fixesRef.current = fixes;
    tRef.current = t;
  }, [fixes, t]);

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
        if (markers.has(key)) continue;
        const el = document.createElement('div');
        el.className = props.cluster ? 'wt-map-cluster-count' : 'wt-map-label';
        el.textContent = props.cluster ? String(props.point_count) : (props.caption ?? '');
        if (!props.cluster) el.dataset.imei = props.imei ?? '';
        const coordinates = (f.geometry as GeoJSON.Point).coordinates as [number, number];
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
    const onPoint = (e: MapMouseEvent & { features?: MapGeoJSONFeature[] }): void => {
      const imei = e.features?.[0]?.properties?.imei as string | undefined;
      const fix = fixesRef.current.find((f) => f.IMEI === imei);
      const position = fix ? fixPosition(fix) : null;
      if (!fix || !position) return;
      popup.setLngLat(position).setDOMContent(fixCard(fix, tRef.current)).addTo(map);
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

  const fitted = useRef<readonly Fix[] | null>(null);
  useEffect(() => {
    if (!map.style) return;
    const data = lastPositionsGeoJson(fixes, (imei, i) => colors?.get(imei) ?? deviceColor(i));
    map.getSource<GeoJSONSource>(SOURCE)?.setData(data);
    if (!fit || fitted.current === fixes || data.features.length === 0) return;
    fitted.current = fixes;
    const bounds = new maplibregl.LngLatBounds();
    for (const f of data.features) bounds.extend(f.geometry.coordinates as [number, number]);
    map.fitBounds(bounds, { padding: 64, maxZoom: 10, duration: 0 });
  }, [map, fixes, colors, fit]);

  return null;
}

/** The popup's content, built as DOM text (never HTML from data). */
function fixCard(fix: Fix, t: (key: string, params?: Record<string, unknown>) => string): HTMLElement {
  const card = document.createElement('div');
  card.className = 'wt-fix-card';
  card.dataset.imei = fix.IMEI;
  const title = document.createElement('div');
  title.className = 'wt-fix-card-title';
  title.textContent = fix.Caption && fix.Caption !== fix.IMEI ? `${fix.Caption} (${fix.IMEI})` : fix.IMEI;
  card.append(title);
  const dash = '—';
  const num = (v: number | null, unit: string, digits = 1): string => (v === null || !Number.isFinite(v) ? dash : `${v.toFixed(digits)} ${unit}`);
  const rows: [string, string][] = [
    [t('map.fix.time'), fix.PickTime || dash],
    [t('map.fix.position'), fix.Longitude === null || fix.Latitude === null ? dash : `${fix.Longitude.toFixed(6)}°${fix.LongitudeTag} ${fix.Latitude.toFixed(6)}°${fix.LatitudeTag}`],
    [t('map.fix.speed'), num(fix.Speed, 'km/h')],
    [t('map.fix.altitude'), num(fix.Altitude, 'm', 0)],
    [t('map.fix.voltage'), num(fix.Voltage, 'V', 2)],
    [t('map.fix.grade'), gradeLetter(fix.PrecisionGrade) || dash],
  ];
  const list = document.createElement('dl');
  for (const [label, value] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = label;
    const dd = document.createElement('dd');
    dd.textContent = value;
    list.append(dt, dd);
  }
  card.append(list);
  return card;
}
