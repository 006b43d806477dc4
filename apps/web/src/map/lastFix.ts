import { PRECISION_GRADES, type Fix } from '@wildtrack/contract';
import { cssColor, type Rgb } from './deck/trackData';

/** A fix's position with signs from its hemisphere tags (§3: absolute degrees plus E/W, N/S); null without one. */
export function fixPosition(fix: Pick<Fix, 'Longitude' | 'LongitudeTag' | 'Latitude' | 'LatitudeTag'>): [number, number] | null {
  if (fix.Longitude === null || fix.Latitude === null) return null;
  const lon = fix.LongitudeTag === 'W' ? -Math.abs(fix.Longitude) : fix.Longitude;
  const lat = fix.LatitudeTag === 'S' ? -Math.abs(fix.Latitude) : fix.Latitude;
  return Number.isFinite(lon) && Number.isFinite(lat) ? [lon, lat] : null;
}

/** Grade 1..5 is A..E, 6 and 7 are N (§9); '' when unknown. */
export function gradeLetter(grade: number | null): string {
  if (grade === null || grade < 1) return '';
  return grade <= 5 ? PRECISION_GRADES[grade - 1]! : 'N';
}

export function lastPositionsGeoJson(fixes: readonly Fix[], colorOf: (imei: string, i: number) => Rgb): GeoJSON.FeatureCollection<GeoJSON.Point> {
  const features: GeoJSON.Feature<GeoJSON.Point>[] = [];
  fixes.forEach((fix, i) => {
    const position = fixPosition(fix);
    if (!position) return;
    features.push({
      type: 'Feature',
      properties: { imei: fix.IMEI, caption: fix.Caption || fix.IMEI, color: cssColor(colorOf(fix.IMEI, i)) },
      geometry: { type: 'Point', coordinates: position },
    });
  });
  return { type: 'FeatureCollection', features };
}
