import { Result, Segmented, Spin, Tag, Tooltip } from 'antd';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DevicePicker } from '../../components/DevicePicker';
import { MapStatusOverlay } from '../../components/MapStatusOverlay';
import { ReplayControl } from '../../components/ReplayControl';
import { TimeRangePicker } from '../../components/TimeRangePicker';
import { resolveRange, usePositionSelection } from '../../lib/positionSelection';
import { useSession } from '../../lib/session';
import { cssColor, deviceColor } from '../../map/deck/trackData';
import { fixAt, trackLine } from '../../map/globe/trackLine';
import { BaseLayerNoticeBar, LayerSwitcher } from '../../map/LayerSwitcher';
import { MapBoundary } from '../../map/MapBoundary';
import { TrackLegend } from '../../map/TrackLegend';
import { useBaseLayer } from '../../map/useBaseLayer';
import { useMapTracks } from '../../map/useMapTracks';
import './map3d.css';

/** CesiumJS (a few MB) loads only here, while the rest of the screen already works. */
const Globe3d = lazy(() => import('./components/Globe3d'));

/** How many times their value heights are drawn: true scale, or enough to see a flight over a long way. */
const EXAGGERATIONS = [1, 5, 20] as const;

/**
 * /map3d (§2.1): the chosen devices' tracks on a CesiumJS globe, at their altitudes, with the same device
 * selection, time range, tile layers (§2.5) and replay as /map2d. The globe needs no network: its base
 * imagery is bundled, and the online layers go over it when they can be reached.
 */
export default function Map3dPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const zone = user.timeZone || '+00:00';
  const selection = usePositionSelection();
  const { imeis } = selection;
  const range = resolveRange(selection.range, user.timeZone);
  const base = useBaseLayer();
  const [exaggeration, setExaggeration] = useState<number>(1);

  const { tracksQuery, colors, shown, replay, captions, loading } = useMapTracks(imeis, range);
  const colorOf = useCallback((imei: string, i: number) => cssColor(colors.get(imei) ?? deviceColor(i)), [colors]);
  const lines = useMemo(() => shown.map(trackLine).filter((line) => line.count > 0), [shown]);
  const noFixes = imeis.length > 0 && !loading && !tracksQuery.error && lines.length === 0;
  const fallback = (
    <div className="wt-map3d-fallback" data-testid="globe-unavailable">
      <Result status="info" title={t('map3d.unavailable')} subTitle={t('map3d.unavailableHint')} />
    </div>
  );

  return (
    <div className="wt-map-page wt-map3d" data-testid="map3d" data-loading={loading ? '1' : '0'}>
      <div className="wt-map-page-bar">
        <DevicePicker value={imeis} onChange={selection.setImeis} />
        <TimeRangePicker value={selection.range} onChange={selection.setRange} />
        <LayerSwitcher value={base.chosen} onChange={base.choose} />
        <Tooltip title={t('map3d.exaggerationHint')}>
          <Segmented<number>
            size="small"
            aria-label={t('map3d.exaggeration')}
            data-testid="altitude-scale"
            value={exaggeration}
            onChange={setExaggeration}
            options={EXAGGERATIONS.map((x) => ({ value: x, label: `${t('map3d.altitude')} ×${x}` }))}
          />
        </Tooltip>
        {loading ? <Spin size="small" data-testid="map3d-loading" /> : null}
      </div>
      <div className="wt-map-page-body wt-map3d-body">
        <MapBoundary fallback={fallback}>
          <Suspense
            fallback={
              <div className="wt-map3d-loading" data-testid="globe-loading">
                <Spin description={t('map3d.loadingGlobe')} />
              </div>
            }
          >
            <Globe3d
              layer={base.drawn}
              onLayerFallback={base.fallBack}
              lines={lines}
              colorOf={colorOf}
              time={replay.time}
              exaggeration={exaggeration}
              fitKey={`${imeis.join(',')}|${range.start}|${range.end}`}
              fallback={fallback}
            />
          </Suspense>
        </MapBoundary>
        <BaseLayerNoticeBar notice={base.notice} className="wt-map-page-notice wt-map3d-notice" />
        <MapStatusOverlay
          testId="map3d"
          noDevices={imeis.length === 0}
          error={tracksQuery.error}
          noFixes={noFixes}
          chooseDevices={t('map3d.chooseDevices')}
          range={range}
          onRetry={() => void tracksQuery.refetch()}
        />
        {lines.length > 0 ? (
          <TrackLegend
            testId="map3d-legend"
            zone={zone}
            replaying={replay.time !== null}
            rows={lines.map((line, i) => {
              const index = replay.time === null ? line.count - 1 : fixAt(line, replay.time);
              // The height of the fix the marker is at.
              const height = index >= 0 && line.hasAlt[index] ? Math.round(line.coords[index * 3 + 2]!) : null;
              return {
                imei: line.imei,
                caption: captions.get(line.imei) ?? '',
                color: colorOf(line.imei, i),
                count: line.count,
                index,
                time: index >= 0 ? line.times[index]! : null,
                data: { 'data-altitude': height ?? '' },
                extra: (
                  <Tag variant="filled" color={height === null ? undefined : 'blue'}>
                    {height === null ? t('map3d.noAltitude') : t('map3d.altitudeValue', { value: height })}
                  </Tag>
                ),
              };
            })}
          />
        ) : null}
      </div>
      <ReplayControl replay={replay} timeZone={zone} />
    </div>
  );
}
