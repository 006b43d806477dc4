import { describe, expect, it } from 'vitest';
import { kindsFor, remaining } from './model';

describe('download task model', () => {
  it('shows the time left as whole days and hours, rounded up to the hour (§9)', () => {
    const H = 3_600_000;
    expect(remaining(7 * 24 * H)).toEqual({ days: 7, hours: 0 });
    expect(remaining(7 * 24 * H - 1)).toEqual({ days: 7, hours: 0 });
    expect(remaining(25 * H + 60_000)).toEqual({ days: 1, hours: 2 });
    expect(remaining(60_000)).toEqual({ days: 0, hours: 1 });
    expect(remaining(0)).toEqual({ days: 0, hours: 0 });
    expect(remaining(-5)).toEqual({ days: 0, hours: 0 });
  });

  it('keeps only the kinds a Movebank CSV can hold', () => {
    expect(kindsFor('movebank', ['fix', 'temperature', 'acceleration'])).toEqual(['fix', 'acceleration']);
    expect(kindsFor('csv', ['fix', 'temperature'])).toEqual(['fix', 'temperature']);
    for (const geodata of ['geojson', 'gpx', 'kml'] as const) expect(kindsFor(geodata, ['fix', 'temperature', 'acceleration', 'event'])).toEqual(['fix']);
  });
});
