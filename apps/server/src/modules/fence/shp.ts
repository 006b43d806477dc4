import { openShp } from 'shapefile';
import { Code, describeIssues, FENCE_SHP_MAX_FENCES, type FenceShape, type Lang, message, PolygonShapeSchema } from '@wildtrack/contract';
import { AppError } from '../../http/errors.js';
import { selfIntersects } from './geometry.js';

/** The import refused: "geofence file import failed: <reason>" (§8), the reason in the caller's language. */
export function importFailed(_lang: Lang, reason: string): AppError {
  return new AppError(Code.Failed, 'fence.importFailed', { reason });
}

/** The main file header's code of every shapefile (big-endian 9994), and its size in bytes. */
const FILE_CODE = 9994;
const HEADER_BYTES = 100;

/**
 * Reads the polygons of a .shp (the maintained `shapefile` reader): each Polygon / MultiPolygon record's
 * outer rings, as fence shapes. No .prj is read: coordinates are WGS84 longitude/latitude. Anything else —
 * not a shapefile (its header's code, its length), another shape type, a ring the fence rules refuse, too
 * many polygons — refuses the whole file naming why.
 */
export async function readShpPolygons(bytes: Uint8Array, lang: Lang): Promise<FenceShape[]> {
  const unreadable = (detail: string) => importFailed(lang, message(lang, 'fence.import.unreadable', { detail }));
  if (bytes.byteLength < HEADER_BYTES) throw unreadable(`${bytes.byteLength} bytes`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getInt32(0, false) !== FILE_CODE) throw unreadable('file code');
  const declared = view.getInt32(24, false) * 2;
  if (declared !== bytes.byteLength) throw unreadable(`length ${declared} ≠ ${bytes.byteLength}`);
  const shapes: FenceShape[] = [];
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
        const shape = { Type: 'Polygon' as const, Coordinates: ring.map((c) => [c[0], c[1]]) };
        const parsed = PolygonShapeSchema.safeParse(shape, { reportInput: true });
        const index = shapes.length + 1;
        if (!parsed.success) throw importFailed(lang, message(lang, 'fence.import.badRing', { n: index, reason: describeIssues(lang, parsed.error.issues).text }));
        if (selfIntersects(parsed.data.Coordinates)) throw importFailed(lang, message(lang, 'fence.import.badRing', { n: index, reason: message(lang, 'validation.fence.selfIntersecting', { field: message(lang, 'field.shape') }) }));
        shapes.push(parsed.data);
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw unreadable(err instanceof Error ? err.message.slice(0, 100) : 'read error');
  }
  if (shapes.length === 0) throw importFailed(lang, message(lang, 'fence.import.noPolygon'));
  return shapes;
}
