import type { Writable } from 'node:stream';
import { circleRing, closeRing, type FenceExportFileType, type FenceShape, type LngLat } from '@wildtrack/contract';
import { xmlText } from '../export/cells.js';
import { endStream, isoTime, put } from '../export/geodata.js';

/** A fence as its export file writes it. */
export interface FenceFeature {
  id: string;
  name: string;
  shape: FenceShape;
  /** Geodesic area, m². */
  area: number;
  enabled: boolean;
  inOrOut: string;
  ruleType: number;
  devices: readonly { imei: string; caption: string }[];
  createdAt: number;
  updatedAt: number;
}

/** How many vertices a circle's polygon has (the console draws it the same way: contract circleRing). */
export const CIRCLE_VERTICES = 64;

/** Twice the signed planar area of a closed lon/lat ring: > 0 counterclockwise. */
function signedArea(ring: readonly LngLat[]): number {
  let s = 0;
  for (let i = 0; i + 1 < ring.length; i++) s += ring[i]![0] * ring[i + 1]![1] - ring[i + 1]![0] * ring[i]![1];
  return s;
}

/** The ring turned as RFC 7946 §3.1.6 asks: an exterior counterclockwise, a hole clockwise. */
function wound(ring: readonly LngLat[], exterior: boolean): LngLat[] {
  const closed = closeRing(ring);
  return signedArea(closed) > 0 === exterior ? closed : closed.reverse();
}

/**
 * A shape's rings, exterior first then its holes: a circle as a CIRCLE_VERTICES-gon on the ground. A
 * polygon's holes (`Holes`, when a shape carries them) are kept as inner rings.
 */
export function ringsOf(shape: FenceShape): LngLat[][] {
  if (shape.Type === 'Circle') return [wound(circleRing(shape.Center, shape.Radius, CIRCLE_VERTICES), true)];
  const holes = (shape as { Holes?: readonly (readonly LngLat[])[] }).Holes ?? [];
  return [wound(shape.Coordinates, true), ...holes.map((h) => wound(h, false))];
}

function featureOf(f: FenceFeature): string {
  const circle = f.shape.Type === 'Circle' ? { center: f.shape.Center, radius: f.shape.Radius } : {};
  return JSON.stringify({
    type: 'Feature',
    id: f.id,
    geometry: { type: 'Polygon', coordinates: ringsOf(f.shape) },
    properties: {
      id: f.id,
      name: f.name,
      shape: f.shape.Type,
      ...circle,
      area: f.area,
      enabled: f.enabled,
      inOrOut: f.inOrOut,
      ruleType: f.ruleType,
      devices: f.devices.map((d) => d.imei),
      deviceNames: f.devices.map((d) => d.caption || d.imei),
      createTime: isoTime(f.createdAt),
      updateTime: isoTime(f.updatedAt),
    },
  });
}

const kmlRing = (ring: readonly LngLat[]) => `<LinearRing><coordinates>${ring.map(([x, y]) => `${x},${y}`).join(' ')}</coordinates></LinearRing>`;

function placemarkOf(f: FenceFeature): string {
  const [outer, ...holes] = ringsOf(f.shape);
  const data: [string, string | number | boolean][] = [
    ['id', f.id],
    ['shape', f.shape.Type],
    ...(f.shape.Type === 'Circle' ? ([['centerLongitude', f.shape.Center[0]], ['centerLatitude', f.shape.Center[1]], ['radius', f.shape.Radius]] as [string, number][]) : []),
    ['area', f.area],
    ['enabled', f.enabled],
    ['inOrOut', f.inOrOut],
    ['ruleType', f.ruleType],
    ['devices', f.devices.map((d) => d.imei).join(',')],
    ['createTime', isoTime(f.createdAt)],
    ['updateTime', isoTime(f.updatedAt)],
  ];
  const description = f.shape.Type === 'Circle' ? `<description>Circle: centre ${f.shape.Center[0]},${f.shape.Center[1]}, radius ${f.shape.Radius} m</description>` : '';
  return (
    `<Placemark id="fence-${xmlText(f.id)}"><name>${xmlText(f.name)}</name>${description}` +
    `<ExtendedData>${data.map(([k, v]) => `<Data name="${k}"><value>${xmlText(String(v))}</value></Data>`).join('')}</ExtendedData>` +
    `<Polygon><outerBoundaryIs>${kmlRing(outer!)}</outerBoundaryIs>${holes.map((h) => `<innerBoundaryIs>${kmlRing(h)}</innerBoundaryIs>`).join('')}</Polygon></Placemark>\n`
  );
}

/** Writes fences (batches) to `out` as one GeoJSON FeatureCollection or KML Document named `title`, and ends it; answers how many. */
export async function writeFences(type: FenceExportFileType, title: string, batches: AsyncIterable<readonly FenceFeature[]> | Iterable<readonly FenceFeature[]>, out: Writable): Promise<number> {
  let n = 0;
  if (type === 'geojson') {
    await put(out, '{"type":"FeatureCollection","features":[\n');
    for await (const batch of batches) {
      let s = '';
      for (const f of batch) s += (n++ === 0 ? '' : ',\n') + featureOf(f);
      await put(out, s);
    }
    await put(out, '\n]}\n');
  } else {
    await put(out, `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2">\n<Document><name>${xmlText(title)}</name>\n`);
    for await (const batch of batches) {
      await put(out, batch.map(placemarkOf).join(''));
      n += batch.length;
    }
    await put(out, '</Document>\n</kml>\n');
  }
  await endStream(out);
  return n;
}
