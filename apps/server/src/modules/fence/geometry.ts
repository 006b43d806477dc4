import area from '@turf/area';
import { closeRing, distanceMeters, EARTH_RADIUS_M, FENCE_TYPE, type FenceShape, type LngLat, openRing } from '@wildtrack/contract';

const RAD = Math.PI / 180;

/** The shape as stored and answered: a polygon's ring closed. */
export function normaliseShape(shape: FenceShape): FenceShape {
  return shape.Type === 'Polygon' ? { Type: 'Polygon', Coordinates: closeRing(shape.Coordinates) } : { ...shape, Center: [shape.Center[0], shape.Center[1]] };
}

/**
 * Whether a polygon ring crosses itself: @turf/kinks's answer on the closed ring (its test of each pair of
 * segments, neighbours skipped, touching ends counted, parallel ones not), without its every-pair loop:
 * kinks compares all n² pairs and builds an object per pair (340 ms for 5,000 vertices, 49 s for a
 * shapefile of 120 such rings); here only segments whose bounding boxes meet are tested, found by a sweep
 * over x, and the first crossing ends it. geometry.test.ts compares both on random rings.
 */
export function selfIntersects(ring: readonly LngLat[]): boolean {
  const closed = closeRing(ring);
  const m = closed.length - 1;
  if (m < 3) return false;
  const x0 = new Float64Array(m), y0 = new Float64Array(m), x1 = new Float64Array(m), y1 = new Float64Array(m);
  const minX = new Float64Array(m), maxX = new Float64Array(m), minY = new Float64Array(m), maxY = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    const a = closed[i]!, b = closed[i + 1]!;
    x0[i] = a[0]; y0[i] = a[1]; x1[i] = b[0]; y1[i] = b[1];
    minX[i] = Math.min(a[0], b[0]); maxX[i] = Math.max(a[0], b[0]);
    minY[i] = Math.min(a[1], b[1]); maxY[i] = Math.max(a[1], b[1]);
  }
  // A margin far below any position's precision: a pair whose boxes miss by less is still tested exactly.
  const EPS = 1e-9;
  const order = Array.from({ length: m }, (_, i) => i).sort((a, b) => minX[a]! - minX[b]!);
  for (let p = 0; p < m; p++) {
    const i = order[p]!;
    const reach = maxX[i]! + EPS;
    for (let q = p + 1; q < m; q++) {
      const k = order[q]!;
      if (minX[k]! > reach) break;
      if (minY[k]! > maxY[i]! + EPS || maxY[k]! < minY[i]! - EPS) continue;
      const lo = Math.min(i, k), hi = Math.max(i, k);
      // neighbours share a vertex; so do the first and the last segment of the closed ring
      if (hi - lo === 1 || (lo === 0 && hi === m - 1)) continue;
      if (segmentsMeet(x0[lo]!, y0[lo]!, x1[lo]!, y1[lo]!, x0[hi]!, y0[hi]!, x1[hi]!, y1[hi]!)) return true;
    }
  }
  return false;
}

/** @turf/kinks's test of two segments, the same arithmetic: not parallel, and meeting within both. */
function segmentsMeet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const denominator = (dy - cy) * (bx - ax) - (dx - cx) * (by - ay);
  if (denominator === 0) return false;
  const a0 = ay - cy;
  const b0 = ax - cx;
  const a = ((dx - cx) * a0 - (dy - cy) * b0) / denominator;
  const b = ((bx - ax) * a0 - (by - ay) * b0) / denominator;
  return a >= 0 && a <= 1 && b >= 0 && b <= 1;
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

/** A fence's stored geometry: its type, its shape as stored and answered (JSON, a polygon's ring closed), box and area. */
export interface FenceGeometry {
  type: 1 | 2;
  shape: string;
  bbox: [number, number, number, number];
  area: number;
  /** A polygon's vertices (the closing repetition not counted); 0 for a circle. */
  vertices: number;
}

/** The stored geometry of a checked shape (a shapefile import's worker makes it beside the reading: shp.ts). */
export function fenceGeometry(shape: FenceShape): FenceGeometry {
  const normal = normaliseShape(shape);
  const vertices = normal.Type === 'Polygon' ? normal.Coordinates.length - 1 : 0;
  return { type: typeOf(normal), shape: JSON.stringify(normal), bbox: bboxOf(normal), area: areaOf(normal), vertices };
}

/**
 * A shape ready for many point tests: a ring as one flat array with its edges grouped by latitude band
 * (band b of `bands` between minY and maxY lists, from `bandEdges[bandStart[b]]` to `bandEdges[bandStart[b + 1]]`,
 * the edges whose latitudes meet it: a ray at a latitude can cross only those), or a circle.
 */
export type CompiledShape =
  | { kind: 'polygon'; xy: Float64Array; minY: number; maxY: number; bands: number; bandStart: Int32Array; bandEdges: Int32Array }
  | { kind: 'circle'; center: LngLat; radius: number };

export function compile(shape: FenceShape): CompiledShape {
  if (shape.Type === 'Circle') return { kind: 'circle', center: [shape.Center[0], shape.Center[1]], radius: shape.Radius };
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
 * answer as over every edge) or within the circle's radius (the contract's distanceMeters).
 */
export function contains(s: CompiledShape, lng: number, lat: number): boolean {
  if (s.kind === 'circle') return distanceMeters(s.center, [lng, lat]) <= s.radius;
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
