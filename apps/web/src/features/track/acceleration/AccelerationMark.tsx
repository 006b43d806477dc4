import maplibregl from 'maplibre-gl';
import { useEffect, useMemo, useRef } from 'react';
import { useMap } from '../../../map/MapView';
import { positionAt, type TimedTrack } from './model';
import { useAccelerationMoment } from './markStore';

/**
 * A map overlay of /track: a mark where the animal was at the moment the acceleration panel points at
 * (the nearest fixes, interpolated by time); nothing when it points at none. Its screen position is kept
 * on the map's element (data-acc-mark="x,y") for tests and support.
 */
export function AccelerationMark({ track }: { track: TimedTrack | undefined }) {
  const map = useMap();
  const moment = useAccelerationMoment();
  const position = useMemo(() => (moment === null ? null : positionAt(track, moment)), [track, moment]);
  const marker = useRef<maplibregl.Marker | null>(null);

  useEffect(() => {
    const box = map.getContainer();
    if (!position) {
      marker.current?.remove();
      marker.current = null;
      delete box.dataset.accMark;
      return;
    }
    if (!marker.current) {
      const el = document.createElement('div');
      el.className = 'wt-acc-mark';
      el.dataset.testid = 'acceleration-mark';
      marker.current = new maplibregl.Marker({ element: el }).setLngLat([position.lon, position.lat]).addTo(map);
    } else marker.current.setLngLat([position.lon, position.lat]);
    const write = () => {
      const p = map.project([position.lon, position.lat]);
      box.dataset.accMark = `${Math.round(p.x)},${Math.round(p.y)}`;
    };
    write();
    map.on('moveend', write);
    return () => {
      map.off('moveend', write);
    };
  }, [map, position]);

  useEffect(
    () => () => {
      marker.current?.remove();
      marker.current = null;
    },
    [],
  );
  return null;
}
