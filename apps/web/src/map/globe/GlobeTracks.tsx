import { useEffect, useRef } from 'react';
import { useGlobe } from './GlobeView';
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
}

/**
 * The tracks overlay of the globe (see TrackLayer): one line per device at its fixes' altitudes, a marker
 * per device at the replay time. Renders nothing. Its primitives are made when the overlay shows and
 * destroyed when it is hidden or unmounted; the lines are rebuilt only when the tracks change, the
 * markers moved at every replay step.
 */
export function GlobeTracks({ lines, colorOf, time, exaggeration = 1, fitKey }: Props) {
  const globe = useGlobe();
  const layer = useRef<TrackLayer | null>(null);
  const framed = useRef<string | undefined>(undefined);

  useEffect(() => {
    const made = new TrackLayer(globe);
    layer.current = made;
    return () => {
      layer.current = null;
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
    layer.current?.place(time);
  }, [globe, lines, colorOf, exaggeration, time]);

  return null;
}
