import { describe, expect, it } from 'vitest';
import { headersOf, timeColumnsOf } from './tables.js';

describe('export headers', () => {
  it("name the file's zone in every time column's header, in both languages (issue 28 item 3)", () => {
    expect(headersOf('fix', 'en', '+08:00').slice(0, 3)).toEqual(['IMEI', 'PickTime (UTC+08:00)', 'Longitude']);
    expect(headersOf('fix', 'zh', '-05:00').slice(0, 2)).toEqual(['IMEI', '定位时间 (UTC-05:00)']);
    expect(timeColumnsOf('fix').map((i) => headersOf('fix', 'en', '+00:00')[i])).toEqual(['PickTime (UTC+00:00)', 'TransmissionTime (UTC+00:00)', 'Marked invalid at (UTC+00:00)']);
    expect(headersOf('acceleration', 'en', '+08:00').slice(0, 4)).toEqual(['IMEI', 'BurstTime (UTC+08:00)', 'Time (UTC+08:00)', 'Frequency (Hz)']);
    expect(headersOf('event', 'en', '+08:00')).toEqual(['IMEI', 'Time (UTC+08:00)', 'Event', 'Content']);
    expect(headersOf('temperature', 'en', '+08:00')).toEqual(['IMEI', 'Time (UTC+08:00)', 'Temperature (°C)']);
    expect(timeColumnsOf('temperature')).toEqual([1]);
  });
});
