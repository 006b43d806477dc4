import { ScreenSpaceEventHandler, ScreenSpaceEventType, type Cartesian2 } from 'cesium';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { fillCard } from '../fixCard';
import type { DevicePosition } from '../lastFix';
import { useGlobe } from './GlobeView';
import { GlobePopup } from './globePopup';
import type { TrackLine } from './trackLine';
import { TrackLayer } from './trackLayer';

interface Props {
  /** The tracks as the globe draws them (trackLine: valid fixes, heights). */
  lines: readonly TrackLine[];
  /** CSS colour of a device's line and marker (by IMEI, or its place in `lines`). */
  colorOf: (imei: string, index: number) => string;
  /** The replay time (epoch ms): each device's marker is at its fix then; null puts it at its last fix. */
  time: number | null;
  /** Heights are drawn this many times their value. */
  exaggeration?: number;
  /** The camera frames the tracks again whenever this changes (a new selection or time range). */
  fitKey?: string;
  /** The camera frames the tracks again whenever this number changes (the fit button). */
  fitRequest?: number;
  /** Keep the markers in view as the replay moves them. */
  follow?: boolean;
  /** A device's name, for its marker's popup. */
  captionOf?: (imei: string) => string | undefined;
  /** The user's time zone: the popup's time is shown in it. */
  zone?: string;
}

/**
 * The tracks overlay of the globe (see TrackLayer): one line per device at its fixes' altitudes, a marker
 * per device at the replay time, and the 2D map's popup on a marker's click. Renders nothing. Its
 * primitives are made when the overlay shows and destroyed when it is hidden or unmounted; the lines are
 * rebuilt only when the tracks change, the markers moved at every replay step.
 */
export function GlobeTracks({ lines, colorOf, time, exaggeration = 1, fitKey, fitRequest = 0, follow = false, captionOf, zone = '+00:00' }: Props) {
  const globe = useGlobe();
  const { t } = useTranslation();
  const layer = useRef<TrackLayer | null>(null);
  const framed = useRef<string | undefined>(undefined);
  const latest = useRef({ t, zone, captionOf });
  useEffect(() => {
    latest.current = { t, zone, captionOf };
  }, [t, zone, captionOf]);

  useEffect(() => {
    const made = new TrackLayer(globe);
    layer.current = made;
    // A marker's click opens the same card as on the 2D map.
    const popup = new GlobePopup(globe, latest.current.t('common.close'));
    const handler = new ScreenSpaceEventHandler(globe.scene.canvas as HTMLCanvasElement);
    let shown = 0;
    handler.setInputAction((click: { position: Cartesian2 }) => {
      const picked = globe.scene.pick(click.position) as { id?: unknown } | undefined;
      const imei = typeof picked?.id === 'string' ? picked.id : null;
      const marker = imei ? made.markerOf(imei) : null;
      if (!imei || !marker) return;
      const { line, index, position } = marker;
      const { t: translate, zone: tz, captionOf: caption } = latest.current;
      const at: DevicePosition = {
        imei,
        caption: caption?.(imei) || imei,
        lon: line.coords[index * 3]!,
        lat: line.coords[index * 3 + 1]!,
        time: line.times[index]!,
        alt: line.hasAlt[index] ? line.coords[index * 3 + 2]! : null,
        grade: 0,
      };
      const current = ++shown;
      popup.open(position);
      fillCard(popup, at, tz, translate, () => current === shown && popup.isOpen());
      globe.scene.requestRender();
    }, ScreenSpaceEventType.LEFT_CLICK);
    return () => {
      layer.current = null;
      handler.destroy();
      popup.destroy();
      made.destroy();
    };
  }, [globe]);

  useEffect(() => {
    const current = layer.current;
    if (!current) return;
    current.draw(lines, colorOf, exaggeration);
    // Frame the tracks when the selection or range changes and its tracks have come (kept across a
    // hidden page: coming back leaves the camera where the user put it).
    if (lines.length > 0 && framed.current !== fitKey) {
      framed.current = fitKey;
      current.frame();
    }
    return () => current.clear();
  }, [globe, lines, colorOf, exaggeration, fitKey]);

  useEffect(() => {
    if (fitRequest > 0) layer.current?.frame();
  }, [globe, fitRequest]);

  useEffect(() => {
    layer.current?.place(time, follow);
  }, [globe, lines, colorOf, exaggeration, time, follow]);

  return null;
}
