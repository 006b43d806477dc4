import type { ReactNode } from 'react';
import type { ResolvedBaseLayer } from '../../../map/layers';
import { GlobeImagery } from '../../../map/globe/GlobeImagery';
import { GlobeTracks } from '../../../map/globe/GlobeTracks';
import GlobeView from '../../../map/globe/GlobeView';
import type { TrackLine } from '../../../map/globe/trackLine';

export interface Globe3dProps {
  layer: ResolvedBaseLayer;
  onLayerFallback: () => void;
  lines: readonly TrackLine[];
  colorOf: (imei: string, index: number) => string;
  time: number | null;
  exaggeration: number;
  fitKey: string;
  fallback: ReactNode;
}

/** The globe with its overlays: the one module of the screen that imports CesiumJS (a chunk of its own). */
export default function Globe3d({ layer, onLayerFallback, lines, colorOf, time, exaggeration, fitKey, fallback }: Globe3dProps) {
  return (
    <GlobeView className="wt-globe" fallback={fallback}>
      <GlobeImagery layer={layer} onFallback={onLayerFallback} />
      <GlobeTracks lines={lines} colorOf={colorOf} time={time} exaggeration={exaggeration} fitKey={fitKey} />
    </GlobeView>
  );
}
