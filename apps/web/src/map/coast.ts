import type { GeoJSONSource, Map as MapLibreMap } from 'maplibre-gl';
import type { Bbox, LandInView } from './coastIndex';
import { coarseLand, OFFLINE_COAST_SOURCE, OFFLINE_LAND_SOURCE } from './offlineStyle';

/** From this zoom on, the offline basemap draws Natural Earth's 1:10m coast (below it 1:110m shows as well). */
export const DETAIL_MIN_ZOOM = 5;
/** The most points of land handed to the map for one view (a continent's worth is left to the coarse land). */
const MAX_POINTS = 150_000;

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (answer: LandInView | null) => void>();

function coastWorker(): Worker {
  if (!worker) {
    worker = new Worker(new URL('./coast.worker.ts', import.meta.url), { type: 'module', name: 'coast-10m' });
    worker.onmessage = (event: MessageEvent<{ id: number; answer: LandInView | null }>) => {
      waiting.get(event.data.id)?.(event.data.answer);
      waiting.delete(event.data.id);
    };
    worker.onerror = () => {
      // The worker could not load (offline before its chunk was cached): the coarse land stays.
      for (const done of waiting.values()) done(null);
      waiting.clear();
      worker = null;
    };
  }
  return worker;
}

/** The 1:10m land and coast around `box`, read by the worker; null when that is too much land for one view. */
export function detailIn(box: Bbox): Promise<LandInView | null> {
  const id = ++nextId;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    coastWorker().postMessage({ id, box, maxPoints: MAX_POINTS });
  });
}

export const covers = (outer: Bbox, inner: Bbox): boolean => outer[0] <= inner[0] && outer[1] <= inner[1] && outer[2] >= inner[2] && outer[3] >= inner[3];

/**
 * Keeps the offline basemap's coast as detailed as the view needs: zoomed in (DETAIL_MIN_ZOOM), the land
 * and coast of Natural Earth 1:10m around the view (twice its size, so a pan stays inside), read from the
 * worker when the view comes to rest outside what was read; zoomed out, the coarse 1:110m world. The
 * coast drawn shows on the map's element (data-coast: 110m or 10m). Answers the function that stops it.
 */
export function followDetailedCoast(map: MapLibreMap, box: HTMLElement): () => void {
  let shown: Bbox | null = null;
  let asked = 0;
  let live = true;
  box.dataset.coast = '110m';
  const set = (land: GeoJSON.GeoJSON, coast: GeoJSON.GeoJSON): void => {
    map.getSource<GeoJSONSource>(OFFLINE_LAND_SOURCE)?.setData(land);
    map.getSource<GeoJSONSource>(OFFLINE_COAST_SOURCE)?.setData(coast);
  };
  const update = (): void => {
    if (map.getZoom() < DETAIL_MIN_ZOOM) {
      asked++;
      if (shown) {
        shown = null;
        set(coarseLand().land, coarseLand().coast);
        box.dataset.coast = '110m';
      }
      return;
    }
    const b = map.getBounds();
    const view: Bbox = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()];
    if (shown && covers(shown, view)) return;
    const w = view[2] - view[0];
    const h = view[3] - view[1];
    const wanted: Bbox = [view[0] - w / 2, Math.max(-90, view[1] - h / 2), view[2] + w / 2, Math.min(90, view[3] + h / 2)];
    const request = ++asked;
    void detailIn(wanted).then((answer) => {
      if (!live || request !== asked || !map.style) return;
      if (!answer) {
        // Too much land for one view: the coarse world serves it.
        if (shown) set(coarseLand().land, coarseLand().coast);
        shown = null;
        box.dataset.coast = '110m';
        return;
      }
      shown = wanted;
      set(answer.land, answer.coast);
      box.dataset.coast = '10m';
    });
  };
  update();
  map.on('moveend', update);
  return () => {
    live = false;
    map.off('moveend', update);
  };
}
