/**
 * Distances on the ground, one formula for the server and the console: the haversine on a sphere of the
 * mean earth radius (IUGG's 6,371,008.8 m, @turf/helpers' earthRadius, which the fences' areas use), so a
 * circle fence's edge is where the server's evaluation and the drawing tool both put it.
 */

/** The mean earth radius, metres. */
export const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

/** The angle (radians) between two places [lng, lat] (degrees) seen from the earth's centre: the haversine. */
export function centralAngle(a: readonly [number, number], b: readonly [number, number]): number {
  const dLat = (b[1] - a[1]) * RAD;
  const dLng = (b[0] - a[0]) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a[1] * RAD) * Math.cos(b[1] * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The great-circle distance in metres between two places [lng, lat] (degrees). */
export function distanceMeters(a: readonly [number, number], b: readonly [number, number]): number {
  return EARTH_RADIUS_M * centralAngle(a, b);
}

/** Degrees kept by a computed vertex: 7 decimals, about 1 cm. */
const round7 = (x: number) => Math.round(x * 1e7) / 1e7;

/** The point `distance` m from `from` [lng, lat] towards `bearing` degrees (great circle). */
export function destination(from: readonly [number, number], distance: number, bearing: number): [number, number] {
  const d = distance / EARTH_RADIUS_M;
  const b = bearing * RAD;
  const lat1 = from[1] * RAD;
  const lng1 = from[0] * RAD;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(d) + Math.cos(lat1) * Math.sin(d) * Math.cos(b));
  const lng2 = lng1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(lat1), Math.cos(d) - Math.sin(lat1) * Math.sin(lat2));
  return [round7(((lng2 / RAD + 540) % 360) - 180), round7(lat2 / RAD)];
}

/**
 * A circle as a closed ring of `steps` vertices clockwise from north (bearings 0, 360/steps, …): how the
 * console draws a circle fence and how the fence exports write one as a polygon.
 */
export function circleRing(center: readonly [number, number], radius: number, steps = 64): [number, number][] {
  const ring: [number, number][] = [];
  for (let i = 0; i < steps; i++) ring.push(destination(center, radius, (i * 360) / steps));
  ring.push(ring[0]!);
  return ring;
}
