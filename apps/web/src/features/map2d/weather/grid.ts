import { WEATHER_GRID_MAX_POINTS } from '@wildtrack/contract';

/**
 * Where the weather layer asks for the weather: a coarse grid over the visible map. The grid's step is a
 * round number of degrees (about an eighth of the view's width) and its points are its multiples, so a small
 * pan asks mostly the same points again (the server keeps them) and the same view gives the same grid on
 * every console.
 */

export interface Bounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

export interface GridPoint {
  lat: number;
  lng: number;
}

/** Round steps in degrees, finest first. */
const STEPS = [0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 2.5, 3, 4, 5, 10, 15, 20, 30];
/** At most this many columns across the view (a laptop's map: 6-8 columns, 3-5 rows). */
const COLUMNS = 8;
/** Latitudes beyond this are left out (Web Mercator draws nothing past ±85°). */
const LAT_LIMIT = 85;

/** The step for a view `width` degrees wide: the finest round step that gives at most COLUMNS columns. */
export function gridStep(width: number): number {
  return STEPS.find((s) => width / s <= COLUMNS + 1e-6) ?? STEPS[STEPS.length - 1]!;
}

/** Wraps a longitude into -180..180. */
export function wrapLng(lng: number): number {
  const w = ((((lng + 180) % 360) + 360) % 360) - 180;
  return w === -180 && lng > 0 ? 180 : w;
}

/**
 * The grid's points over the view: cell centres (half a step off the multiples) inside the bounds, rows
 * north to south, at most WEATHER_GRID_MAX_POINTS (the contract's bound), longitudes wrapped into -180..180.
 */
export function gridPoints(bounds: Bounds): GridPoint[] {
  const width = Math.min(360, Math.max(0, bounds.east - bounds.west));
  const height = Math.max(0, Math.min(bounds.north, LAT_LIMIT) - Math.max(bounds.south, -LAT_LIMIT));
  const step = gridStep(Math.max(width, height * 1.5));
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  const lats: number[] = [];
  for (let lat = Math.floor(Math.min(bounds.north, LAT_LIMIT) / step) * step - step / 2; lat > Math.max(bounds.south, -LAT_LIMIT); lat -= step) {
    if (lat <= Math.min(bounds.north, LAT_LIMIT)) lats.push(round(lat));
  }
  const lngs: number[] = [];
  const seen = new Set<number>();
  for (let lng = Math.floor(bounds.west / step) * step + step / 2; lng < bounds.west + width; lng += step) {
    if (lng < bounds.west) continue;
    const wrapped = round(wrapLng(lng));
    if (!seen.has(wrapped)) {
      seen.add(wrapped);
      lngs.push(wrapped);
    }
  }
  const points: GridPoint[] = [];
  for (const lat of lats) for (const lng of lngs) points.push({ lat, lng });
  return points.slice(0, WEATHER_GRID_MAX_POINTS);
}

/** A temperature's colour on the legend's scale (°C): violet cold, through blue, green and yellow, to red hot. */
export const TEMPERATURE_STOPS: readonly (readonly [number, string])[] = [
  [-30, '#6a3d9a'],
  [-15, '#1f78b4'],
  [0, '#a6cee3'],
  [10, '#33a02c'],
  [20, '#ffd92f'],
  [30, '#ff7f00'],
  [40, '#e31a1c'],
];

export function temperatureColor(celsius: number | null): string {
  if (celsius === null) return '#9e9e9e';
  const stops = TEMPERATURE_STOPS;
  if (celsius <= stops[0]![0]) return stops[0]![1];
  for (let i = 1; i < stops.length; i++) {
    const [t, colour] = stops[i]!;
    if (celsius < t) return mix(stops[i - 1]![1], colour, (celsius - stops[i - 1]![0]) / (t - stops[i - 1]![0]));
  }
  return stops[stops.length - 1]![1];
}

function mix(a: string, b: string, f: number): string {
  const ch = (hex: string, i: number) => parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16);
  const out = [0, 1, 2].map((i) => Math.round(ch(a, i) + (ch(b, i) - ch(a, i)) * f).toString(16).padStart(2, '0'));
  return `#${out.join('')}`;
}

/** The 16-point compass name of a direction in degrees (0 = N, 90 = E), as the i18n key's last part. */
export const COMPASS = ['N', 'NNE', 'NE', 'ENE', 'E', 'ESE', 'SE', 'SSE', 'S', 'SSW', 'SW', 'WSW', 'W', 'WNW', 'NW', 'NNW'] as const;

export function compassPoint(degrees: number): (typeof COMPASS)[number] {
  return COMPASS[Math.round((((degrees % 360) + 360) % 360) / 22.5) % 16]!;
}
