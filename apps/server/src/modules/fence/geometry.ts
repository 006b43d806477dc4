import area from '@turf/area';
import kinks from '@turf/kinks';
import { closeRing, FENCE_TYPE, type FenceShape, type LngLat, openRing } from '@wildtrack/contract';

/** Mean Earth radius (m), the haversine's. */
const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

/** Great-circle distance in metres between two [lng, lat] positions. */
export function haversine(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The shape as stored and answered: a polygon's ring closed. */
export function normaliseShape(shape: FenceShape): FenceShape {
  return shape.Type === 'Polygon' ? { Type: 'Polygon', Coordinates: closeRing(shape.Coordinates) } : { ...shape, Center: [shape.Center[0], shape.Center[1]] };
}

/** Whether a polygon ring crosses itself (@turf/kinks on the closed ring). */
export function selfIntersects(ring: readonly LngLat[]): boolean {
  const closed = closeRing(ring);
  return kinks({ type: 'Polygon', coordinates: [closed] }).features.length > 0;
}

/** Geodesic area in m² (@turf/area; a circle's is πr²). */
export function areaOf(shape: FenceShape): number {
  if (shape.Type === 'Circle') return Math.PI * shape.Radius * shape.Radius;
  return area({ type: 'Polygon', coordinates: [closeRing(shape.Coordinates)] });
}

/** The shape's bounding box [minLng, minLat, maxLng, maxLat]; a circle's from its radius in degrees. */
export function bboxOf(shape: FenceShape): [number, number, number, number] {
  if (shape.Type === 'Circle') {
    const [lng, lat] = shape.Center;
    const dLat = shape.Radius / (EARTH_RADIUS_M * RAD);
    const cos = Math.cos(lat * RAD);
    const dLng = cos < 1e-9 ? 180 : Math.min(180, dLat / cos);
    return [Math.max(-180, lng - dLng), Math.max(-90, lat - dLat), Math.min(180, lng + dLng), Math.min(90, lat + dLat)];
  }
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (const [x, y] of shape.Coordinates) {
    if (x < minX) minX = x;
    if (y < minY) minY = y;
    if (x > maxX) maxX = x;
    if (y > maxY) maxY = y;
  }
  return [minX, minY, maxX, maxY];
}

export function typeOf(shape: FenceShape): 1 | 2 {
  return shape.Type === 'Polygon' ? FENCE_TYPE.Polygon : FENCE_TYPE.Circle;
}

/**
 * A shape ready for many point tests: a ring as one flat array with its edges grouped by latitude band
 * (band b of `bands` between minY and maxY lists, from `bandEdges[bandStart[b]]` to `bandEdges[bandStart[b + 1]]`,
 * the edges whose latitudes meet it: a ray at a latitude can cross only those), or a circle.
 */
export type CompiledShape =
  | { kind: 'polygon'; xy: Float64Array; minY: number; maxY: number; bands: number; bandStart: Int32Array; bandEdges: Int32Array }
  | { kind: 'circle'; lng: number; lat: number; radius: number };

export function compile(shape: FenceShape): CompiledShape {
  if (shape.Type === 'Circle') return { kind: 'circle', lng: shape.Center[0], lat: shape.Center[1], radius: shape.Radius };
  const ring = openRing(shape.Coordinates);
  const n = ring.length;
  const xy = new Float64Array(n * 2);
  let minY = Infinity, maxY = -Infinity;
  ring.forEach(([x, y], i) => {
    xy[2 * i] = x;
    xy[2 * i + 1] = y;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  });
  const bands = Math.max(1, Math.min(256, n >> 2));
  const span = maxY - minY || 1;
  const bandOf = (y: number) => Math.min(bands - 1, Math.max(0, Math.floor(((y - minY) / span) * bands)));
  const lists: number[][] = Array.from({ length: bands }, () => []);
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const a = bandOf(Math.min(xy[2 * i + 1]!, xy[2 * j + 1]!));
    const b = bandOf(Math.max(xy[2 * i + 1]!, xy[2 * j + 1]!));
    for (let k = a; k <= b; k++) lists[k]!.push(i);
  }
  const bandStart = new Int32Array(bands + 1);
  lists.forEach((l, k) => (bandStart[k + 1] = bandStart[k]! + l.length));
  const bandEdges = Int32Array.from(lists.flat());
  return { kind: 'polygon', xy, minY, maxY, bands, bandStart, bandEdges };
}

/**
 * Point in polygon (even-odd ray casting on lng/lat, over the edges of the point's latitude band: the same
 * answer as over every edge) or within the circle's radius (haversine).
 */
export function contains(s: CompiledShape, lng: number, lat: number): boolean {
  if (s.kind === 'circle') return haversine(s.lng, s.lat, lng, lat) <= s.radius;
  if (!(lat >= s.minY && lat <= s.maxY)) return false;
  const xy = s.xy;
  const n = xy.length / 2;
  const band = Math.min(s.bands - 1, Math.floor(((lat - s.minY) / (s.maxY - s.minY || 1)) * s.bands));
  let inside = false;
  for (let e = s.bandStart[band]!, end = s.bandStart[band + 1]!; e < end; e++) {
    const i = s.bandEdges[e]!;
    const j = i === 0 ? n - 1 : i - 1;
    const xi = xy[2 * i]!, yi = xy[2 * i + 1]!, xj = xy[2 * j]!, yj = xy[2 * j + 1]!;
    if (yi > lat !== yj > lat && lng < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
