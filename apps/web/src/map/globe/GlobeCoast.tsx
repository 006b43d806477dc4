import { Cartesian3, Color, Material, Math as CesiumMath, PolylineCollection } from 'cesium';
import { useEffect } from 'react';
import { covers, detailIn } from '../coast';
import type { Bbox } from '../coastIndex';
import { useGlobe } from './GlobeView';

/**
 * Beyond this width of the view (degrees of longitude or latitude) the globe's own imagery is the coast:
 * about the 2D map's DETAIL_MIN_ZOOM (zoom 5 spans ~60° across a laptop screen).
 */
const DETAIL_MAX_DEGREES = 60;
const COAST_COLOR = Color.fromCssColorString('#3f3a2e').withAlpha(0.85);
const COAST_WIDTH = 1.5;

/**
 * An overlay for the offline globe: Natural Earth's 1:10m coastline over the bundled imagery, whose
 * 1:110m-like texture (levels 0-2) puts a coastal track kilometres inland or out at sea once zoomed in.
 * The same worker and data as the 2D map's offline basemap (coast.ts): the coast around the view (twice
 * its size) is read when the camera comes to rest outside what was read. Drawn only while the offline
 * imagery is what the globe shows (`active`); an online layer has its own coast. The globe's element
 * says which coast is drawn (data-coast: imagery or 10m), for tests and support.
 */
export function GlobeCoast({ active }: { active: boolean }) {
  const globe = useGlobe();

  useEffect(() => {
    // inactive: nothing drawn (the cleanup of an active run took its lines and data-coast away)
    if (!active) return;
    const box = globe.container as HTMLElement;
    const scene = globe.scene;
    const camera = globe.camera;
    const lines = new PolylineCollection();
    scene.primitives.add(lines);
    const material = Material.fromType('Color', { color: COAST_COLOR });
    let shown: Bbox | null = null;
    let asked = 0;
    let live = true;
    box.setAttribute('data-coast', 'imagery');

    const clear = (): void => {
      if (shown) {
        lines.removeAll();
        shown = null;
        scene.requestRender();
      }
      box.setAttribute('data-coast', 'imagery');
    };
    const draw = (coast: GeoJSON.FeatureCollection<GeoJSON.MultiLineString>): void => {
      lines.removeAll();
      for (const feature of coast.features) {
        for (const line of feature.geometry.coordinates) {
          if (line.length < 2) continue;
          lines.add({ positions: Cartesian3.fromDegreesArray(line.flatMap(([lon, lat]) => [lon!, lat!])), width: COAST_WIDTH, material });
        }
      }
      scene.requestRender();
    };
    const update = (): void => {
      const rect = camera.computeViewRectangle(scene.globe.ellipsoid);
      const view: Bbox | null = rect
        ? [CesiumMath.toDegrees(rect.west), CesiumMath.toDegrees(rect.south), CesiumMath.toDegrees(rect.east), CesiumMath.toDegrees(rect.north)]
        : null;
      // The whole Earth, a view across the antimeridian or a continent: the imagery serves.
      if (!view || view[0] > view[2] || view[2] - view[0] > DETAIL_MAX_DEGREES || view[3] - view[1] > DETAIL_MAX_DEGREES) {
        asked++;
        clear();
        return;
      }
      if (shown && covers(shown, view)) return;
      const w = view[2] - view[0];
      const h = view[3] - view[1];
      const wanted: Bbox = [Math.max(-180, view[0] - w / 2), Math.max(-90, view[1] - h / 2), Math.min(180, view[2] + w / 2), Math.min(90, view[3] + h / 2)];
      const request = ++asked;
      void detailIn(wanted).then((answer) => {
        if (!live || request !== asked || globe.isDestroyed()) return;
        if (!answer) {
          clear();
          return;
        }
        draw(answer.coast);
        shown = wanted;
        box.setAttribute('data-coast', '10m');
      });
    };
    camera.moveEnd.addEventListener(update);
    update();
    return () => {
      live = false;
      camera.moveEnd.removeEventListener(update);
      if (!globe.isDestroyed()) scene.primitives.remove(lines);
      box.removeAttribute('data-coast');
    };
  }, [globe, active]);

  return null;
}
