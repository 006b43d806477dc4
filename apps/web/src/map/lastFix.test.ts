import type { Fix } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import type { DecodedTrack } from '../lib/tracks/types';
import { fixPosition, gradeLetter, lastPositionsGeoJson, positionsAt, type DevicePosition } from './lastFix';

const fix = (over: Partial<Fix>): Fix => ({
  Id: '1', Caption: 'Crane 7', IMEI: '861234', PickTime: '2026-01-01 08:00:00', Longitude: 116.5, LongitudeTag: 'E', Latitude: 39.9, LatitudeTag: 'N',
  Speed: null, Course: null, Altitude: null, Temperature: null, Exercise: null, Voltage: null, Channel: null, Satellites: null, HDOP: null, VDOP: null,
  PrecisionGrade: 2, Validity: 1, TransmissionTime: '', ValidValue: 1, ...over,
});

describe('last fixes on the map', () => {
  it('signs positions by their hemisphere tags', () => {
    expect(fixPosition(fix({}))).toEqual([116.5, 39.9]);
    expect(fixPosition(fix({ LongitudeTag: 'W', LatitudeTag: 'S' }))).toEqual([-116.5, -39.9]);
    expect(fixPosition(fix({ Longitude: null }))).toBeNull();
  });

  it('names grades A..E and N', () => {
    expect([1, 2, 5, 6, 7].map(gradeLetter)).toEqual(['A', 'B', 'E', 'N', 'N']);
    expect(gradeLetter(null)).toBe('');
    expect(gradeLetter(0)).toBe('');
  });

  it('puts each device at its last valid fix of the range, or at the replay clock, from the track drawn', () => {
    const track = (imei: string, points: [number, number, number, number][]): DecodedTrack => ({
      imei,
      count: points.length,
      times: Float64Array.from(points.map((p) => p[0])),
      lonLat: Float64Array.from(points.flatMap((p) => [p[1], p[2]])),
      alt: Float32Array.from(points.map((_, i) => (i === 1 ? Number.NaN : 100 + i))),
      grade: Uint8Array.from(points.map(() => 2)),
      valid: Uint8Array.from(points.map((p) => p[3])),
      averaged: new Uint8Array(points.length),
    });
    const stork = track('A', [
      [1000, 120, 30, 1],
      [2000, 121, 31, 1],
      // the last fix is invalid: never where the device is
      [3000, 125, 35, 0],
    ]);
    const deer = track('B', [[2500, 10, 50, 1]]);
    const captions = new Map([['A', 'Stork']]);
    expect(positionsAt([stork, deer], null, (imei) => captions.get(imei))).toEqual([
      { imei: 'A', caption: 'Stork', lon: 121, lat: 31, time: 2000, alt: null, grade: 2 },
      { imei: 'B', caption: 'B', lon: 10, lat: 50, time: 2500, alt: 100, grade: 2 },
    ]);
    // Replaying at 1500: the stork at its first fix, the deer not started yet.
    expect(positionsAt([stork, deer], 1500, (imei) => captions.get(imei))).toEqual([{ imei: 'A', caption: 'Stork', lon: 120, lat: 30, time: 1000, alt: 100, grade: 2 }]);
  });

  it('makes one feature per device position, with its caption and colour', () => {
    const at = (imei: string, caption: string): DevicePosition => ({ imei, caption, lon: 116.5, lat: 39.9, time: 0, alt: null, grade: 0 });
    const data = lastPositionsGeoJson([at('861234', 'Crane 7'), at('3', '')], () => [1, 2, 3]);
    expect(data.features.map((f) => f.properties)).toEqual([
      { imei: '861234', caption: 'Crane 7', color: 'rgb(1, 2, 3)' },
      { imei: '3', caption: '3', color: 'rgb(1, 2, 3)' },
    ]);
    expect(data.features[0]!.geometry.coordinates).toEqual([116.5, 39.9]);
  });
});
