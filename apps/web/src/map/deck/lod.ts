import { relativeSeconds, type BinaryPath, type DrawnTrack } from './trackData';

/**
 * What of a large track is worth drawing at the current view. A GPU draws a million segments easily, a
 * software renderer (a browser without GPU, a remote desktop) takes seconds a frame and blocks the page;
 * either way most of them fall within one pixel at low zoom or outside the screen at high zoom. So a
 * large track is drawn from:
 *  - the points whose segments touch the region around the view (the rest culled, the path broken
 *    there into separate runs so no shortcut is drawn across the screen), and
 *  - within each run, only points at least `tolerancePx` from the last one kept (a greedy radial pass:
 *    the line drawn stays within that distance of the real one).
 * One linear pass over the typed arrays, no object per point; the picked indices map back to the track.
 */

/** Below this zoom the whole world is about in view: nothing is culled. */
export const LOD_CULL_FROM_ZOOM = 4;

export interface LodView {
  /** Integer zoom the tolerance is computed for (the finer end of the current zoom's bucket). */
  zoom: number;
  /** [west, south, east, north] of the region drawn (unwrapped longitudes allowed); null: no culling. */
  region: [number, number, number, number] | null;
}

export interface TrackLod {
  data: BinaryPath;
  /** The drawn track's index of each kept point (for picking and colours). */
  kept: Uint32Array;
  /** Kept points, interleaved lon, lat (the same buffer as the path's). */
  lonLat: Float64Array;
}

/** Degrees of longitude per screen pixel at an integer zoom (MapLibre: 512-pixel world at zoom 0). */
export function degreesPerPixel(zoom: number): number {
  return 360 / (512 * 2 ** zoom);
}

/** The view of a map to draw large tracks for: the region is the viewport grown by its size on each side. */
export function lodView(zoom: number, bounds: [number, number, number, number]): LodView {
  const z = Math.max(0, Math.floor(zoom) + 1);
  if (zoom < LOD_CULL_FROM_ZOOM) return { zoom: z, region: null };
  const [w, s, e, n] = bounds;
  const dx = e - w;
  const dy = n - s;
  return { zoom: z, region: [w - dx, Math.max(-90, s - dy), e + dx, Math.min(90, n + dy)] };
}

/** Whether the view still fits the region a LOD was made for (same zoom bucket, viewport inside). */
export function lodStillFits(lod: LodView, zoom: number, bounds: [number, number, number, number]): boolean {
  if (Math.max(0, Math.floor(zoom) + 1) !== lod.zoom) return false;
  if (zoom < LOD_CULL_FROM_ZOOM) return lod.region === null;
  if (!lod.region) return false;
  const [w, s, e, n] = lod.region;
  return bounds[0] >= w && bounds[2] <= e && bounds[1] >= s && bounds[3] <= n;
}

