import { formatTime, GRADE_LEGEND } from '@wildtrack/contract';
import Icon, { SelectOutlined } from '@ant-design/icons';
import { Button, Segmented, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DecodedTrack } from '../../../lib/tracks';
import { cssColor, deviceColor, GRADE_COLORS } from '../../../map/deck/trackData';
import { MapBoundary } from '../../../map/MapBoundary';
import { MapView } from '../../../map/MapView';
import { TracksOverlay } from '../../../map/TracksOverlay';
import { AccelerationMark } from '../acceleration/AccelerationMark';
import { fixesInBox, fixesInLasso, type BoxChoice } from '../model';
import { ActiveFix } from './ActiveFix';
import { BoxSelect, type SelectTool } from './BoxSelect';

/** A lasso: a loop with its rope (the select-by-outline tool's icon). */
const LassoSvg = () => (
  <svg viewBox="0 0 24 24" width="1em" height="1em" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" aria-hidden>
    <ellipse cx="13" cy="9" rx="8" ry="5.5" strokeDasharray="3 2.5" />
    <path d="M7 13c-1.5 1.5-1.5 3.5 0 4.5s2.5 2.5 1 4" />
  </svg>
);

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
  /** Fixes can be marked here: a box drawn over the map (select tool, or Shift-drag) chooses them. */
  onBoxSelect?: (choice: BoxChoice) => void;
}

/**
 * The track of the chosen device beside the table (loaded on demand: the map libraries are large): its
 * fixes as dots coloured by precision grade or by time (invalid ones grey), the chosen fix ringed, a
 * dot's click names its fix. The track's number of points shows on the element (data-points), the number
 * drawn on the map's (data-tracks, set by the overlay), for tests and support.
 */
export default function TrackMap({ track, coloring, onColoring, activeIndex, flyTo, onPick, zone, loading, failed, onBoxSelect }: Props) {
  const { t } = useTranslation();
  const [tool, setTool] = useState<SelectTool | null>(null);
  const tracks = useMemo(() => (track ? [track] : []), [track]);
  const highlight = useMemo(() => (track && activeIndex >= 0 ? { imei: track.imei, index: activeIndex } : null), [track, activeIndex]);
  const count = track?.count ?? 0;
  // How many of the points are valid: a mark (table or box) lowers it once the track is read again.
  const validPoints = useMemo(() => (track ? track.valid.reduce((n, v) => n + v, 0) : 0), [track]);
  const activePosition = useMemo(
    () => (track && activeIndex >= 0 && activeIndex < track.count ? { lon: track.lonLat[2 * activeIndex]!, lat: track.lonLat[2 * activeIndex + 1]! } : null),
    [track, activeIndex],
  );
  const color = deviceColor(0);
  const fallback = <div className="wt-track-map-fallback">{t('track.mapUnavailable')}</div>;

  return (
    <div className="wt-track-map" data-testid="track-map" data-points={count} data-valid-points={validPoints} data-active-index={activeIndex} data-coloring={coloring}>
      <MapBoundary fallback={fallback}>
        <MapView className="wt-track-map-view" fallback={fallback}>
          {/* Invalid fixes (on earth) are drawn too, grey: the table beside lists them. */}
          <TracksOverlay tracks={tracks} points={coloring} highlight={highlight} onPick={(_imei, index) => onPick(index)} includeInvalid />
          <ActiveFix position={activePosition} flyTo={flyTo} />
          {/* Where the animal was at the moment the acceleration panel points at. */}
          <AccelerationMark track={track} />
          {onBoxSelect ? (
            <BoxSelect
              tool={tool}
              onBox={(box, project) => {
                setTool(null);
                onBoxSelect(fixesInBox(track, box, project));
              }}
              onLasso={(outline, project) => {
                setTool(null);
                onBoxSelect(fixesInLasso(track, outline, project));
              }}
              onCancel={() => setTool(null)}
            />
          ) : null}
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
        {onBoxSelect ? (
          <span className="wt-track-select-tools">
            {(['box', 'lasso'] as const).map((name) => (
              <Tooltip key={name} title={t(`track.select.${name}Help`)} placement="right">
                <Button
                  size="small"
                  icon={name === 'box' ? <SelectOutlined /> : <Icon component={LassoSvg} />}
                  data-testid={name === 'box' ? 'box-select' : 'lasso-select'}
                  aria-pressed={tool === name}
                  aria-label={t(`track.select.${name}`)}
                  type={tool === name ? 'primary' : 'default'}
                  onClick={() => setTool(tool === name ? null : name)}
                />
              </Tooltip>
            ))}
          </span>
        ) : null}
      </div>
      {tool ? (
        <div className="wt-track-select-note" role="status">
          {t(`track.select.${tool}Active`)}
        </div>
      ) : null}
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
