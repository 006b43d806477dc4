/** Small-area geodesy and the sun, enough for believable tracks and day cycles (not for navigation). */

export const MINUTE = 60_000;
export const HOUR = 3_600_000;
export const DAY = 86_400_000;
const R = 6_371_008.8;
const RAD = Math.PI / 180;

export interface LonLat {
  lon: number;
  lat: number;
}

/** Moves a point by metres east and north. */
export function offset(p: LonLat, east: number, north: number): LonLat {
  const lat = p.lat + (north / R) / RAD;
  const lon = p.lon + (east / (R * Math.cos(p.lat * RAD))) / RAD;
  return { lon, lat };
}

/** Metres east and north of `to` as seen from `from` (equirectangular, fine within tens of km). */
export function enu(from: LonLat, to: LonLat): { east: number; north: number } {
  return {
    east: (to.lon - from.lon) * RAD * R * Math.cos(((from.lat + to.lat) / 2) * RAD),
    north: (to.lat - from.lat) * RAD * R,
  };
}

export function distance(a: LonLat, b: LonLat): number {
  const dLat = (b.lat - a.lat) * RAD;
  const dLon = (b.lon - a.lon) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * RAD) * Math.cos(b.lat * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** A point a fraction f of the way along the great circle from a to b. */
export function interpolate(a: LonLat, b: LonLat, f: number): LonLat {
  const d = distance(a, b) / R;
  if (d < 1e-9) return { ...a };
  const A = Math.sin((1 - f) * d) / Math.sin(d);
  const B = Math.sin(f * d) / Math.sin(d);
  const x = A * Math.cos(a.lat * RAD) * Math.cos(a.lon * RAD) + B * Math.cos(b.lat * RAD) * Math.cos(b.lon * RAD);
  const y = A * Math.cos(a.lat * RAD) * Math.sin(a.lon * RAD) + B * Math.cos(b.lat * RAD) * Math.sin(b.lon * RAD);
  const z = A * Math.sin(a.lat * RAD) + B * Math.sin(b.lat * RAD);
  return { lat: Math.atan2(z, Math.hypot(x, y)) / RAD, lon: Math.atan2(y, x) / RAD };
}

/** Degrees clockwise from north of a vector (east, north), in [0, 360). */
export function bearingOf(east: number, north: number): number {
  const b = Math.atan2(east, north) / RAD;
  return b < 0 ? b + 360 : b;
}

/** Smallest signed difference a - b of two angles in degrees, in (-180, 180]. */
export function angleDiff(a: number, b: number): number {
  let d = (a - b) % 360;
  if (d > 180) d -= 360;
  if (d <= -180) d += 360;
  return d;
}

export function wrap360(a: number): number {
  const r = a % 360;
  return r < 0 ? r + 360 : r;
}

export function dayOfYear(t: number): number {
  const d = new Date(t);
  return Math.floor((t - Date.UTC(d.getUTCFullYear(), 0, 1)) / DAY) + 1;
}

/** Local mean solar time in hours [0, 24): the clock the animals live by. */
export function solarHour(t: number, lon: number): number {
  const h = (t / HOUR + lon / 15) % 24;
  return h < 0 ? h + 24 : h;
}

/** Start (epoch ms) of the local solar day containing t. */
export function solarDayStart(t: number, lon: number): number {
  return t - solarHour(t, lon) * HOUR;
}

/** Elevation of the sun above the horizon in degrees (declination and hour angle; no equation of time). */
export function sunElevation(t: number, p: LonLat): number {
  const decl = 23.44 * RAD * Math.sin((2 * Math.PI * (284 + dayOfYear(t))) / 365);
  const ha = (solarHour(t, p.lon) - 12) * 15 * RAD;
  const lat = p.lat * RAD;
  const s = Math.sin(lat) * Math.sin(decl) + Math.cos(lat) * Math.cos(decl) * Math.cos(ha);
  return Math.asin(Math.max(-1, Math.min(1, s))) / RAD;
}

/** Smooth pseudo-terrain: a base height plus a few sine ridges (metres), stable in space. */
export function terrain(p: LonLat, base: number, relief: number): number {
  if (relief === 0) return base;
  const x = p.lon * 40;
  const y = p.lat * 40;
  const h =
    0.5 * Math.sin(x * 1.3 + Math.sin(y * 0.7)) +
    0.3 * Math.sin(y * 2.1 + 1.7) * Math.cos(x * 0.9) +
    0.2 * Math.sin((x + y) * 3.7 + 0.4);
  return base + relief * (0.5 + 0.5 * h);
}
