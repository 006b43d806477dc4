import { Cartesian2, Cartographic, EllipsoidGeodesic, Math as CesiumMath } from 'cesium';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { niceDistance } from '../scale';
import { useGlobe } from './GlobeView';

/** The widest the bar may be, in CSS pixels (the 2D map's ScaleControl uses 120). */
const MAX_WIDTH = 120;

/**
 * An overlay: the globe's distance legend (CesiumJS ships none), a bar of a round distance measured on
 * the ellipsoid across the bottom of the view, like the 2D map's scale bar. Hidden when the view's
 * bottom is off the globe (the whole Earth in view). It also says on the globe's element where the view
 * is centred (data-center: longitude,latitude), for tests and support.
 */
export function GlobeScale() {
  const globe = useGlobe();
  const { t } = useTranslation();

  useEffect(() => {
    const box = globe.container as HTMLElement;
    const scale = document.createElement('div');
    scale.className = 'wt-globe-scale';
    scale.dataset.testid = 'globe-scale';
    scale.hidden = true;
    const bar = document.createElement('div');
    bar.className = 'wt-globe-scale-bar';
    scale.append(bar);
    box.append(scale);
    const scene = globe.scene;
    const ellipsoid = scene.globe.ellipsoid;
    const geodesic = new EllipsoidGeodesic(undefined, undefined, ellipsoid);
    const at = (x: number, y: number): Cartographic | undefined => {
      const cartesian = globe.camera.pickEllipsoid(new Cartesian2(x, y), ellipsoid);
      return cartesian ? Cartographic.fromCartesian(cartesian, ellipsoid) : undefined;
    };
    const update = (): void => {
      const canvas = scene.canvas;
      const width = canvas.clientWidth;
      const height = canvas.clientHeight;
      const centre = at(width / 2, height / 2);
      if (centre) box.dataset.center = `${CesiumMath.toDegrees(centre.longitude).toFixed(4)},${CesiumMath.toDegrees(centre.latitude).toFixed(4)}`;
      else delete box.dataset.center;
      // Across a stretch of the bottom middle of the view, where the bar sits.
      const y = height - 20;
      const left = at(width / 2 - 50, y);
      const right = at(width / 2 + 50, y);
      if (!left || !right) {
        scale.hidden = true;
        return;
      }
      geodesic.setEndPoints(left, right);
      const perPixel = geodesic.surfaceDistance / 100;
      const nice = niceDistance(perPixel * MAX_WIDTH);
      if (!nice) {
        scale.hidden = true;
        return;
      }
      scale.hidden = false;
      const px = Math.round(nice.metres / perPixel);
      if (bar.style.width !== `${px}px`) bar.style.width = `${px}px`;
      if (bar.textContent !== nice.label) bar.textContent = nice.label;
      scale.dataset.metres = String(nice.metres);
    };
    scene.postRender.addEventListener(update);
    scene.requestRender();
    return () => {
      scene.postRender.removeEventListener(update);
      scale.remove();
    };
  }, [globe]);

  useEffect(() => {
    const scale = (globe.container as HTMLElement).querySelector<HTMLElement>('.wt-globe-scale');
    scale?.setAttribute('aria-label', t('map.view.scale'));
    scale?.setAttribute('title', t('map.view.scale'));
  }, [globe, t]);

  return null;
}
