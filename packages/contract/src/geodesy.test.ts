import { describe, expect, it } from 'vitest';
import { centralAngle, distanceMeters, EARTH_RADIUS_M } from './geodesy.js';

/** The haversine as the server's fences and the console's drawing each wrote it before this one (2·R·asin). */
function formerHaversine(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const RAD = Math.PI / 180;
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}

describe('distanceMeters', () => {
  it('is the haversine on the mean earth radius (turf’s, the fences’ areas’)', () => {
    expect(EARTH_RADIUS_M).toBe(6_371_008.8);
    expect(distanceMeters([116.4, 40], [116.4, 40.01])).toBeCloseTo(1111.95, 2);
    expect(distanceMeters([116.4, 40], [116.41, 40])).toBeCloseTo(851.8, 1);
    expect(distanceMeters([0, 0], [180, 0])).toBeCloseTo(Math.PI * EARTH_RADIUS_M, 6);
    expect(distanceMeters([10, 20], [10, 20])).toBe(0);
  });

  it('answers to the bit what the former copies answered', () => {
    let seed = 7;
    const next = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 2000; i++) {
      const a: [number, number] = [next() * 360 - 180, next() * 180 - 90];
      // near pairs (a circle fence's scale) and far ones
      const b: [number, number] = i % 2 ? [a[0] + (next() - 0.5) * 0.1, Math.max(-90, Math.min(90, a[1] + (next() - 0.5) * 0.1))] : [next() * 360 - 180, next() * 180 - 90];
      expect(distanceMeters(a, b)).toBe(formerHaversine(a[0], a[1], b[0], b[1]));
      expect(centralAngle(a, b) * EARTH_RADIUS_M).toBe(distanceMeters(a, b));
    }
  });
});
