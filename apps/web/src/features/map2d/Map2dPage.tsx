import { MAP_ZOOM_MIN } from '@wildtrack/contract';
import { Segmented, Switch, Tooltip } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { oneOf, readStored, writeStored } from '../../browser/storage';
import { indexAtTime } from '../../lib/tracks';
import { BaseLayer } from '../../map/BaseLayer';
import { cssColor, deviceColor, type PointColoring } from '../../map/deck/trackData';
import { LastPositions } from '../../map/LastPositions';
import { positionsAt } from '../../map/lastFix';
import { UnknownDeviceNotice } from '../../components/UnknownDeviceNotice';
import { useLocate, useUnknownMapDevices } from '../../lib/contextUrl';
import { MapPageFrame, useMapPage } from '../../map/MapPageFrame';
import { DevicePicker, useDeviceTree } from '../../widgets/device-tree';
import { MapView } from '../../map/MapView';
import { TracksOverlay } from '../../map/TracksOverlay';
import { PoiLayer, poiDevices, useMapPois } from './poiLayer';
import { ReplayOdbaTag, useReplayOdba } from './replayOdba';
import { WeatherLayer } from './weather/WeatherLayer';
import './map2d.css';

const POINT_MODES: readonly (PointColoring | 'none')[] = ['none', 'device', 'grade', 'time'];

/**
 * /map2d (§2.1): the chosen devices' last positions and tracks over a range on one MapLibre map, with the
 * tile layers of §2.5 and a replay that moves every device on one clock.
 */
export default function Map2dPage() {
  const { t } = useTranslation();
  const page = useMapPage();
  // a shared link may name devices this viewer cannot see: dropped, and said
  const tree = useDeviceTree().data;
  const linked = useUnknownMapDevices(useLocate(tree));
  const { base, colors, shown, extent, replay, captions, zone } = page;
  // A device that never sent a fix has no caption from its last fix: the legend names it as the tree does.
  const names = useMemo(() => new Map((tree?.devices ?? []).map(({ device: d }) => [d.IMEI, d.RemarkName || d.Caption])), [tree]);
  // During a replay, the ODBA of the moment beside each device with an acceleration sensor (issue 13 item 3).
  const sensors = useMemo(() => new Map((tree?.devices ?? []).map(({ device: d }) => [d.IMEI, d.Sensor])), [tree]);
  const odba = useReplayOdba(
    shown.map((track) => ({ imei: track.imei, sensors: sensors.get(track.imei) ?? 0 })),
    page.range,
    replay.time,
  );
  // Each device's marker and name at the end of the range, or where the replay has it: on its track.
  const positions = useMemo(() => positionsAt(shown, replay.time, (imei) => captions.get(imei)), [shown, replay.time, captions]);
  const [points, setPoints] = usePointMode();
  const [showPois, setShowPois] = useState(true);
  const [showWeather, setShowWeather] = useWeatherSwitch();
  // POIs are asked for the chosen phones only: no other device records them
  const types = useMemo(() => new Map((tree?.devices ?? []).map(({ device: d }) => [d.IMEI, d.Type])), [tree]);
  const poiImeis = useMemo(() => poiDevices(page.selection.imeis, types), [page.selection.imeis, types]);
  const pois = useMapPois(poiImeis, page.range, zone, showPois);
  const fallback = <div className="wt-map-fallback">{t('map.unavailable')}</div>;

  return (
    <MapPageFrame
      name="map2d"
      page={page}
      devicePicker={<DevicePicker value={page.selection.imeis} onChange={page.selection.setImeis} />}
      notice={<UnknownDeviceNotice imeis={linked.unknown} onClose={linked.dismiss} />}
      fallback={fallback}
      hasFixes={extent !== null}
      tools={
        <>
          <Tooltip title={t('map2d.pointsHint')}>
            <Segmented<PointColoring | 'none'>
              size="small"
              aria-label={t('map2d.points')}
              value={points}
              onChange={setPoints}
              options={POINT_MODES.map((mode) => ({ value: mode, label: t(`map2d.pointMode.${mode}`) }))}
            />
          </Tooltip>
          <label className="wt-poi-toggle" title={pois.error ? t('map2d.poiError') : undefined}>
            <Switch size="small" checked={showPois} onChange={setShowPois} data-testid="poi-toggle" /> {t('map2d.pois')}
            {showPois && pois.pois.length > 0 ? ` (${pois.pois.length})` : ''}
          </label>
          <Tooltip title={t('weather.toggleHint')}>
            <label className="wt-poi-toggle">
              <Switch size="small" checked={showWeather} onChange={setShowWeather} data-testid="weather-toggle" /> {t('weather.toggle')}
            </label>
          </Tooltip>
        </>
      }
      legend={shown.map((track, i) => {
        const index = replay.time === null ? track.count - 1 : indexAtTime(track, replay.time);
        const extra = replay.time !== null && odba.has(track.imei) ? <ReplayOdbaTag odba={odba.get(track.imei)} /> : undefined;
        return { imei: track.imei, caption: captions.get(track.imei) || names.get(track.imei) || '', color: cssColor(colors.get(track.imei) ?? deviceColor(i)), count: track.count, index, time: index >= 0 ? track.times[index]! : null, extra };
      })}
    >
      <MapView className="wt-map" minZoom={MAP_ZOOM_MIN} fallback={fallback}>
        <BaseLayer layer={base.drawn} onFallback={base.fallBack} />
        <LastPositions positions={positions} colors={colors} fit={false} zone={zone} />
        <TracksOverlay tracks={shown} colors={colors} time={replay.time} points={points} followControl />
        {showPois ? <PoiLayer pois={pois.pois} /> : null}
        {showWeather ? <WeatherLayer zone={zone} /> : null}
      </MapView>
    </MapPageFrame>
  );
}

const WEATHER_KEY = 'wildtrack_map2d_weather';

/** Whether the weather layer is on, kept for the browser session (off at first: it asks the server for the weather). */
function useWeatherSwitch(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => readStored('session', WEATHER_KEY) === '1');
  const set = useCallback((next: boolean) => {
    writeStored('session', WEATHER_KEY, next ? '1' : '0');
    setOn(next);
  }, []);
  return [on, set];
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
