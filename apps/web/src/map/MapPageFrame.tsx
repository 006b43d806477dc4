import { Spin } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MapStatusOverlay } from '../components/MapStatusOverlay';
import { ReplayControl } from '../components/ReplayControl';
import { TimeRangePicker } from '../components/TimeRangePicker';
import { ContextInUrl } from '../lib/contextUrl';
import { resolveRange, usePositionSelection } from '../lib/positionSelection';
import { useZone } from '../lib/session';
import { BaseLayerNoticeBar, LayerSwitcher } from './LayerSwitcher';
import { MapBoundary } from './MapBoundary';
import { TrackLegend, type TrackLegendRow } from './TrackLegend';
import { useBaseLayer } from './useBaseLayer';
import { useMapTracks } from './useMapTracks';
import './map.css';

/**
 * What /map2d and /map3d both work from: the chosen devices and range (shared with /track), the base
 * layer, and the devices' tracks, last fixes, colours and replay clock over that range. The URL carries
 * the devices and the range (lib/contextUrl).
 */
export function useMapPage() {
  const zone = useZone();
  const selection = usePositionSelection();
  const range = resolveRange(selection.range, zone);
  const base = useBaseLayer();
  const tracks = useMapTracks(selection.imeis, range);
  return { zone, selection, range, base, ...tracks };
}

export type MapPageState = ReturnType<typeof useMapPage>;

interface Props {
  /** The screen: its test ids, classes and the "choose devices" message (`<name>.chooseDevices`). */
  name: 'map2d' | 'map3d';
  page: MapPageState;
  /**
   * The devices picker, first in the bar (the device tree slot's DevicePicker, handed in by the screen:
   * the map floor stands under the slots and imports none).
   */
  devicePicker: ReactNode;
  /** The screen's own controls, after the device, range and layer pickers. */
  tools: ReactNode;
  /** The map itself (inside an error boundary that shows `fallback`). */
  children: ReactNode;
  fallback: ReactNode;
  /** Whether the map draws any fix of the chosen devices (else, once loaded, "no fixes in the range"). */
  hasFixes: boolean;
  /** The legend's rows, one per device drawn. */
  legend: readonly TrackLegendRow[];
  bodyClassName?: string;
  /** Said above the bar (a link's devices this viewer cannot see). */
  notice?: ReactNode;
}

/**
 * The layout of a map screen (§2.1): the bar with the device, range and layer pickers and the screen's
 * own tools, the map with its layer notice, status overlay and legend, and the replay control below.
 */
export function MapPageFrame({ name, page, devicePicker, tools, children, fallback, hasFixes, legend, bodyClassName, notice }: Props) {
  const { t } = useTranslation();
  const { selection, base, tracksQuery, replay, loading, zone, range } = page;
  const { imeis } = selection;
  return (
    <div className={`wt-map-page wt-${name}`} data-testid={name} data-loading={loading ? '1' : '0'}>
      <ContextInUrl page="map" />
      {notice}
      <div className="wt-map-page-bar">
        {devicePicker}
        <TimeRangePicker value={selection.range} onChange={selection.setRange} />
        <LayerSwitcher value={base.chosen} onChange={base.choose} standIn={base.notice} />
        {tools}
        {loading ? <Spin size="small" data-testid={`${name}-loading`} /> : null}
      </div>
      <div className={bodyClassName ? `wt-map-page-body ${bodyClassName}` : 'wt-map-page-body'}>
        <MapBoundary fallback={fallback}>{children}</MapBoundary>
        <BaseLayerNoticeBar notice={base.notice} className={`wt-map-page-notice wt-${name}-notice`} />
        <MapStatusOverlay
          testId={name}
          noDevices={imeis.length === 0}
          error={tracksQuery.error}
          noFixes={imeis.length > 0 && !loading && !tracksQuery.error && !hasFixes}
          chooseDevices={t(`${name}.chooseDevices`)}
          range={range}
          onRetry={() => void tracksQuery.refetch()}
        />
        {legend.length > 0 ? <TrackLegend testId={`${name}-legend`} zone={zone} replaying={replay.time !== null} rows={legend} /> : null}
      </div>
      <ReplayControl replay={replay} timeZone={zone} />
    </div>
  );
}
