import { type WeatherForecast, type WeatherPoint, type WeatherValues, formatTime } from '@wildtrack/contract';
import { Alert, Button, Spin } from 'antd';
import maplibregl, { type MapMouseEvent, type Map as MapLibreMap } from 'maplibre-gl';
import { useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { useMap } from '../../../map/MapView';
import { useWeatherGrid, useWeatherPoint } from './api';
import { type Bounds, compassPoint, type GridPoint, gridPoints, TEMPERATURE_STOPS, temperatureColor } from './grid';
import './weather.css';

type T = (key: string, options?: Record<string, unknown>) => string;

/** Layers of other overlays whose click is theirs (a device's popup), not a request for the weather there. */
const OTHER_CLICKABLE = ['last-positions-points', 'last-positions-clusters'];

function boundsOf(map: MapLibreMap): Bounds {
  const b = map.getBounds();
  return { west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

/** A value with its unit in the language, or a dash when the source gave none. */
function withUnit(t: T, unit: 'celsius' | 'ms' | 'mm', value: number | null): string {
  return value === null ? t('weather.none') : t(`weather.unit.${unit}`, { value: round1(value) });
}

function windText(t: T, v: WeatherValues): string {
  if (v.WindSpeed === null) return t('weather.none');
  const speed = withUnit(t, 'ms', v.WindSpeed);
  return v.WindDirection === null ? speed : t('weather.windFrom', { speed, from: t(`weather.compass.${compassPoint(v.WindDirection)}`) });
}

/** An arrow pointing where the wind blows (it comes FROM WindDirection), longer when stronger. */
function arrow(direction: number | null, speed: number | null): HTMLElement | null {
  if (direction === null || speed === null) return null;
  const el = document.createElement('span');
  el.className = 'wt-weather-arrow';
  el.setAttribute('aria-hidden', 'true');
  const scale = 0.6 + (Math.min(speed, 20) / 20) * 0.9;
  el.style.transform = `rotate(${(direction + 180) % 360}deg) scale(${scale.toFixed(2)})`;
  el.textContent = '↑';
  return el;
}

/** One grid point's marker: its temperature's colour and value, the wind arrow, precipitation when any. */
function cell(p: WeatherPoint, t: T): HTMLElement {
  const el = document.createElement('div');
  el.className = 'wt-weather-cell';
  el.dataset.testid = 'weather-cell';
  el.dataset.temperature = String(p.Temperature ?? '');
  el.dataset.windSpeed = String(p.WindSpeed ?? '');
  el.dataset.windDirection = String(p.WindDirection ?? '');
  el.dataset.precipitation = String(p.Precipitation ?? '');
  el.style.setProperty('--wt-weather-colour', temperatureColor(p.Temperature));
  el.title = t('weather.cellTitle', { temperature: withUnit(t, 'celsius', p.Temperature), wind: windText(t, p), precipitation: withUnit(t, 'mm', p.Precipitation) });
  const wind = arrow(p.WindDirection, p.WindSpeed);
  if (wind) el.append(wind);
  const temp = document.createElement('span');
  temp.className = 'wt-weather-temp';
  temp.textContent = p.Temperature === null ? '–' : `${Math.round(p.Temperature)}°`;
  el.append(temp);
  if (p.Precipitation !== null && p.Precipitation > 0) {
    const rain = document.createElement('span');
    rain.className = 'wt-weather-rain';
    rain.textContent = t('weather.unit.mm', { value: round1(p.Precipitation) });
    el.append(rain);
  }
  return el;
}

/**
 * A position as the user reads it: 31.20° N, 121.50° E (北纬 31.20°，东经 121.50°). Named latitude and
 * longitude: `lng` is i18next's own option (the language to translate into).
 */
function positionText(t: T, p: GridPoint): { latitude: string; longitude: string } {
  return {
    latitude: t(p.lat >= 0 ? 'weather.latNorth' : 'weather.latSouth', { value: Math.abs(p.lat).toFixed(2) }),
    longitude: t(p.lng >= 0 ? 'weather.lngEast' : 'weather.lngWest', { value: Math.abs(p.lng).toFixed(2) }),
  };
}

/**
 * An overlay of /map2d (§1 weather): the weather now over a coarse grid of the visible map (temperature
 * by colour and value, wind by arrows, precipitation in mm), with its legend and state, and the forecast
 * of the next hours at a clicked place in a popup, times in the user's zone. The weather comes from the
 * server (Weather/GetGrid, Weather/GetPoint); when it can't be had the legend says "weather data loading
 * failed" and the map goes on working. The map's element carries the state (data-weather), the number of
 * cells drawn (data-weather-cells) and the view the grid is for (data-weather-view) for tests and support.
 */
export function WeatherLayer({ zone }: { zone: string }) {
  const map = useMap();
  const { t } = useTranslation();
  const [bounds, setBounds] = useState(() => boundsOf(map));
  const points = useMemo(() => gridPoints(bounds), [bounds]);
  const grid = useWeatherGrid(points, true);
  const [clicked, setClicked] = useState<GridPoint | null>(null);
  const forecast = useWeatherPoint(clicked);
  const latest = useRef(t);
  useEffect(() => {
    latest.current = t;
  }, [t]);

  // The grid follows the view once it rests.
  useEffect(() => {
    const moved = () => setBounds(boundsOf(map));
    map.on('moveend', moved);
    return () => {
      map.off('moveend', moved);
    };
  }, [map]);

  // The view the grid was made for (support and tests read it: a pan changes it, the layer failing or not).
  useEffect(() => {
    const el = map.getContainer();
    el.dataset.weatherView = [bounds.west, bounds.south, bounds.east, bounds.north].map((v) => v.toFixed(2)).join(',');
    return () => {
      delete el.dataset.weatherView;
    };
  }, [map, bounds]);

  const state = grid.isError && !grid.isFetching ? 'error' : grid.isFetching || !grid.data ? 'loading' : 'ready';
  useEffect(() => {
    const el = map.getContainer();
    el.dataset.weather = state;
    return () => {
      delete el.dataset.weather;
    };
  }, [map, state]);

  // The cells: HTML markers (the offline style has no glyphs for symbol labels; a grid is a few dozen).
  const shown = grid.isError ? undefined : grid.data?.Points;
  useEffect(() => {
    const markers = (shown ?? []).map((p) => new maplibregl.Marker({ element: cell(p, t) }).setLngLat([p.Lng, p.Lat]).addTo(map));
    map.getContainer().dataset.weatherCells = String(markers.length);
    return () => {
      for (const m of markers) m.remove();
      delete map.getContainer().dataset.weatherCells;
    };
  }, [map, shown, t]);

  // A click on the map (not on a device) asks the forecast there.
  useEffect(() => {
    const onClick = (e: MapMouseEvent) => {
      const layers = OTHER_CLICKABLE.filter((id) => map.getLayer(id));
      if (layers.length > 0 && map.queryRenderedFeatures(e.point, { layers }).length > 0) return;
      setClicked({ lat: Math.round(e.lngLat.lat * 100) / 100, lng: Math.round(e.lngLat.wrap().lng * 100) / 100 });
    };
    map.on('click', onClick);
    return () => {
      map.off('click', onClick);
    };
  }, [map]);

  // The forecast's popup at the clicked place; its content is rendered below into the popup's element.
  // The popup's element, one per clicked place: the card is rendered into it (a portal).
  const popupBody = useMemo(() => (clicked ? document.createElement('div') : null), [clicked]);
  const popupRef = useRef<maplibregl.Popup | null>(null);
  useEffect(() => {
    if (!clicked || !popupBody) return;
    const popup = new maplibregl.Popup({ closeButton: true, closeOnClick: false, maxWidth: '360px', className: 'wt-weather-popup', offset: 6 })
      .setLngLat([clicked.lng, clicked.lat])
      .setDOMContent(popupBody)
      .addTo(map);
    popup.getElement()?.querySelector('.maplibregl-popup-close-button')?.setAttribute('aria-label', latest.current('common.close'));
    popupRef.current = popup;
    const closed = () => setClicked(null);
    popup.on('close', closed);
    return () => {
      popup.off('close', closed);
      popup.remove();
      popupRef.current = null;
    };
  }, [map, clicked, popupBody]);

  // The popup grows when the forecast arrives: placed again, so that MapLibre picks the side it fits on
  // (it chose while the popup held one loading line; the table above a click near the top was cut off).
  const forecastState = forecast.isError ? 'error' : forecast.data ? `ready-${forecast.dataUpdatedAt}` : 'loading';
  useEffect(() => {
    const popup = popupRef.current;
    if (popup) popup.setLngLat(popup.getLngLat());
  }, [forecastState, popupBody]);

  const time = shown?.[0]?.Time;
  return (
    <>
      <div className="wt-weather-legend" data-testid="weather-legend" data-state={state}>
        <div className="wt-weather-legend-title">
          {t('weather.title')}
          {state === 'ready' && time !== undefined ? <span className="wt-weather-legend-time"> {t('weather.at', { time: formatTime(time, zone).slice(11, 16) })}</span> : null}
          {state === 'loading' ? <Spin size="small" className="wt-weather-spin" aria-label={t('weather.loading')} /> : null}
        </div>
        {state === 'error' ? (
          <Alert
            type="warning"
            showIcon
            data-testid="weather-error"
            title={t('weather.loadFailed', { ns: 'contract' })}
            action={
              <Button size="small" onClick={() => void grid.refetch()}>
                {t('common.retry')}
              </Button>
            }
          />
        ) : (
          <>
            <div className="wt-weather-scale" aria-label={t('weather.temperature')}>
              <div className="wt-weather-scale-bar" style={{ background: `linear-gradient(to right, ${TEMPERATURE_STOPS.map(([, c]) => c).join(', ')})` }} />
              <div className="wt-weather-scale-labels">
                <span>{TEMPERATURE_STOPS[0]![0]}</span>
                <span>0</span>
                <span>{t('weather.unit.celsius', { value: TEMPERATURE_STOPS[TEMPERATURE_STOPS.length - 1]![0] })}</span>
              </div>
            </div>
            <div className="wt-weather-legend-line">
              <span className="wt-weather-arrow wt-weather-arrow-static" aria-hidden="true">↑</span> {t('weather.legendWind')}
            </div>
            <div className="wt-weather-legend-line">
              <span className="wt-weather-rain">{t('weather.unit.mm', { value: 1.2 })}</span> {t('weather.legendPrecipitation')}
            </div>
            <div className="wt-weather-legend-hint">{t('weather.clickHint')}</div>
          </>
        )}
      </div>
      {popupBody && clicked
        ? createPortal(<ForecastCard point={clicked} zone={zone} forecast={forecast.data} loading={forecast.isFetching} failed={forecast.isError && !forecast.isFetching} onRetry={() => void forecast.refetch()} />, popupBody)
        : null}
    </>
  );
}

interface CardProps {
  point: GridPoint;
  zone: string;
  forecast: WeatherForecast | undefined;
  loading: boolean;
  failed: boolean;
  onRetry: () => void;
}

/** The forecast at one place: now and the next hours (time in the user's zone, temperature, wind, precipitation). */
function ForecastCard({ point, zone, forecast, loading, failed, onRetry }: CardProps) {
  const { t } = useTranslation();
  const where = positionText(t, point);
  const state = failed ? 'error' : loading || !forecast ? 'loading' : 'ready';
  // A forecast hour on another day than the source's "now" shows its date too.
  const today = forecast ? formatTime(forecast.Current.Time, zone).slice(0, 10) : '';
  const when = (ms: number) => {
    const text = formatTime(ms, zone);
    return text.slice(0, 10) === today ? text.slice(11, 16) : `${text.slice(5, 10)} ${text.slice(11, 16)}`;
  };
  return (
    <div className="wt-weather-forecast" data-testid="weather-forecast" data-state={state}>
      <strong>{t('weather.forecastTitle', where)}</strong>
      {state === 'error' ? (
        <Alert
          type="warning"
          showIcon
          title={t('weather.loadFailed', { ns: 'contract' })}
          action={
            <Button size="small" onClick={onRetry}>
              {t('common.retry')}
            </Button>
          }
        />
      ) : state === 'loading' ? (
        <div className="wt-weather-forecast-loading">
          <Spin size="small" /> {t('weather.loading')}
        </div>
      ) : forecast!.Hours.length === 0 ? (
        <div>{t('weather.noData')}</div>
      ) : (
        <div className="wt-weather-table-wrap">
          <table className="wt-weather-table">
            <thead>
              <tr>
                <th scope="col">{t('weather.time')}</th>
                <th scope="col">{t('weather.temperature')}</th>
                <th scope="col">{t('weather.wind')}</th>
                <th scope="col">{t('weather.precipitation')}</th>
              </tr>
            </thead>
            <tbody>
              {forecast!.Hours.map((h) => (
                <tr key={h.Time} data-time={h.Time}>
                  <td>{when(h.Time)}</td>
                  <td>{withUnit(t, 'celsius', h.Temperature)}</td>
                  <td>
                    {h.WindDirection !== null ? (
                      <span className="wt-weather-arrow wt-weather-arrow-inline" aria-hidden="true" style={{ transform: `rotate(${(h.WindDirection + 180) % 360}deg)` }}>
                        ↑
                      </span>
                    ) : null}{' '}
                    {windText(t, h)}
                  </td>
                  <td>{withUnit(t, 'mm', h.Precipitation)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
