import { formatTime, GRADE_LEGEND } from '@wildtrack/contract';
import { Segmented, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DecodedTrack } from '../../../lib/tracks';
import { cssColor, deviceColor, GRADE_COLORS } from '../../../map/deck/trackData';
import { MapBoundary } from '../../../map/MapBoundary';
import { MapView } from '../../../map/MapView';
import { TracksOverlay } from '../../../map/TracksOverlay';
import { ActiveFix } from './ActiveFix';

export type PointColoring = 'grade' | 'time';

interface Props {
  track: DecodedTrack | undefined;
  coloring: PointColoring;
  onColoring: (coloring: PointColoring) => void;
  /** The point of the fix chosen in the table (or on the map), -1 for none. */
  activeIndex: number;
  /** Set when the table asks the map to go to a fix. */
  flyTo: { lon: number; lat: number } | null;
  onPick: (index: number) => void;
  zone: string;
  loading: boolean;
  /** The track could not be read. */
  failed: boolean;
}

/**
 * The track of the chosen device beside the table (loaded on demand: the map libraries are large): its
 * fixes as dots coloured by precision grade or by time (invalid ones grey), the chosen fix ringed, a
 * dot's click names its fix. The track's number of points shows on the element (data-points), the number
 * drawn on the map's (data-tracks, set by the overlay), for tests and support.
 */
export default function TrackMap({ track, coloring, onColoring, activeIndex, flyTo, onPick, zone, loading, failed }: Props) {
  const { t } = useTranslation();
  const tracks = useMemo(() => (track ? [track] : []), [track]);
  const highlight = useMemo(() => (track && activeIndex >= 0 ? { imei: track.imei, index: activeIndex } : null), [track, activeIndex]);
  const count = track?.count ?? 0;
  const activePosition = useMemo(
    () => (track && activeIndex >= 0 && activeIndex < track.count ? { lon: track.lonLat[2 * activeIndex]!, lat: track.lonLat[2 * activeIndex + 1]! } : null),
    [track, activeIndex],
  );
  const color = deviceColor(0);
  const fallback = <div className="wt-track-map-fallback">{t('track.mapUnavailable')}</div>;

  return (
    <div className="wt-track-map" data-testid="track-map" data-points={count} data-active-index={activeIndex} data-coloring={coloring}>
      <MapBoundary fallback={fallback}>
        <MapView className="wt-track-map-view" fallback={fallback}>
          {/* Invalid fixes (on earth) are drawn too, grey: the table beside lists them. */}
          <TracksOverlay tracks={tracks} points={coloring} highlight={highlight} onPick={(_imei, index) => onPick(index)} includeInvalid />
          <ActiveFix position={activePosition} flyTo={flyTo} />
        </MapView>
      </MapBoundary>
      <div className="wt-track-map-bar">
        <Segmented<PointColoring>
          size="small"
          data-testid="point-coloring"
          value={coloring}
          onChange={onColoring}
          options={[
            { value: 'grade', label: t('track.colorBy.grade') },
            { value: 'time', label: t('track.colorBy.time') },
          ]}
        />
      </div>
      <div className="wt-track-legend" data-testid="track-legend">
        {coloring === 'grade' ? (
          <>
            {GRADE_LEGEND.map(([letter, grade]) => (
              <span key={letter} className="wt-track-legend-item">
                <i style={{ background: cssColor(GRADE_COLORS[grade]!) }} />
                {letter}
              </span>
            ))}
            <span className="wt-track-legend-item">
              <i style={{ background: 'rgb(190, 190, 190)' }} />
              {t('track.legend.invalid')}
            </span>
          </>
        ) : (
          <>
            <span className="wt-mono">{count ? formatTime(track!.times[0], zone).slice(0, 16) : ''}</span>
            <span className="wt-track-ramp" style={{ background: `linear-gradient(90deg, rgb(230, 230, 230), ${cssColor(color)})` }} />
            <span className="wt-mono">{count ? formatTime(track!.times[count - 1], zone).slice(0, 16) : ''}</span>
          </>
        )}
      </div>
      {failed ? (
        <Typography.Text type="danger" className="wt-track-map-error">
          {t('track.trackError')}
        </Typography.Text>
      ) : null}
      {!loading && !failed && count === 0 ? (
        <div className="wt-track-map-empty">
          <Typography.Text type="secondary">{t('track.noTrack')}</Typography.Text>
        </div>
      ) : null}
    </div>
  );
}
