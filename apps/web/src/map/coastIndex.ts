import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';

/**
 * Natural Earth land as the offline basemap draws it, without a network: the rings of its polygons
 * (unwrapped at the antimeridian), and for the detailed 1:10m land an index that answers only what a
 * view needs, clipped to it: the whole 1:10m land is 409,000 points, too many to hand to the map at once
 * (seconds of the page's time), while a coast seen at zoom 5 or more is a few thousand.
 * Pure arithmetic, no map library: it runs in a worker (coast.worker.ts) and in unit tests.
 */

export type LandTopology = Topology<{ land: GeometryCollection }>;
export type Ring = number[][];
/** [west, south, east, north] in degrees. */
export type Bbox = [number, number, number, number];

/**
 * Natural Earth rings are spherical: one that crosses the antimeridian jumps from 180 to -180, which a
 * flat map draws as a band across the world. Such a ring is unwrapped (longitudes kept continuous) when
 * it closes on itself; a ring around a pole (Antarctica) does not and stays as it is.
 */
export function unwrapRing(ring: Ring): Ring {
  let offset = 0;
  const out = ring.map((point, i) => {
    if (i > 0) {
      const step = point[0]! - ring[i - 1]![0]!;
      if (step > 180) offset -= 360;
      else if (step < -180) offset += 360;
    }
    return [point[0]! + offset, point[1]!];
  });
  // Around a pole: the ring does not come back to its start's world.
  if (offset !== 0) return ring;
  // Unwrapped from where the ring starts: put it back over the map's world (Eurasia, started in Chukotka,
  // would lie one world to the west).
  let sum = 0;
  for (const p of out) sum += p[0]!;
  const shift = sum / out.length < -180 ? 360 : sum / out.length > 180 ? -360 : 0;
  return shift === 0 ? out : out.map((p) => [p[0]! + shift, p[1]!]);
}

/** A Natural Earth land topology's polygons (each a list of rings), unwrapped. */
export function landPolygons(topology: LandTopology): Ring[][] {
  const collection = feature(topology, topology.objects.land) as unknown as GeoJSON.FeatureCollection<GeoJSON.MultiPolygon | GeoJSON.Polygon>;
  const out: Ring[][] = [];
  for (const f of collection.features) {
    const g = f.geometry;
    const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
    for (const polygon of polygons) out.push(polygon.map(unwrapRing));
  }
  return out;
}

export function landGeoJson(polygons: readonly Ring[][]): GeoJSON.FeatureCollection<GeoJSON.MultiPolygon> {
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'MultiPolygon', coordinates: polygons as Ring[][] } }] };
}

export function coastGeoJson(lines: readonly Ring[]): GeoJSON.FeatureCollection<GeoJSON.MultiLineString> {
  return { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'MultiLineString', coordinates: lines as Ring[] } }] };
}

// ---- clipping to a box ------------------------------------------------------------------------------

const inside = (p: number[], edge: number, box: Bbox): boolean =>
  edge === 0 ? p[0]! >= box[0] : edge === 1 ? p[1]! >= box[1] : edge === 2 ? p[0]! <= box[2] : p[1]! <= box[3];

function cross(a: number[], b: number[], edge: number, box: Bbox): number[] {
  const [ax, ay] = a as [number, number];
  const [bx, by] = b as [number, number];
  if (edge === 0 || edge === 2) {
    const x = box[edge]!;
    return [x, ay + ((by - ay) * (x - ax)) / (bx - ax)];
  }
  const y = box[edge]!;
  return [ax + ((bx - ax) * (y - ay)) / (by - ay), y];
}

/**
 * A polygon ring clipped to a box (Sutherland–Hodgman, one edge of the box at a time): the part of the
 * land inside the box, closed along the box's edges where it is cut. Empty when nothing is inside.
 */
