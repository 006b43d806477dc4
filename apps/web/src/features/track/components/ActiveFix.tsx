import { useEffect } from 'react';
import { useMap } from '../../../map/MapView';

interface Props {
  /** The chosen fix's position, if it has one on the track. */
  position: { lon: number; lat: number } | null;
  /** Set (a new object each time) when the table asks the map to show the chosen fix. */
  flyTo: { lon: number; lat: number } | null;
}

/**
 * An overlay that draws nothing: it brings a fix chosen in the table into view when it is not, and
 * keeps where the chosen fix is on screen on the map's element (data-active-point="x,y", for tests and
 * support; the ring itself is the tracks overlay's highlight).
 */
export function ActiveFix({ position, flyTo }: Props) {
  const map = useMap();

  useEffect(() => {
    if (!flyTo || !map.style) return;
    // A fix already in view (away from the edges) stays where it is: the ring shows it.
    const p = map.project([flyTo.lon, flyTo.lat]);
    const { width, height } = map.getContainer().getBoundingClientRect();
    const margin = 48;
    if (map.getZoom() >= 4 && p.x > margin && p.x < width - margin && p.y > margin && p.y < height - margin) return;
    map.flyTo({ center: [flyTo.lon, flyTo.lat], zoom: Math.max(map.getZoom(), 8), duration: 600, essential: true });
  }, [map, flyTo]);

  useEffect(() => {
    const box = map.getContainer();
    const write = (): void => {
      if (!position) {
        delete box.dataset.activePoint;
        return;
      }
      const p = map.project([position.lon, position.lat]);
      box.dataset.activePoint = `${Math.round(p.x)},${Math.round(p.y)}`;
    };
    write();
    map.on('moveend', write);
    map.on('resize', write);
    return () => {
      map.off('moveend', write);
      map.off('resize', write);
    };
  }, [map, position]);

  return null;
}
