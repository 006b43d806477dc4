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
