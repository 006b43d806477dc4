import { Code, WEATHER_FORECAST_HOURS, type WeatherForecast, type WeatherPoint, type WeatherValues } from '@wildtrack/contract';
import { z } from 'zod';
import { AppError } from '../../http/errors.js';
import { now as clockNow } from '../../lib/clock.js';

/**
 * The weather overlay's source (§1 weather): an Open-Meteo-compatible forecast endpoint (WEATHER_URL),
 * asked by the server so that the browser talks to this server only (its CSP stays closed) and a field
 * station's consoles share one fetch.
 *
 * Each point is kept by its position rounded to 0.01° (about 1 km, finer than the forecast models' cells)
 * for TTL_MS, at most MAX_ENTRIES points (the oldest dropped first); a grid asks the source once for all
 * the points it lacks, and a point already being fetched for another console is waited for, not fetched
 * again. A source that does not answer within TIMEOUT_MS, or answers what is not a forecast, fails the
 * call with `weather.loadFailed` (1001): a station cut off from the internet hears so within seconds, and
 * the next call tries again (a failure is not kept).
 */

export const WEATHER_TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 5_000;
const TIMEOUT_MS = 4_000;
/** Locations one request to the source names (Open-Meteo takes lists; the contract's grid is at most 100). */
const BATCH = 100;
/** The largest answer read from the source (a 100-point answer with 12 hours is ~150 kB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

const VARIABLES = 'temperature_2m,wind_speed_10m,wind_direction_10m,precipitation';

const num = z.number().nullable().optional();
const series = z.array(z.number().nullable()).optional();
/** One location of the source's answer (Open-Meteo's JSON, timeformat=unixtime). */
const SourceLocation = z.object({
  current: z.object({
    time: z.number(),
    temperature_2m: num,
    wind_speed_10m: num,
    wind_direction_10m: num,
    precipitation: num,
  }),
  hourly: z
    .object({
      time: z.array(z.number()),
      temperature_2m: series,
      wind_speed_10m: series,
      wind_direction_10m: series,
      precipitation: series,
    })
    .optional(),
});
type SourceLocation = z.infer<typeof SourceLocation>;

interface Entry {
  at: number;
  forecast: Omit<WeatherForecast, 'Lat' | 'Lng'>;
}

export interface WeatherOptions {
  now?: () => number;
  timeoutMs?: number;
  /** Told why the source failed (the caller only hears "weather data loading failed"). */
  onFailure?: (reason: string) => void;
}

export class WeatherService {
  private readonly cache = new Map<string, Entry>();
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly now: () => number;
  private readonly timeoutMs: number;

  constructor(
    private readonly url: string,
    private readonly options: WeatherOptions = {},
  ) {
    this.now = options.now ?? clockNow;
    this.timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  }

  /** The weather now at each point, in the order asked. */
  async grid(points: readonly { lat: number; lng: number }[]): Promise<{ Points: WeatherPoint[] }> {
    const entries = await this.entries(points);
    return { Points: points.map((p, i) => ({ Lat: p.lat, Lng: p.lng, ...entries[i]!.forecast.Current })) };
  }

  /** The weather now and the next hours at one point. */
  async point(lat: number, lng: number): Promise<WeatherForecast> {
    const [entry] = await this.entries([{ lat, lng }]);
    return { Lat: lat, Lng: lng, ...entry!.forecast };
  }

  private async entries(points: readonly { lat: number; lng: number }[]): Promise<Entry[]> {
    const keys = points.map((p) => keyOf(p.lat, p.lng));
    const now = this.now();
    const missing = [...new Set(keys)].filter((k) => !this.fresh(k, now) && !this.inFlight.has(k));
    if (missing.length > 0) {
      for (let i = 0; i < missing.length; i += BATCH) {
        const batch = missing.slice(i, i + BATCH);
        const fetching = this.fetchBatch(batch).finally(() => {
          for (const k of batch) this.inFlight.delete(k);
        });
        for (const k of batch) this.inFlight.set(k, fetching);
      }
    }
    await Promise.all([...new Set(keys.map((k) => this.inFlight.get(k)).filter((p) => p !== undefined))]);
    return keys.map((k) => {
      const entry = this.cache.get(k);
      // A point another console's fetch was to bring, and did not (that fetch failed).
      if (!entry) throw loadFailed();
      return entry;
    });
  }

