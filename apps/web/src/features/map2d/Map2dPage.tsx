import { MAP_ZOOM_MIN } from '@wildtrack/contract';
import { Segmented, Tooltip } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { oneOf, readStored, writeStored } from '../../lib/storage';
import { indexAtTime } from '../../lib/tracks';
import { BaseLayer } from '../../map/BaseLayer';
import { cssColor, deviceColor, type PointColoring } from '../../map/deck/trackData';
import { LastPositions } from '../../map/LastPositions';
import { MapPageFrame, useMapPage } from '../../map/MapPageFrame';
import { MapView } from '../../map/MapView';
import { TracksOverlay } from '../../map/TracksOverlay';
import './map2d.css';

const POINT_MODES: readonly (PointColoring | 'none')[] = ['none', 'device', 'grade', 'time'];

/**
 * /map2d (§2.1): the chosen devices' last positions and tracks over a range on one MapLibre map, with the
 * tile layers of §2.5 and a replay that moves every device on one clock.
 */
export default function Map2dPage() {
  const { t } = useTranslation();
  const page = useMapPage();
  const { base, last, colors, shown, extent, replay, captions } = page;
  const [points, setPoints] = usePointMode();
  const fallback = <div className="wt-map-fallback">{t('map.unavailable')}</div>;

  return (
    <MapPageFrame
      name="map2d"
      page={page}
      fallback={fallback}
      hasFixes={extent !== null}
      tools={
        <Tooltip title={t('map2d.pointsHint')}>
          <Segmented<PointColoring | 'none'>
            size="small"
            aria-label={t('map2d.points')}
            value={points}
            onChange={setPoints}
            options={POINT_MODES.map((mode) => ({ value: mode, label: t(`map2d.pointMode.${mode}`) }))}
          />
        </Tooltip>
      }
      legend={shown.map((track, i) => {
        const index = replay.time === null ? track.count - 1 : indexAtTime(track, replay.time);
        return { imei: track.imei, caption: captions.get(track.imei) ?? '', color: cssColor(colors.get(track.imei) ?? deviceColor(i)), count: track.count, index, time: index >= 0 ? track.times[index]! : null };
      })}
    >
      <MapView className="wt-map" minZoom={MAP_ZOOM_MIN} fallback={fallback}>
        <BaseLayer layer={base.drawn} onFallback={base.fallBack} />
        <LastPositions fixes={replay.time === null ? (last.data ?? []) : []} colors={colors} fit={shown.length === 0} />
        <TracksOverlay tracks={shown} colors={colors} time={replay.time} points={points} />
      </MapView>
    </MapPageFrame>
  );
}

const POINT_MODE_KEY = 'wildtrack_map2d_points';

/** Which dots to draw, kept for the browser session. */
function usePointMode(): [PointColoring | 'none', (mode: PointColoring | 'none') => void] {
  const [mode, setMode] = useState<PointColoring | 'none'>(() => readStored('session', POINT_MODE_KEY, oneOf(POINT_MODES)) ?? 'none');
  const set = useCallback((next: PointColoring | 'none') => {
    writeStored('session', POINT_MODE_KEY, next);
    setMode(next);
  }, []);
  return [mode, set];
}
