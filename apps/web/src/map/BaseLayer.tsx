import maplibregl, { type MapDataEvent, type Map as MapLibreMap } from 'maplibre-gl';
import { useEffect } from 'react';
import { TILE_WAIT_BEFORE_FALLBACK_MS, tileVerdict, type RasterTiles, type ResolvedBaseLayer, type TileHealth } from './layers';
import { useMap } from './MapView';
import { useDrawnBaseLayer } from './useBaseLayer';
import { OFFLINE_LAYER_IDS } from './offlineStyle';

const PREFIX = 'base-';

/** Raster layers go right above the offline basemap and below every overlay, whenever they are added. */
function firstOverlayLayer(map: MapLibreMap): string | undefined {
  return map.getStyle().layers.find((l) => !OFFLINE_LAYER_IDS.includes(l.id) && !l.id.startsWith(PREFIX))?.id;
}

interface Props {
  layer: ResolvedBaseLayer;
  /** The layer's tiles can't be had: the page shows the offline basemap and says so. */
  onFallback: () => void;
}

/**
 * An overlay: the chosen tile layer over the offline basemap, which stays underneath (it is the map's own
 * style), so a map whose tiles fail still shows land and sea. Tile loads and errors are watched until the
 * first tile arrives; if none does (tileVerdict), the rasters are taken off and `onFallback` is called.
 */
export function BaseLayer({ layer, onFallback }: Props) {
  const map = useMap();
  const { signature, drawn, fallback } = useDrawnBaseLayer(layer, onFallback);

  useEffect(() => {
    // What the map draws shows on its element (tests and support read it).
    map.getContainer().dataset.baseLayer = drawn;
  }, [map, drawn]);

  useEffect(() => {
    if (!signature) return;
    const rasters = JSON.parse(signature) as RasterTiles[];
    const ids = rasters.map((r) => PREFIX + r.id);
    const before = firstOverlayLayer(map);
    for (const r of rasters) {
      const id = PREFIX + r.id;
      map.addSource(id, { type: 'raster', tiles: r.tiles, tileSize: 256, maxzoom: r.maxZoom, attribution: r.attribution });
      map.addLayer({ id, type: 'raster', source: id }, before);
    }
    const attribution = new maplibregl.AttributionControl({ compact: true });
    map.addControl(attribution, 'bottom-right');

    const health: TileHealth = { loaded: 0, errors: 0, elapsedMs: 0 };
    const started = performance.now();
    let settled = false;
    const remove = (): void => {
      // The map may be gone already (the view unmounts with its overlays).
      if (!map.style) return;
      for (const id of ids) {
        if (map.getLayer(id)) map.removeLayer(id);
        if (map.getSource(id)) map.removeSource(id);
      }
      if (map.hasControl(attribution)) map.removeControl(attribution);
    };
    const judge = (): void => {
      if (settled) return;
      health.elapsedMs = performance.now() - started;
      const verdict = tileVerdict(health);
      if (verdict === 'waiting') return;
      settled = true;
      clearTimeout(timer);
      if (verdict === 'fallback') {
        remove();
        fallback.current();
      }
    };
    const onData = (e: MapDataEvent & { sourceId?: string; tile?: unknown }): void => {
      if (e.dataType === 'source' && e.tile && e.sourceId && ids.includes(e.sourceId)) {
        health.loaded += 1;
        judge();
      }
    };
    const onError = (e: { sourceId?: string }): void => {
      if (e.sourceId && ids.includes(e.sourceId)) {
        health.errors += 1;
        judge();
      }
    };
    map.on('sourcedata', onData);
    map.on('error', onError);
    const timer = setTimeout(judge, TILE_WAIT_BEFORE_FALLBACK_MS + 50);
    return () => {
      clearTimeout(timer);
      map.off('sourcedata', onData);
      map.off('error', onError);
      remove();
    };
  }, [map, signature, fallback]);

  return null;
}