  private fresh(key: string, now: number): boolean {
    const entry = this.cache.get(key);
    return entry !== undefined && now - entry.at < WEATHER_TTL_MS;
  }

  private async fetchBatch(keys: readonly string[]): Promise<void> {
    let locations: SourceLocation[];
    try {
      locations = await this.ask(keys);
    } catch (error) {
      this.options.onFailure?.(error instanceof Error ? error.message : String(error));
      throw loadFailed();
    }
    const at = this.now();
    keys.forEach((key, i) => this.keep(key, { at, forecast: forecastOf(locations[i]!) }));
  }

  private keep(key: string, entry: Entry): void {
    this.cache.delete(key);
    this.cache.set(key, entry);
    // Map keeps insertion order: the first keys are the oldest.
    for (const old of this.cache.keys()) {
      if (this.cache.size <= MAX_ENTRIES) break;
      this.cache.delete(old);
    }
  }

  private async ask(keys: readonly string[]): Promise<SourceLocation[]> {
    const url = new URL(this.url);
    const coords = keys.map((k) => k.split(','));
    url.searchParams.set('latitude', coords.map((c) => c[0]).join(','));
    url.searchParams.set('longitude', coords.map((c) => c[1]).join(','));
    url.searchParams.set('current', VARIABLES);
    url.searchParams.set('hourly', VARIABLES);
    url.searchParams.set('forecast_hours', String(WEATHER_FORECAST_HOURS));
    url.searchParams.set('wind_speed_unit', 'ms');
    url.searchParams.set('timeformat', 'unixtime');
    url.searchParams.set('timezone', 'GMT');
    const res = await fetch(url, { signal: AbortSignal.timeout(this.timeoutMs), headers: { accept: 'application/json' } });
    if (!res.ok) throw new Error(`the source answered HTTP ${res.status}`);
    const length = Number(res.headers.get('content-length') ?? 0);
    if (length > MAX_ANSWER_BYTES) throw new Error(`the source's answer is too large (${length} bytes)`);
    const text = await res.text();
    if (text.length > MAX_ANSWER_BYTES) throw new Error(`the source's answer is too large (${text.length} characters)`);
    const json: unknown = JSON.parse(text);
    // One location is answered as an object, several as a list.
    const list = Array.isArray(json) ? json : [json];
    if (list.length !== keys.length) throw new Error(`the source answered ${list.length} locations for ${keys.length}`);
    return list.map((l, i) => {
      const parsed = SourceLocation.safeParse(l);
      if (!parsed.success) throw new Error(`location ${i} of the source's answer is not a forecast: ${parsed.error.issues[0]?.message ?? ''}`);
      return parsed.data;
    });
  }
}

function loadFailed(): AppError {
  return new AppError(Code.Failed, 'weather.loadFailed');
}

/** A point's cache key: its position rounded to 0.01°, as sent to the source. */
function keyOf(lat: number, lng: number): string {
  const round = (v: number) => (Math.round(v * 100) / 100).toFixed(2);
  return `${round(lat)},${round(lng)}`;
}

function value(v: number | null | undefined): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function forecastOf(l: SourceLocation): Entry['forecast'] {
  const c = l.current;
  const Current: WeatherValues = {
    Time: Math.round(c.time * 1000),
    Temperature: value(c.temperature_2m),
    WindSpeed: value(c.wind_speed_10m),
    WindDirection: value(c.wind_direction_10m),
    Precipitation: value(c.precipitation),
  };
  const h = l.hourly;
  const Hours: WeatherValues[] = (h?.time ?? []).slice(0, WEATHER_FORECAST_HOURS).map((t, i) => ({
    Time: Math.round(t * 1000),
    Temperature: value(h?.temperature_2m?.[i]),
    WindSpeed: value(h?.wind_speed_10m?.[i]),
    WindDirection: value(h?.wind_direction_10m?.[i]),
    Precipitation: value(h?.precipitation?.[i]),
  }));
  return { Current, Hours };
}
