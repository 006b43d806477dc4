import { lastAtOrBefore, type DecodedTrack } from '../../lib/tracks/types';
import { centralAngle, EARTH_RADIUS_M } from '@wildtrack/contract';

/**
 * What the globe draws of one track, built once per track from its typed arrays: the valid fixes only
 * (a fix marked or judged invalid is no place the animal was), each as longitude, latitude and a height.
 * Pure arithmetic, no Cesium, so it is tested without WebGL.
 */
export interface TrackLine {
  imei: string;
  /** Number of fixes kept. */
  count: number;
  /** Epoch ms of each kept fix, ascending. */
  times: Float64Array;
  /** Interleaved longitude, latitude (degrees) and height (metres above the ellipsoid): 3 × count. */
  coords: Float64Array;
  /** Whether each kept fix had an altitude of its own (1) or was put on the ground (0). */
  hasAlt: Uint8Array;
}

/**
 * The globe has no terrain (the ellipsoid is the ground), so a fix without altitude is clamped to height
 * 0. Altitudes below the ellipsoid (a seabird's barometric noise, a wrong reading) are kept as reported:
 * the line goes under the surface there rather than lying about the data.
 */
export function trackLine(track: DecodedTrack): TrackLine {
  let count = 0;
  for (let i = 0; i < track.count; i++) if (track.valid[i] !== 0) count++;
  const times = new Float64Array(count);
  const coords = new Float64Array(count * 3);
  const hasAlt = new Uint8Array(count);
  let k = 0;
  for (let i = 0; i < track.count; i++) {
    if (track.valid[i] === 0) continue;
    const alt = track.alt[i]!;
    const known = !Number.isNaN(alt);
    times[k] = track.times[i]!;
    coords[k * 3] = track.lonLat[i * 2]!;
    coords[k * 3 + 1] = track.lonLat[i * 2 + 1]!;
    coords[k * 3 + 2] = known ? alt : 0;
    hasAlt[k] = known ? 1 : 0;
    k++;
  }
  return { imei: track.imei, count, times, coords, hasAlt };
}

/**
 * Index of the fix the device is shown at for `time`: its last kept fix at or before it, as the 2D map's
 * replay does (every device at one moment, no invented positions between fixes); -1 before the first.
 */
export function fixAt(line: TrackLine, time: number): number {
  return lastAtOrBefore(line.times, line.count, time);
}

/**
 * The vertices of a track's line: its fixes, with points added along the great circle of every hop
 * longer than `maxHop` metres (a day's migration between two fixes would otherwise be a chord through
 * the Earth), and a fix that repeats the previous place exactly drawn at the same vertex. `vertexOf`
 * maps each fix to its vertex, so a replay can say how far along the line the clock is.
 */
export interface TrackPath {
  /** Number of vertices. */
  count: number;
  /** Interleaved longitude, latitude (degrees) and height (metres): 3 × count. */
  coords: Float64Array;
  /** The vertex of each fix of the line (line.count entries, ascending). */
  vertexOf: Uint32Array;
}

const RAD = Math.PI / 180;

export function trackPath(line: TrackLine, maxHop = 100_000): TrackPath {
  const c = line.coords;
  const vertexOf = new Uint32Array(line.count);
  const out: number[] = [];
  let vertices = 0;
  for (let i = 0; i < line.count; i++) {
    const lon = c[i * 3]!;
    const lat = c[i * 3 + 1]!;
    const h = c[i * 3 + 2]!;
    if (i > 0) {
      const plon = c[i * 3 - 3]!;
      const plat = c[i * 3 - 2]!;
      const ph = c[i * 3 - 1]!;
      if (lon === plon && lat === plat && h === ph) {
        vertexOf[i] = vertices - 1;
        continue;
      }
      const angle = centralAngle([plon, plat], [lon, lat]);
      const steps = Math.ceil((angle * EARTH_RADIUS_M) / maxHop);
      for (let k = 1; k < steps; k++) {
        const [ilon, ilat] = slerp(plon, plat, lon, lat, angle, k / steps);
        out.push(ilon, ilat, ph + ((h - ph) * k) / steps);
        vertices++;
      }
    }
    out.push(lon, lat, h);
    vertexOf[i] = vertices++;
  }
  return { count: vertices, coords: Float64Array.from(out), vertexOf };
}

/**
 * How far along the path (0 at its first vertex, 1 at its last) the device is at `time`: the vertex of
 * its fix then, moved on towards the next fix in proportion to the time between them, as the 2D map's
 * trail grows between fixes. -1 before the first fix; 1 with no time (the whole track).
 */
export function pathProgress(line: TrackLine, path: TrackPath, time: number | null): number {
  if (time === null || path.count < 2) return 1;
  const index = fixAt(line, time);
  if (index < 0) return -1;
  let vertex = path.vertexOf[index]!;
  if (index < line.count - 1) {
    const span = line.times[index + 1]! - line.times[index]!;
    const f = span > 0 ? (time - line.times[index]!) / span : 0;
    vertex += (path.vertexOf[index + 1]! - vertex) * f;
  }
  return vertex / (path.count - 1);
}

/** The point a fraction `f` of the way along the great circle between two places `angle` radians apart. */
function slerp(lon1: number, lat1: number, lon2: number, lat2: number, angle: number, f: number): [number, number] {
  const sin = Math.sin(angle);
  // Antipodes: no great circle is the one; stay at the nearer end.
  if (sin < 1e-12) return f < 0.5 ? [lon1, lat1] : [lon2, lat2];
  const a = Math.sin((1 - f) * angle) / sin;
  const b = Math.sin(f * angle) / sin;
  const x = a * Math.cos(lat1 * RAD) * Math.cos(lon1 * RAD) + b * Math.cos(lat2 * RAD) * Math.cos(lon2 * RAD);
  const y = a * Math.cos(lat1 * RAD) * Math.sin(lon1 * RAD) + b * Math.cos(lat2 * RAD) * Math.sin(lon2 * RAD);
  const z = a * Math.sin(lat1 * RAD) + b * Math.sin(lat2 * RAD);
  return [Math.atan2(y, x) / RAD, Math.atan2(z, Math.hypot(x, y)) / RAD];
}

/**
 * §9 gives the map's default view as a zoom level (2) around a centre; the globe has a camera height
 * instead. At zoom z a web-mercator pixel spans 156 543 / 2^z metres at the equator: the height at which
 * a viewport of `viewportPx` pixels shows that many metres through a vertical field of view `fovy`.
 */
export function heightForZoom(zoom: number, viewportPx: number, fovy = Math.PI / 3): number {
  const metresPerPixel = 156_543.03392 / 2 ** zoom;
  return (viewportPx * metresPerPixel) / 2 / Math.tan(fovy / 2);
}
