import { PRECISION_GRADES, type Fix } from '@wildtrack/contract';
import { indexAtTime, type DecodedTrack } from '../lib/tracks/types';
import { cssColor, drawable, type Rgb } from './deck/trackData';

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

/**
 * Where a device is on a map: its last valid fix with a position at a moment of the chosen range (the
 * replay clock, or the range's end), taken from the very track the map draws, so the marker, its name
 * and the track's end are one point.
 */
export interface DevicePosition {
  imei: string;
  caption: string;
  lon: number;
  lat: number;
  /** The fix's time (epoch ms). */
  time: number;
  /** Metres, null when the fix has none. */
  alt: number | null;
  /** Precision grade 1..7, 0 unknown. */
  grade: number;
}

/**
 * Each track's position at `time` (null: its last fix in the range); tracks without a drawable fix by
 * then are left out. Invalid fixes and positions off the earth are never a device's position.
 */
export function positionsAt(tracks: readonly DecodedTrack[], time: number | null, captionOf: (imei: string) => string | undefined): DevicePosition[] {
  const out: DevicePosition[] = [];
  for (const track of tracks) {
    const d = drawable(track);
    const index = time === null ? d.count - 1 : indexAtTime(d, time);
    if (index < 0) continue;
    const alt = d.alt[index]!;
    out.push({
      imei: track.imei,
      caption: captionOf(track.imei) || track.imei,
      lon: d.lonLat[index * 2]!,
      lat: d.lonLat[index * 2 + 1]!,
      time: d.times[index]!,
      alt: Number.isFinite(alt) ? alt : null,
      grade: d.grade[index]!,
    });
  }
  return out;
}

export function lastPositionsGeoJson(positions: readonly DevicePosition[], colorOf: (imei: string, i: number) => Rgb): GeoJSON.FeatureCollection<GeoJSON.Point> {
  const features: GeoJSON.Feature<GeoJSON.Point>[] = positions.map((p, i) => ({
    type: 'Feature',
    properties: { imei: p.imei, caption: p.caption || p.imei, color: cssColor(colorOf(p.imei, i)) },
    geometry: { type: 'Point', coordinates: [p.lon, p.lat] },
  }));
  return { type: 'FeatureCollection', features };
}
