import { formatTime, MAP_ZOOM_MIN } from '@wildtrack/contract';
import { Segmented, Spin, Tag, Tooltip } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MapStatusOverlay } from '../../components/MapStatusOverlay';
import { ReplayControl } from '../../components/ReplayControl';
import { TimeRangePicker } from '../../components/TimeRangePicker';
import { resolveRange, usePositionSelection } from '../../lib/positionSelection';
import { useReplay } from '../../lib/replay';
import { useSession } from '../../lib/session';
import { indexAtTime, useLastFixes, useTracks, type DecodedTrack } from '../../lib/tracks';
import { BaseLayer } from '../../map/BaseLayer';
import { cssColor, deviceColor, timeExtent, type PointColoring, type Rgb } from '../../map/deck/trackData';
import { LastPositions } from '../../map/LastPositions';
import { BaseLayerNoticeBar, LayerSwitcher } from '../../map/LayerSwitcher';
import { MapBoundary } from '../../map/MapBoundary';
import { MapView } from '../../map/MapView';
import { TracksOverlay } from '../../map/TracksOverlay';
import { useBaseLayer } from '../../map/useBaseLayer';
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

  const tracksQuery = useTracks(imeis.length > 0 ? { imeis, start: range.start, end: range.end } : null);
  const last = useLastFixes(imeis);
  // Tracks come back in the order asked; each device keeps its colour by its place in the selection.
  const colors = useMemo(() => new Map<string, Rgb>(imeis.map((imei, i) => [imei, deviceColor(i)])), [imeis]);
  const shown = useMemo(() => tracksQuery.tracks.filter((tr) => imeis.includes(tr.imei)), [tracksQuery.tracks, imeis]);
  const extent = useMemo(() => timeExtent(shown), [shown]);
  const replay = useReplay(extent);
  const captions = useMemo(() => new Map((last.data ?? []).map((f) => [f.IMEI, f.Caption])), [last.data]);

  const loading = tracksQuery.isFetching || last.isFetching;
  const noFixes = imeis.length > 0 && !loading && !tracksQuery.error && extent === null;
  const fallback = <div className="wt-map-fallback">{t('map.unavailable')}</div>;

  return (
    <div className="wt-map2d" data-testid="map2d" data-loading={loading ? '1' : '0'}>
      <div className="wt-map2d-bar">
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
      <div className="wt-map2d-body">
        <MapBoundary fallback={fallback}>
          <MapView className="wt-map" minZoom={MAP_ZOOM_MIN} fallback={fallback}>
            <BaseLayer layer={base.drawn} onFallback={base.fallBack} />
            <LastPositions fixes={replay.time === null ? (last.data ?? []) : []} colors={colors} fit={shown.length === 0} />
            <TracksOverlay tracks={shown} colors={colors} time={replay.time} points={points} />
          </MapView>
        </MapBoundary>
        <BaseLayerNoticeBar notice={base.notice} className="wt-map2d-notice" />
        <MapStatusOverlay
          testId="map2d"
          noDevices={imeis.length === 0}
          error={tracksQuery.error}
          noFixes={noFixes}
          texts={{ chooseDevices: t('map2d.chooseDevices'), loadFailed: t('map2d.loadFailed'), noFixes: t('map2d.noFixes', { start: range.start, end: range.end }) }}
          onRetry={() => void tracksQuery.refetch()}
        />
        {shown.length > 0 ? <Legend tracks={shown} colors={colors} captions={captions} time={replay.time} zone={zone} /> : null}
      </div>
      <ReplayControl replay={replay} timeZone={zone} className="wt-map2d-replay" />
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

interface LegendProps {
  tracks: readonly DecodedTrack[];
  colors: ReadonlyMap<string, Rgb>;
  captions: ReadonlyMap<string, string>;
  time: number | null;
  zone: string;
}

/**
 * The devices drawn, in their colours. During a replay each row shows the fix the device is at on the
 * shared clock; the row's data attributes (index, fix time) let tests check the devices move in sync.
 */
function Legend({ tracks, colors, captions, time, zone }: LegendProps) {
  const { t, i18n } = useTranslation();
  return (
    <div className="wt-map2d-legend" data-testid="map2d-legend">
      {tracks.map((track, i) => {
        const index = time === null ? track.count - 1 : indexAtTime(track, time);
        const at = index >= 0 ? track.times[index]! : null;
        return (
          <div key={track.imei} className="wt-map2d-legend-row" data-imei={track.imei} data-index={index} data-fix-time={at ?? ''} data-count={track.count}>
            <span className="wt-map2d-swatch" style={{ background: cssColor(colors.get(track.imei) ?? deviceColor(i)) }} />
            <span className="wt-map2d-legend-name">{captions.get(track.imei) || track.imei}</span>
            <Tag bordered={false}>{t('map2d.fixCount', { count: track.count, n: track.count.toLocaleString(i18n.language) })}</Tag>
            {time !== null ? (
              <span className="wt-map2d-legend-time">{at === null ? t('map2d.notStarted') : formatTime(at, zone)}</span>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

