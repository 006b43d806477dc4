import { useEffect } from 'react';
import { TILE_WAIT_BEFORE_FALLBACK_MS, type ResolvedBaseLayer } from '../layers';
import { useDrawnBaseLayer } from '../useBaseLayer';
import { useGlobe } from './GlobeView';
import { OnlineImagery } from './onlineImagery';

interface Props {
  layer: ResolvedBaseLayer;
  /** The layer's tiles can't be had: the page shows the offline imagery and says so. */
  onFallback: () => void;
}

/**
 * An overlay: the chosen tile layer (§2.5, map/layers.ts, shared with the 2D map) over the globe's own
 * offline Natural Earth II imagery, which stays underneath, so a globe whose tiles fail still shows the
 * Earth. If no tile arrives (tileVerdict) the layers are taken off and `onFallback` is called.
 */
export function GlobeImagery({ layer, onFallback }: Props) {
  const globe = useGlobe();
  const { signature, drawn, fallback } = useDrawnBaseLayer(layer, onFallback);

  useEffect(() => {
    const online = new OnlineImagery(globe, signature, drawn, () => fallback.current());
    const timer = setTimeout(() => online.judge(), TILE_WAIT_BEFORE_FALLBACK_MS + 50);
    return () => {
      clearTimeout(timer);
      online.remove();
    };
  }, [globe, signature, drawn, fallback]);

  return null;
}
