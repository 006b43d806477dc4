import type { FeatureCollection, LineString } from 'geojson';
import type { StyleSpecification } from 'maplibre-gl';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import land110m from 'world-atlas/land-110m.json';

/**
 * A map style that needs no network: sea, land from Natural Earth's 1:110m land polygons (bundled with
 * world-atlas) and a 10° graticule. No labels, so no glyphs to fetch. The online tile layers of §2.5
 * come with the map screens; where tiles can't be reached this still shows where a point is.
 */

function graticule(step = 10): FeatureCollection<LineString> {
  const features: FeatureCollection<LineString>['features'] = [];
  for (let lon = -180; lon <= 180; lon += step) {
    const coordinates: [number, number][] = [];
    for (let lat = -85; lat <= 85; lat += 5) coordinates.push([lon, lat]);
    features.push({ type: 'Feature', properties: { major: lon % 30 === 0 }, geometry: { type: 'LineString', coordinates } });
  }
  for (let lat = -80; lat <= 80; lat += step) {
    const coordinates: [number, number][] = [];
    for (let lon = -180; lon <= 180; lon += 5) coordinates.push([lon, lat]);
    features.push({ type: 'Feature', properties: { major: lat % 30 === 0 }, geometry: { type: 'LineString', coordinates } });
  }
  return { type: 'FeatureCollection', features };
}

/**
 * Natural Earth rings are spherical: one that crosses the antimeridian jumps from 180 to -180, which a
 * flat map draws as a band across the world. Such a ring is unwrapped (longitudes kept continuous) when
 * it closes on itself; a ring around a pole (Antarctica) does not and stays as it is.
 */
function unwrapRing(ring: number[][]): number[][] {
  let offset = 0;
  const out = ring.map((point, i) => {
    if (i > 0) {
      const step = point[0]! - ring[i - 1]![0]!;
      if (step > 180) offset -= 360;
      else if (step < -180) offset += 360;
    }
    return [point[0]! + offset, point[1]!];
  });
  return offset === 0 ? out : ring;
}

let cachedLand: GeoJSON.GeoJSON | null = null;
function land(): GeoJSON.GeoJSON {
  if (!cachedLand) {
    const topology = land110m as unknown as Topology<{ land: GeometryCollection }>;
    const collection = feature(topology, topology.objects.land) as unknown as GeoJSON.FeatureCollection<GeoJSON.MultiPolygon | GeoJSON.Polygon>;
    for (const f of collection.features) {
      const g = f.geometry;
      if (g.type === 'Polygon') g.coordinates = g.coordinates.map(unwrapRing);
      else g.coordinates = g.coordinates.map((polygon) => polygon.map(unwrapRing));
    }
    cachedLand = collection;
  }
  return cachedLand;
}

/** The layers of the offline basemap; tile layers go above them and below every overlay. */
export const OFFLINE_LAYER_IDS: readonly string[] = ['sea', 'land', 'coast', 'graticule'];

export function offlineStyle(): StyleSpecification {
  return {
    version: 8,
    sources: {
      land: { type: 'geojson', data: land() },
      graticule: { type: 'geojson', data: graticule() },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#dcecf5' } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f4f1e8', 'fill-outline-color': '#c9c2ad' } },
      { id: 'coast', type: 'line', source: 'land', paint: { 'line-color': '#b9b29b', 'line-width': 0.6 } },
      {
        id: 'graticule',
        type: 'line',
        source: 'graticule',
        paint: { 'line-color': '#7fa3b8', 'line-opacity': ['case', ['get', 'major'], 0.45, 0.2], 'line-width': 0.6 },
      },
    ],
  };
}