export function clipRing(ring: Ring, box: Bbox): Ring {
  let out = ring;
  for (let edge = 0; edge < 4 && out.length > 0; edge++) {
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const cur = input[i]!;
      const prev = input[(i + input.length - 1) % input.length]!;
      const curIn = inside(cur, edge, box);
      if (curIn) {
        if (!inside(prev, edge, box)) out.push(cross(prev, cur, edge, box));
        out.push(cur);
      } else if (inside(prev, edge, box)) out.push(cross(prev, cur, edge, box));
    }
  }
  if (out.length > 0 && (out[0]![0] !== out[out.length - 1]![0] || out[0]![1] !== out[out.length - 1]![1])) out.push(out[0]!);
  return out.length >= 4 ? out : [];
}

const within = (p: number[], box: Bbox): boolean => p[0]! >= box[0] && p[0]! <= box[2] && p[1]! >= box[1] && p[1]! <= box[3];

/**
 * The coastline of a ring within a box, as lines: the ring's runs of segments with an end inside (a
 * segment reaching out of the box is kept whole, the map clips what it draws). Never the box's own edges,
 * which a clipped polygon's outline would draw as a false coast.
 */
export function clipCoast(ring: Ring, box: Bbox): Ring[] {
  const lines: Ring[] = [];
  let run: Ring = [];
  for (let i = 1; i < ring.length; i++) {
    const a = ring[i - 1]!;
    const b = ring[i]!;
    if (within(a, box) || within(b, box)) {
      if (run.length === 0) run.push(a);
      run.push(b);
    } else if (run.length > 0) {
      lines.push(run);
      run = [];
    }
  }
  if (run.length > 0) lines.push(run);
  return lines;
}

// ---- the index --------------------------------------------------------------------------------------

interface IndexedPolygon {
  box: Bbox;
  rings: Ring[];
  points: number;
}

export interface CoastIndex {
  polygons: IndexedPolygon[];
}

export function buildCoastIndex(polygons: readonly Ring[][]): CoastIndex {
  return {
    polygons: polygons.map((rings) => {
      const box: Bbox = [Infinity, Infinity, -Infinity, -Infinity];
      let points = 0;
      for (const p of rings[0] ?? []) {
        if (p[0]! < box[0]) box[0] = p[0]!;
        if (p[1]! < box[1]) box[1] = p[1]!;
        if (p[0]! > box[2]) box[2] = p[0]!;
        if (p[1]! > box[3]) box[3] = p[1]!;
      }
      for (const r of rings) points += r.length;
      return { box, rings, points };
    }),
  };
}

const overlaps = (a: Bbox, b: Bbox): boolean => a[0] <= b[2] && a[2] >= b[0] && a[1] <= b[3] && a[3] >= b[1];

export interface LandInView {
  land: GeoJSON.FeatureCollection<GeoJSON.MultiPolygon>;
  coast: GeoJSON.FeatureCollection<GeoJSON.MultiLineString>;
  points: number;
}

/**
 * The land and coast within `box`, clipped to it; null when that would be more than `maxPoints` points
 * (a view of a continent: the coarse land serves it as well).
 */
export function landIn(index: CoastIndex, box: Bbox, maxPoints: number): LandInView | null {
  const polygons: Ring[][] = [];
  const lines: Ring[] = [];
  let points = 0;
  for (const polygon of index.polygons) {
    if (!overlaps(polygon.box, box)) continue;
    const contained = polygon.box[0] >= box[0] && polygon.box[2] <= box[2] && polygon.box[1] >= box[1] && polygon.box[3] <= box[3];
    let rings = polygon.rings;
    if (!contained) {
      // The outer ring first: a polygon whose land lies outside the box has nothing to show in it.
      const outer = clipRing(polygon.rings[0]!, box);
      if (outer.length === 0) continue;
      rings = [outer, ...polygon.rings.slice(1).map((r) => clipRing(r, box)).filter((r) => r.length > 0)];
    }
    for (const r of rings) points += r.length;
    if (points > maxPoints) return null;
    polygons.push(rings);
    for (const r of polygon.rings) lines.push(...(contained ? [r] : clipCoast(r, box)));
  }
  return { land: landGeoJson(polygons), coast: coastGeoJson(lines), points };
}
