import type { Fix } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { fixPosition, gradeLetter, lastPositionsGeoJson } from './lastFix';

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

  it('makes one feature per device with a position, with its caption and colour', () => {
    const data = lastPositionsGeoJson([fix({}), fix({ IMEI: '2', Caption: '', Latitude: null }), fix({ IMEI: '3', Caption: '' })], () => [1, 2, 3]);
    expect(data.features.map((f) => f.properties)).toEqual([
      { imei: '861234', caption: 'Crane 7', color: 'rgb(1, 2, 3)' },
      { imei: '3', caption: '3', color: 'rgb(1, 2, 3)' },
    ]);
  });
});
