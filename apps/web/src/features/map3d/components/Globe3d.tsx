import { AimOutlined, ExpandOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResolvedBaseLayer } from '../../../map/layers';
import { GlobeCoast } from '../../../map/globe/GlobeCoast';
import { GlobeImagery } from '../../../map/globe/GlobeImagery';
import { GlobeScale } from '../../../map/globe/GlobeScale';
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
  /** A device's name, for its marker's popup. */
  captionOf?: (imei: string) => string | undefined;
  /** The user's time zone, for the popup's time. */
  zone: string;
}

/**
 * The globe with its overlays (imagery, the offline 1:10m coast, tracks, distance legend) and the view buttons of the 2D map (fit
 * every track, follow the replay): the one module of the screen that imports CesiumJS (a chunk of its own).
 */
export default function Globe3d({ layer, onLayerFallback, lines, colorOf, time, exaggeration, fitKey, fallback, captionOf, zone }: Globe3dProps) {
  const { t } = useTranslation();
  const [fitRequest, setFitRequest] = useState(0);
  const [follow, setFollow] = useState(false);
  return (
    <>
      <GlobeView className="wt-globe" fallback={fallback}>
        <GlobeImagery layer={layer} onFallback={onLayerFallback} />
        <GlobeCoast active={layer.kind === 'offline'} />
        <GlobeTracks
          lines={lines}
          colorOf={colorOf}
          time={time}
          exaggeration={exaggeration}
          fitKey={fitKey}
          fitRequest={fitRequest}
          follow={follow}
          captionOf={captionOf}
          zone={zone}
        />
        <GlobeScale />
      </GlobeView>
      <div className="wt-globe-view-ctrl">
        <Tooltip title={t('map.view.fit')} placement="left">
          <Button
            data-testid="map-fit"
            aria-label={t('map.view.fit')}
            icon={<ExpandOutlined />}
            disabled={lines.length === 0}
            onClick={() => {
              setFollow(false);
              setFitRequest((n) => n + 1);
            }}
          />
        </Tooltip>
        <Tooltip title={t('map.view.follow')} placement="left">
          <Button
            data-testid="map-follow"
            aria-label={t('map.view.follow')}
            aria-pressed={follow}
            type={follow ? 'primary' : 'default'}
            icon={<AimOutlined />}
            disabled={lines.length === 0}
            onClick={() => setFollow((on) => !on)}
          />
        </Tooltip>
      </div>
    </>
  );
}
