import { SensorFlag } from '@wildtrack/contract';
import { describe, expect, it } from 'vitest';
import { kindsOf } from './kinds';
import { clampView } from './SensorChart';
import { viewOf, visibleRange } from './SensorPanel';

describe('the data kinds a device offers', () => {
  it('follows its sensor flags: a kind it lacks is not offered', () => {
    const { GNSS, Acceleration, OldAcceleration, Temperature, Pressure, LightIntensity, Humidity, RedInfraredLight, Magnetism, Image } = SensorFlag;
    expect(kindsOf(GNSS | Acceleration | Temperature | Pressure | LightIntensity | Humidity)).toEqual(['positions', 'acceleration', 'temperature', 'pressure', 'light', 'humidity']);
    expect(kindsOf(GNSS | OldAcceleration | RedInfraredLight | Magnetism)).toEqual(['positions', 'acceleration', 'redInfrared', 'magnetism']);
    expect(kindsOf(GNSS | Image)).toEqual(['positions']);
  });
});

describe('a chart view', () => {
  const day = 86_400_000;
  it('stays inside the range, keeps its span when pushed against an end, and is never narrower than a minute', () => {
    expect(clampView(2 * day, 3 * day, 0, 10 * day)).toEqual({ from: 2 * day, to: 3 * day });
    expect(clampView(-day, day, 0, 10 * day)).toEqual({ from: 0, to: 2 * day });
    expect(clampView(9 * day, 11 * day, 0, 10 * day)).toEqual({ from: 8 * day, to: 10 * day });
    expect(clampView(5 * day, 5 * day + 10, 0, 10 * day)).toEqual({ from: 5 * day, to: 5 * day + 60_000 });
    expect(clampView(-day, 20 * day, 0, 10 * day)).toEqual({ from: 0, to: 10 * day });
  });
});

describe("the panel's visible range (the chart's and the table's)", () => {
  const day = 86_400_000;
  it('is the zoom kept inside the range, or the whole range when the zoom is outside it or covers it', () => {
    expect(viewOf(null, 0, 10 * day)).toBeNull();
    expect(viewOf({ from: 2 * day, to: 3 * day }, 0, 10 * day)).toEqual({ from: 2 * day, to: 3 * day });
    // a link's zoom under a span that moved on: pushed back inside, its span kept
    expect(viewOf({ from: 9 * day, to: 11 * day }, 0, 10 * day)).toEqual({ from: 8 * day, to: 10 * day });
    expect(viewOf({ from: 11 * day, to: 12 * day }, 0, 10 * day)).toBeNull();
    expect(viewOf({ from: -day, to: 11 * day }, 0, 10 * day)).toBeNull();
  });

  it('asks the table for the zoomed range, in the zone, and for the whole range when not zoomed', () => {
    const start = '2025-03-01 00:00:00';
    const end = '2025-03-30 23:59:59';
    expect(visibleRange(start, end, null, '+08:00')).toEqual({ start, end });
    const from = Date.parse('2025-03-07T00:00:00Z');
    expect(visibleRange(start, end, { from, to: from + day / 2 }, '+08:00')).toEqual({ start: '2025-03-07 08:00:00', end: '2025-03-07 20:00:00' });
  });
});
