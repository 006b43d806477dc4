import type { FeatureCollection, LineString } from 'geojson';
import type { StyleSpecification } from 'maplibre-gl';
import land110m from 'world-atlas/land-110m.json';
import { coastGeoJson, landGeoJson, landPolygons, type LandTopology } from './coastIndex';

/**
 * A map style that needs no network: sea, land from Natural Earth's land polygons (world-atlas: 1:110m
 * at once; 1:10m for the view once zoomed in, see coast.ts) and a 10° graticule. No labels, so no glyphs to fetch. The online tile layers of §2.5
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

let coarse: { land: GeoJSON.GeoJSON; coast: GeoJSON.GeoJSON } | null = null;
/** The coarse land (1:110m, 55 kB, drawn at once) and its coastline; the detailed coast comes by view (coast.ts). */
export function coarseLand(): { land: GeoJSON.GeoJSON; coast: GeoJSON.GeoJSON } {
  if (!coarse) {
    const polygons = landPolygons(land110m as unknown as LandTopology);
    coarse = { land: landGeoJson(polygons), coast: coastGeoJson(polygons.flat()) };
  }
  return coarse;
}

/** The sources of the offline basemap's land and coastline (coast.ts swaps in the detailed ones). */
export const OFFLINE_LAND_SOURCE = 'land';
export const OFFLINE_COAST_SOURCE = 'coast';

/** The layers of the offline basemap; tile layers go above them and below every overlay. */
export const OFFLINE_LAYER_IDS: readonly string[] = ['sea', 'land', 'coast', 'graticule'];

export function offlineStyle(): StyleSpecification {
  return {
    version: 8,
    sources: {
      land: { type: 'geojson', data: coarseLand().land },
      coast: { type: 'geojson', data: coarseLand().coast },
      graticule: { type: 'geojson', data: graticule() },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#dcecf5' } },
      { id: 'land', type: 'fill', source: 'land', paint: { 'fill-color': '#f4f1e8', 'fill-outline-color': '#c9c2ad' } },
      { id: 'coast', type: 'line', source: 'coast', paint: { 'line-color': '#b9b29b', 'line-width': 0.6 } },
      {
        id: 'graticule',
        type: 'line',
        source: 'graticule',
        paint: { 'line-color': '#7fa3b8', 'line-opacity': ['case', ['get', 'major'], 0.45, 0.2], 'line-width': 0.6 },
      },
    ],
  };
}
