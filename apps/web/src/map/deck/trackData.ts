import { indexAtTime, type DecodedTrack } from '../../lib/tracks/types';

/**
 * What the track layers draw, built from a DecodedTrack's typed arrays as they are: positions are handed
 * to deck.gl as the track's own Float64Array (deck.gl's binary attributes), and the few per-point columns
 * deck.gl needs besides (times as float seconds, colours) are filled in one pass over typed arrays. No
 * per-point object and no GeoJSON is ever built, so a million points cost a few milliseconds here.
 */

export type Rgba = [number, number, number, number];
export type Rgb = [number, number, number];

/** Distinct colours for devices, in the order they are chosen (blue, orange, green, red, ...). */
export const DEVICE_PALETTE: readonly Rgb[] = [
  [22, 119, 255],
  [250, 140, 22],
  [19, 194, 194],
  [245, 34, 45],
  [114, 46, 209],
  [82, 196, 26],
  [235, 47, 150],
  [250, 219, 20],
  [47, 84, 235],
  [140, 140, 140],
];

export function deviceColor(index: number): Rgb {
  return DEVICE_PALETTE[((index % DEVICE_PALETTE.length) + DEVICE_PALETTE.length) % DEVICE_PALETTE.length]!;
}

export function cssColor([r, g, b]: Rgb): string {
  return `rgb(${r}, ${g}, ${b})`;
}

/** Precision grade 1..7 (A..E, then N): green for A through red for E, grey for N and unknown. */
export const GRADE_COLORS: readonly Rgb[] = [
  [160, 160, 160], // 0 unknown
  [56, 158, 13], // A
  [124, 179, 66], // B
  [250, 173, 20], // C
  [250, 110, 20], // D
  [207, 19, 34], // E
  [140, 140, 140], // N
  [140, 140, 140], // N
];
const INVALID_COLOR: Rgb = [190, 190, 190];

/** A track as the layers draw it: only points that can be drawn; `source` maps each back to the track. */
export type DrawnTrack = DecodedTrack & {
  /** The index in the decoded track of each drawn point; null when every point is drawn (no copy). */
  source: Uint32Array | null;
};

const onEarth = (lon: number, lat: number): boolean => lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90;

const drawnCache = new WeakMap<DecodedTrack, { includeInvalid: boolean; drawn: DrawnTrack }>();

/**
 * The points of a track that a map can draw: a fix outside the earth's range (§5 calls it invalid) has
 * no place on it, and invalid fixes are left out unless asked for (a table beside the map shows them
 * greyed). When nothing is left out the track's own arrays are used; otherwise one compacting pass.
 */
export function drawable(track: DecodedTrack, includeInvalid = false): DrawnTrack {
  const cached = drawnCache.get(track);
  if (cached && cached.includeInvalid === includeInvalid) return cached.drawn;
  const n = track.count;
  const ll = track.lonLat;
  const keep = (i: number): boolean => (includeInvalid || track.valid[i] === 1) && onEarth(ll[i * 2]!, ll[i * 2 + 1]!);
  let kept = 0;
  for (let i = 0; i < n; i++) if (keep(i)) kept++;
  let drawn: DrawnTrack;
  if (kept === n) drawn = { ...track, source: null };
  else {
    const source = new Uint32Array(kept);
    const times = new Float64Array(kept);
    const lonLat = new Float64Array(kept * 2);
    const alt = new Float32Array(kept);
    const grade = new Uint8Array(kept);
    const valid = new Uint8Array(kept);
    const averaged = new Uint8Array(kept);
    let j = 0;
    for (let i = 0; i < n; i++) {
      if (!keep(i)) continue;
      source[j] = i;
      times[j] = track.times[i]!;
      lonLat[j * 2] = ll[i * 2]!;
      lonLat[j * 2 + 1] = ll[i * 2 + 1]!;
      alt[j] = track.alt[i]!;
      grade[j] = track.grade[i]!;
      valid[j] = track.valid[i]!;
      averaged[j] = track.averaged[i]!;
      j++;
    }
    drawn = { imei: track.imei, count: kept, times, lonLat, alt, grade, valid, averaged, source };
  }
  drawnCache.set(track, { includeInvalid, drawn });
  return drawn;
}

/** The earliest and latest time of all tracks; null when none has a point. */
export function timeExtent(tracks: readonly DecodedTrack[]): [number, number] | null {
  let min = Infinity;
  let max = -Infinity;
  for (const t of tracks) {
    if (t.count === 0) continue;
    min = Math.min(min, t.times[0]!);
    max = Math.max(max, t.times[t.count - 1]!);
  }
  return min <= max ? [min, max] : null;
}

