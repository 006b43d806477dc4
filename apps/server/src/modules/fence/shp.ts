import { openShp } from 'shapefile';
import {
  Code,
  describeIssues,
  distinctVertices,
  FENCE_MAX_VERTICES,
  FENCE_SHP_MAX_FENCES,
  FENCE_SHP_MAX_RINGS,
  type Lang,
  type LngLat,
  message,
  PolygonShapeSchema,
} from '@wildtrack/contract';
import { AppError } from '../../http/errors.js';
import { type FenceGeometry, fenceGeometry, selfIntersects } from './geometry.js';

/** The import refused: "geofence file import failed: <reason>" (§8), the reason in the caller's language. */
export function importFailed(_lang: Lang, reason: string): AppError {
  return new AppError(Code.Failed, 'fence.importFailed', { reason });
}

/** The main file header's code of every shapefile (big-endian 9994), and its size in bytes. */
const FILE_CODE = 9994;
const HEADER_BYTES = 100;
/** Shape types whose records hold parts (rings or lines): PolyLine, Polygon, their Z and M forms, MultiPatch. */
const WITH_PARTS = new Set([3, 5, 13, 15, 23, 25, 31]);

/**
 * The file's structure from its headers alone, before the reader builds any geometry: the main header
 * (code, declared length), each record's length within the file, and for records with parts their ring
 * count and each ring's vertex count against FENCE_SHP_MAX_RINGS and FENCE_MAX_VERTICES. Work that
 * grows with what the file declares is refused here, in time linear in the records.
 */
export function checkShpStructure(bytes: Uint8Array, lang: Lang): void {
  const unreadable = (detail: string) => importFailed(lang, message(lang, 'fence.import.unreadable', { detail }));
  if (bytes.byteLength < HEADER_BYTES) throw unreadable(`${bytes.byteLength} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getInt32(0, false) !== FILE_CODE) throw unreadable('file code');
  const declared = view.getInt32(24, false) * 2;
  if (declared !== bytes.byteLength) throw unreadable(`length ${declared} ≠ ${bytes.byteLength}`);
  let rings = 0;
  let n = 0;
  for (let at = HEADER_BYTES; at < bytes.byteLength; ) {
    n += 1;
    if (at + 8 > bytes.byteLength) throw unreadable(`record ${n}`);
    const length = view.getInt32(at + 4, false) * 2;
    const content = at + 8;
    if (length < 4 || content + length > bytes.byteLength) throw unreadable(`record ${n}`);
    const type = view.getInt32(content, true);
    if (WITH_PARTS.has(type)) {
      if (length < 44) throw unreadable(`record ${n}`);
      const parts = view.getInt32(content + 36, true);
      const points = view.getInt32(content + 40, true);
      if (parts < 0 || points < 0 || 44 + 4 * parts + 16 * points > length) throw unreadable(`record ${n}`);
      rings += parts;
      if (rings > FENCE_SHP_MAX_RINGS) throw importFailed(lang, message(lang, 'fence.import.tooManyRings', { max: FENCE_SHP_MAX_RINGS }));
      let start = parts > 0 ? view.getInt32(content + 44, true) : 0;
      for (let j = 0; j < parts; j++) {
        const end = j + 1 < parts ? view.getInt32(content + 48 + 4 * j, true) : points;
        if (start < 0 || end < start || end > points) throw unreadable(`record ${n}`);
        if (end - start > FENCE_MAX_VERTICES + 1) throw importFailed(lang, message(lang, 'fence.import.ringTooLarge', { n, max: FENCE_MAX_VERTICES }));
        start = end;
      }
    }
    at = content + length;
  }
}

/**
 * A ring as the fence rules take it, without zod's per-vertex work when it is plainly valid (a 5,000-vertex
 * ring costs the schema ~110 ms): numbers within ±180 / ±90, 3 to FENCE_MAX_VERTICES + 1 vertices, 3 of them
 * distinct. Anything else goes through PolygonShapeSchema, which names the fault.
 */
function plainRing(ring: number[][]): LngLat[] | null {
  if (ring.length < 3 || ring.length > FENCE_MAX_VERTICES + 1) return null;
  const out: LngLat[] = new Array(ring.length);
  for (let i = 0; i < ring.length; i++) {
    const x = ring[i]![0], y = ring[i]![1];
    if (typeof x !== 'number' || typeof y !== 'number' || !(x >= -180 && x <= 180 && y >= -90 && y <= 90)) return null;
    out[i] = [x, y];
  }
  return distinctVertices(out) >= 3 ? out : null;
}

/**
 * Reads the polygons of a .shp (the maintained `shapefile` reader): each Polygon / MultiPolygon record's
 * outer rings, as fence shapes. No .prj is read: coordinates are WGS84 longitude/latitude. Anything else —
 * not a shapefile (its header's code, its length), more rings or larger rings than the import takes,
 * another shape type, a ring the fence rules refuse, too many polygons — refuses the whole file naming why.
 * Answers each shape's stored geometry (geometry.ts `fenceGeometry`: JSON, box, area), made here too. The
 * work grows with the file: the server runs it in a worker thread (shp-import.ts).
 */
export async function readShpPolygons(bytes: Uint8Array, lang: Lang): Promise<FenceGeometry[]> {
  const unreadable = (detail: string) => importFailed(lang, message(lang, 'fence.import.unreadable', { detail }));
  checkShpStructure(bytes, lang);
  const shapes: FenceGeometry[] = [];
  let n = 0;
  try {
    const source = await openShp(bytes);
    for (;;) {
      const r = await source.read();
      if (r.done) break;
      n += 1;
      const g = r.value as GeoJSON.Geometry | null;
      if (g === null) continue;
      if (g.type !== 'Polygon' && g.type !== 'MultiPolygon') throw importFailed(lang, message(lang, 'fence.import.notPolygon', { n, type: g.type }));
      const polygons = g.type === 'Polygon' ? [g.coordinates] : g.coordinates;
      for (const p of polygons) {
        const ring = p[0];
        if (!ring) continue;
        if (shapes.length >= FENCE_SHP_MAX_FENCES) throw importFailed(lang, message(lang, 'fence.import.tooMany', { max: FENCE_SHP_MAX_FENCES }));
        const index = shapes.length + 1;
        let coordinates = plainRing(ring);
        if (!coordinates) {
          const parsed = PolygonShapeSchema.safeParse({ Type: 'Polygon', Coordinates: ring.map((c) => [c[0], c[1]]) }, { reportInput: true });
          if (!parsed.success) throw importFailed(lang, message(lang, 'fence.import.badRing', { n: index, reason: describeIssues(lang, parsed.error.issues).text }));
          coordinates = parsed.data.Coordinates;
        }
        if (selfIntersects(coordinates)) throw importFailed(lang, message(lang, 'fence.import.badRing', { n: index, reason: message(lang, 'validation.fence.selfIntersecting', { field: message(lang, 'field.shape') }) }));
        shapes.push(fenceGeometry({ Type: 'Polygon', Coordinates: coordinates }));
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw unreadable(err instanceof Error ? err.message.slice(0, 100) : 'read error');
  }
  if (shapes.length === 0) throw importFailed(lang, message(lang, 'fence.import.noPolygon'));
  return shapes;
}
