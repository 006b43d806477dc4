/**
 * The shapes a fence is drawn as (§3 Fence Type: Polygon, Circle) and what the screen says about them: the
 * area on the ground while it is drawn, computed as the server computes the stored Area (@turf/area's
 * spherical sum on the mean earth radius; a circle's is πr²), so the live figure and the listed one agree,
 * and that area in the unit that reads best.
 */

import { circleRing, closeRing, EARTH_RADIUS_M, openRing, type FenceShape, type LngLat } from '@wildtrack/contract';

export type { FenceShape, LngLat };
/** A circle as a closed ring (contract geodesy.ts: the server's fence exports write the same ring). */
export { circleRing };

const RAD = Math.PI / 180;

/**
 * The area of a ring on the sphere, m² (the spherical-excess sum of Chamberlain and Duquette, "Some
 * algorithms for polygons on a sphere", 2007: the one GIS tools use for lon/lat rings). Either winding.
 */
export function ringArea(ring: readonly LngLat[]): number {
  const pts = openRing(ring);
  const n = pts.length;
  if (n < 3) return 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const lower = pts[i]!;
    const middle = pts[(i + 1) % n]!;
    const upper = pts[(i + 2) % n]!;
    total += (upper[0] - lower[0]) * RAD * Math.sin(middle[1] * RAD);
  }
  return Math.abs((total * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2);
}

/** A circle's area, πr² (as the server stores it). */
export function circleArea(radius: number): number {
  if (!(radius > 0)) return 0;
  return Math.PI * radius * radius;
}

export function shapeArea(shape: FenceShape): number {
  return shape.Type === 'Circle' ? circleArea(shape.Radius) : ringArea(shape.Coordinates);
}

/** A shape as a closed GeoJSON ring. */
export function closedRing(shape: FenceShape): LngLat[] {
  return shape.Type === 'Circle' ? circleRing(shape.Center, shape.Radius) : closeRing(shape.Coordinates);
}

/** [west, south, east, north] of a shape. */
export function shapeBounds(shape: FenceShape): [number, number, number, number] {
  const ring = closedRing(shape);
  let w = 180;
  let s = 90;
  let e = -180;
  let n = -90;
  for (const [x, y] of ring) {
    w = Math.min(w, x);
    e = Math.max(e, x);
    s = Math.min(s, y);
    n = Math.max(n, y);
  }
  return [w, s, e, n];
}

export type AreaUnit = 'm2' | 'ha' | 'km2';

/** The unit an area reads best in: m² below a hectare, hectares below 1 km², else km². */
export function areaUnit(m2: number): AreaUnit {
  if (m2 < 10_000) return 'm2';
  if (m2 < 1_000_000) return 'ha';
  return 'km2';
}

/** An area in its unit's number, with at most 3 significant decimals as the size allows. */
export function areaValue(m2: number): { value: number; unit: AreaUnit; digits: number } {
  const unit = areaUnit(m2);
  const value = unit === 'm2' ? m2 : unit === 'ha' ? m2 / 10_000 : m2 / 1_000_000;
  const digits = unit === 'm2' || value >= 100 ? 0 : value >= 10 ? 1 : 2;
  return { value, unit, digits };
}