/**
 * Seconds since `base` as float32, for the GPU: float32 keeps whole seconds exact for 194 days and
 * stays within half a minute over the longest query span (10 years), well under a pixel of replay.
 */
export function relativeSeconds(times: Float64Array, count: number, base: number): Float32Array {
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = (times[i]! - base) / 1000;
  return out;
}

/** Paths as deck.gl's binary data (PathLayer `_pathType: 'open'`): `length` paths, each from its start index. */
export interface BinaryPath {
  length: number;
  startIndices: Uint32Array;
  attributes: {
    getPath: { value: Float64Array; size: 2 };
    getTimestamps: { value: Float32Array; size: 1 };
  };
}

const pathCache = new WeakMap<DecodedTrack, { base: number; data: BinaryPath }>();

/** One track as a binary path (deck.gl PathLayer `_pathType: 'open'`), cached per track and time base. */
export function binaryPath(track: DecodedTrack, base: number): BinaryPath {
  const cached = pathCache.get(track);
  if (cached && cached.base === base) return cached.data;
  const data: BinaryPath = {
    length: 1,
    startIndices: new Uint32Array([0, track.count]),
    attributes: {
      getPath: { value: track.lonLat.subarray(0, track.count * 2), size: 2 },
      getTimestamps: { value: relativeSeconds(track.times, track.count, base), size: 1 },
    },
  };
  pathCache.set(track, { base, data });
  return data;
}

export type PointColoring = 'device' | 'grade' | 'time';

/**
 * A colour per point (RGBA bytes): by precision grade, or by time along a ramp from light (start) to
 * the device's colour (end). Invalid points are grey either way.
 */
export function pointColors(track: DecodedTrack, coloring: 'grade' | 'time', color: Rgb, range?: [number, number]): Uint8Array {
  const n = track.count;
  const out = new Uint8Array(n * 4);
  const [t0, t1] = range ?? [n ? track.times[0]! : 0, n ? track.times[n - 1]! : 1];
  const span = t1 > t0 ? t1 - t0 : 1;
  for (let i = 0; i < n; i++) {
    let r: number;
    let g: number;
    let b: number;
    if (!track.valid[i]) [r, g, b] = INVALID_COLOR;
    else if (coloring === 'grade') [r, g, b] = GRADE_COLORS[track.grade[i]!] ?? GRADE_COLORS[0]!;
    else {
      const f = Math.min(1, Math.max(0, (track.times[i]! - t0) / span));
      // From a pale tint of the device's colour to the colour itself.
      r = 230 + (color[0] - 230) * f;
      g = 230 + (color[1] - 230) * f;
      b = 230 + (color[2] - 230) * f;
    }
    const o = i * 4;
    out[o] = r;
    out[o + 1] = g;
    out[o + 2] = b;
    out[o + 3] = 255;
  }
  return out;
}

export interface TrackHead {
  imei: string;
  /** Index of the point shown at the current time; -1 before the track starts. */
  index: number;
  lon: number;
  lat: number;
  color: Rgb;
}

/** Where each device is at `time`: its last point at or before it (all devices at one moment: in sync). */
export function headsAt(tracks: readonly DecodedTrack[], time: number, colorOf: (imei: string, i: number) => Rgb): TrackHead[] {
  const heads: TrackHead[] = [];
  tracks.forEach((track, i) => {
    const index = indexAtTime(track, time);
    if (index < 0) return;
    heads.push({ imei: track.imei, index, lon: track.lonLat[index * 2]!, lat: track.lonLat[index * 2 + 1]!, color: colorOf(track.imei, i) });
  });
  return heads;
}

/** The smallest box holding every point of the tracks, [west, south, east, north]; null when empty. */
export function tracksBounds(tracks: readonly DecodedTrack[]): [number, number, number, number] | null {
  let w = Infinity;
  let s = Infinity;
  let e = -Infinity;
  let n = -Infinity;
  for (const t of tracks) {
    const ll = t.lonLat;
    for (let i = 0; i < t.count; i++) {
      const lon = ll[i * 2]!;
      const lat = ll[i * 2 + 1]!;
      if (!onEarth(lon, lat)) continue;
      if (lon < w) w = lon;
      if (lon > e) e = lon;
      if (lat < s) s = lat;
      if (lat > n) n = lat;
    }
  }
  return w <= e ? [w, s, e, n] : null;
}