export function trackLod(track: DrawnTrack, view: LodView, base: number, tolerancePx = 0.75): TrackLod {
  const n = track.count;
  const ll = track.lonLat;
  const tol = degreesPerPixel(view.zoom) * tolerancePx;
  const region = view.region;
  const [w, s, e, nn] = region ?? [0, 0, 0, 0];
  // Whether the segment from point a to point b touches the region (its bounding box, longitudes also
  // tried a world to either side since the view's may be unwrapped).
  const near = (a: number, b: number): boolean => {
    if (!region) return true;
    if (a < 0 || b >= n) return false;
    const lon1 = ll[a * 2]!;
    const lat1 = ll[a * 2 + 1]!;
    const lon2 = ll[b * 2]!;
    const lat2 = ll[b * 2 + 1]!;
    if (Math.max(lat1, lat2) < s || Math.min(lat1, lat2) > nn) return false;
    const lo = Math.min(lon1, lon2);
    const hi = Math.max(lon1, lon2);
    return (hi >= w && lo <= e) || (hi + 360 >= w && lo + 360 <= e) || (hi - 360 >= w && lo - 360 <= e);
  };

  const keep = new Uint32Array(n);
  const starts: number[] = [];
  let k = 0;
  let inRun = false;
  let lastLon = 0;
  let lastLat = 0;
  let lastSec = 1;
  let nearNext = near(0, 1);
  for (let i = 0; i < n; i++) {
    const nearPrev = i > 0 && nearNext;
    nearNext = near(i, i + 1);
    if (!nearPrev && !nearNext) {
      if (inRun) {
        if (keep[k - 1] !== i - 1) keep[k++] = i - 1;
        inRun = false;
      }
      continue;
    }
    const lon = ll[i * 2]!;
    const lat = ll[i * 2 + 1]!;
    if (inRun) {
      // Web Mercator stretches latitude by 1/cos(lat): a degree of latitude is that many pixels more.
      if (Math.abs(lon - lastLon) < tol && Math.abs(lat - lastLat) * lastSec < tol) continue;
    } else {
      starts.push(k);
      inRun = true;
    }
    keep[k++] = i;
    lastLon = lon;
    lastLat = lat;
    lastSec = 1 / Math.max(0.05, Math.cos((lat * Math.PI) / 180));
  }
  if (inRun && k > 0 && keep[k - 1] !== n - 1) keep[k++] = n - 1;

  const kept = keep.slice(0, k);
  const lonLat = new Float64Array(k * 2);
  const times = new Float64Array(k);
  for (let j = 0; j < k; j++) {
    const i = kept[j]!;
    lonLat[j * 2] = ll[i * 2]!;
    lonLat[j * 2 + 1] = ll[i * 2 + 1]!;
    times[j] = track.times[i]!;
  }
  const startIndices = new Uint32Array(starts.length + 1);
  startIndices.set(starts);
  startIndices[starts.length] = k;
  return {
    data: {
      length: starts.length,
      startIndices,
      attributes: { getPath: { value: lonLat, size: 2 }, getTimestamps: { value: relativeSeconds(times, k, base), size: 1 } },
    },
    kept,
    lonLat,
  };
}

/** The kept points' colours, gathered from the whole track's (RGBA bytes). */
export function gatherColors(colors: Uint8Array, kept: Uint32Array): Uint8Array {
  const out = new Uint8Array(kept.length * 4);
  for (let j = 0; j < kept.length; j++) {
    const o = kept[j]! * 4;
    out[j * 4] = colors[o]!;
    out[j * 4 + 1] = colors[o + 1]!;
    out[j * 4 + 2] = colors[o + 2]!;
    out[j * 4 + 3] = colors[o + 3]!;
  }
  return out;
}

/**
 * Segments a frame can draw smoothly. A GPU takes hundreds of thousands; a software renderer
 * (SwiftShader, llvmpipe: a browser without GPU, a virtual machine, a remote desktop) a few thousand,
 * and there the page waits for each frame (the compositor reads the canvas back), so more would block
 * it for seconds.
 */
export const GPU_SEGMENT_BUDGET = 400_000;
export const SOFTWARE_SEGMENT_BUDGET = 2_500;

export function isSoftwareRenderer(renderer: string): boolean {
  return /swiftshader|llvmpipe|softpipe|software|basic render/i.test(renderer);
}

/** The WebGL renderer's name of a canvas that has a context ('' when it can't be told). */
export function rendererName(canvas: HTMLCanvasElement): string {
  try {
    const gl = (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) as WebGLRenderingContext | null;
    if (!gl) return '';
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    return String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER) ?? '');
  } catch {
    return '';
  }
}

/** Up to this many tries of a coarser tolerance to fit the budget (each one pass over the tracks). */
const FIT_TRIES = 4;

/**
 * Every track at the detail the view needs, within the budget of segments: the finest tolerance first,
 * then coarser ones (estimated from how far over the budget the last try was) until the tracks fit.
 */
export function tracksLod(tracks: readonly DrawnTrack[], view: LodView, base: number, budget: number, tolerancePx = 0.75): TrackLod[] {
  let tol = tolerancePx;
  let lods = tracks.map((t) => trackLod(t, view, base, tol));
  for (let attempt = 0; attempt < FIT_TRIES; attempt++) {
    const kept = lods.reduce((n, l) => n + l.kept.length, 0);
    if (kept <= budget) break;
    tol *= Math.max(1.25, (kept / budget) * 1.2);
    lods = tracks.map((t) => trackLod(t, view, base, tol));
  }
  return lods;
}
