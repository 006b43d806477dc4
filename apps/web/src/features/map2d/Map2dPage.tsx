import { MAP_ZOOM_MIN } from '@wildtrack/contract';
import { Segmented, Spin, Tooltip } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MapStatusOverlay } from '../../components/MapStatusOverlay';
import { ReplayControl } from '../../components/ReplayControl';
import { TimeRangePicker } from '../../components/TimeRangePicker';
import { resolveRange, usePositionSelection } from '../../lib/positionSelection';
import { useSession } from '../../lib/session';
import { indexAtTime } from '../../lib/tracks';
import { BaseLayer } from '../../map/BaseLayer';
import { cssColor, deviceColor, type PointColoring } from '../../map/deck/trackData';
import { LastPositions } from '../../map/LastPositions';
import { BaseLayerNoticeBar, LayerSwitcher } from '../../map/LayerSwitcher';
import { MapBoundary } from '../../map/MapBoundary';
import { MapView } from '../../map/MapView';
import { TrackLegend } from '../../map/TrackLegend';
import { TracksOverlay } from '../../map/TracksOverlay';
import { useBaseLayer } from '../../map/useBaseLayer';
import { useMapTracks } from '../../map/useMapTracks';
import { DevicePicker } from '../../components/DevicePicker';
import './map2d.css';

const POINT_MODES: readonly (PointColoring | 'none')[] = ['none', 'device', 'grade', 'time'];

/**
 * /map2d (§2.1): the chosen devices' last positions and tracks over a range on one MapLibre map, with the
 * tile layers of §2.5 and a replay that moves every device on one clock.
 */
export default function Map2dPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const zone = user.timeZone || '+00:00';
  const selection = usePositionSelection();
  const { imeis } = selection;
  const range = resolveRange(selection.range, user.timeZone);
  const base = useBaseLayer();
  const [points, setPoints] = usePointMode();

  const { tracksQuery, last, colors, shown, extent, replay, captions, loading } = useMapTracks(imeis, range);
  const noFixes = imeis.length > 0 && !loading && !tracksQuery.error && extent === null;
  const fallback = <div className="wt-map-fallback">{t('map.unavailable')}</div>;

  return (
    <div className="wt-map-page wt-map2d" data-testid="map2d" data-loading={loading ? '1' : '0'}>
      <div className="wt-map-page-bar">
        <DevicePicker value={imeis} onChange={selection.setImeis} />
        <TimeRangePicker value={selection.range} onChange={selection.setRange} />
        <LayerSwitcher value={base.chosen} onChange={base.choose} />
        <Tooltip title={t('map2d.pointsHint')}>
          <Segmented<PointColoring | 'none'>
            size="small"
            aria-label={t('map2d.points')}
            value={points}
            onChange={setPoints}
            options={POINT_MODES.map((mode) => ({ value: mode, label: t(`map2d.pointMode.${mode}`) }))}
          />
        </Tooltip>
        {loading ? <Spin size="small" data-testid="map2d-loading" /> : null}
      </div>
      <div className="wt-map-page-body">
        <MapBoundary fallback={fallback}>
          <MapView className="wt-map" minZoom={MAP_ZOOM_MIN} fallback={fallback}>
            <BaseLayer layer={base.drawn} onFallback={base.fallBack} />
            <LastPositions fixes={replay.time === null ? (last.data ?? []) : []} colors={colors} fit={shown.length === 0} />
            <TracksOverlay tracks={shown} colors={colors} time={replay.time} points={points} />
          </MapView>
        </MapBoundary>
        <BaseLayerNoticeBar notice={base.notice} className="wt-map-page-notice wt-map2d-notice" />
        <MapStatusOverlay
          testId="map2d"
          noDevices={imeis.length === 0}
          error={tracksQuery.error}
          noFixes={noFixes}
          chooseDevices={t('map2d.chooseDevices')}
          range={range}
          onRetry={() => void tracksQuery.refetch()}
        />
        {shown.length > 0 ? (
          <TrackLegend
            testId="map2d-legend"
            zone={zone}
            replaying={replay.time !== null}
            rows={shown.map((track, i) => {
              const index = replay.time === null ? track.count - 1 : indexAtTime(track, replay.time);
              return { imei: track.imei, caption: captions.get(track.imei) ?? '', color: cssColor(colors.get(track.imei) ?? deviceColor(i)), count: track.count, index, time: index >= 0 ? track.times[index]! : null };
            })}
          />
        ) : null}
      </div>
      <ReplayControl replay={replay} timeZone={zone} />
    </div>
  );
}

const POINT_MODE_KEY = 'wildtrack_map2d_points';

/** Which dots to draw, kept for the browser session. */
function usePointMode(): [PointColoring | 'none', (mode: PointColoring | 'none') => void] {
  const [mode, setMode] = useState<PointColoring | 'none'>(() => {
    try {
      const v = window.sessionStorage.getItem(POINT_MODE_KEY) ?? '';
      return (POINT_MODES as readonly string[]).includes(v) ? (v as PointColoring | 'none') : 'none';
    } catch {
      return 'none';
    }
  });
  const set = useCallback((next: PointColoring | 'none') => {
    try {
      window.sessionStorage.setItem(POINT_MODE_KEY, next);
    } catch {
      // storage blocked: the choice lasts while the page is open
    }
    setMode(next);
  }, []);
  return [mode, set];
}
