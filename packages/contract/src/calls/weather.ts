import { z } from 'zod';
import { defineCall } from '../call.js';

/**
 * The weather overlay of /map2d (§1, §2.1 "weather"): wind, temperature and precipitation from a public
 * forecast source the server is configured with (WEATHER_URL, Open-Meteo's keyless forecast API by
 * default). The server asks the source and keeps each point's answer a few minutes, so the browser's CSP
 * stays closed to other hosts and a field station's consoles share one fetch. A source out of reach is
 * answered 1001 with `weather.loadFailed` (§8 "weather data loading failed") within a few seconds.
 *
 * Units: temperature °C, wind speed m/s at 10 m, wind direction in degrees the wind blows FROM (0 north,
 * 90 east, meteorological convention), precipitation mm in the hour before the time.
 */

/** The most points one grid call may ask for (a coarse grid over the visible map: 8 × 8 is plenty). */
export const WEATHER_GRID_MAX_POINTS = 100;
/** Hours of a point forecast, from the current hour. */
export const WEATHER_FORECAST_HOURS = 12;

const Latitude = z.number().min(-90, { error: 'validation.latitude' }).max(90, { error: 'validation.latitude' });
const Longitude = z.number().min(-180, { error: 'validation.longitude' }).max(180, { error: 'validation.longitude' });

/** The weather at one place and time; a value the source does not give is null. */
export const WeatherValuesSchema = z.object({
  /** Epoch milliseconds (UTC) the values are for: the current observation, or the start of a forecast hour. */
  Time: z.number().int(),
  /** °C at 2 m. */
  Temperature: z.number().nullable(),
  /** m/s at 10 m. */
  WindSpeed: z.number().nullable(),
  /** Degrees the wind blows from, 0-360 clockwise from north. */
  WindDirection: z.number().nullable(),
  /** mm in the preceding hour. */
  Precipitation: z.number().nullable(),
});
export type WeatherValues = z.infer<typeof WeatherValuesSchema>;

export const WeatherPointSchema = WeatherValuesSchema.extend({ Lat: z.number(), Lng: z.number() });
export type WeatherPoint = z.infer<typeof WeatherPointSchema>;

export const WeatherForecastSchema = z.object({
  Lat: z.number(),
  Lng: z.number(),
  /** The weather now at the point. */
  Current: WeatherValuesSchema,
  /** The next WEATHER_FORECAST_HOURS hours, oldest first. */
  Hours: z.array(WeatherValuesSchema),
});
export type WeatherForecast = z.infer<typeof WeatherForecastSchema>;

export const GetWeatherGrid = defineCall({
  path: '/api/Weather/GetGrid',
  auth: 'session',
  access: 'session',
  body: z.object({
    points: z
      .array(z.object({ lat: Latitude, lng: Longitude }).strict())
      .min(1, { error: 'validation.tooFew' })
      .max(WEATHER_GRID_MAX_POINTS, { error: 'validation.tooMany' }),
  }),
  data: z.object({ Points: z.array(WeatherPointSchema) }),
  summary: 'The weather now (temperature, wind, precipitation) at each point of a coarse grid over the visible map, in the order asked.',
});

export const GetWeatherPoint = defineCall({
  path: '/api/Weather/GetPoint',
  auth: 'session',
  access: 'session',
  body: z.object({ lat: Latitude, lng: Longitude }),
  data: WeatherForecastSchema,
  summary: 'The weather now and the forecast of the next hours (temperature, wind, precipitation) at one point.',
});
