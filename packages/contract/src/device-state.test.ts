import { describe, expect, it } from 'vitest';
import { BatteryType } from './device.js';
import {
  batteryHealth,
  batteryLevelOf,
  expectedReportGapMinutes,
  fixGapMinutes,
  linkState,
  longestHourGapMinutes,
  median,
  postbackWaitMinutes,
  type ReportSchedule,
  sinceUnit,
} from './device-state.js';

const schedule = (over: Partial<ReportSchedule> = {}): ReportSchedule => ({
  GNSSCollectionMode: 0,
  NormalType: 'INTERVAL',
  CustomHours: [],
  IntervalMinutes: 60,
  HighFrequencyIntervals: { High: 10, Medium: 30, Low: 60 },
  LowFrequencyHours: { High: [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22], Medium: [0, 3, 6, 9, 12, 15, 18, 21], Low: [0, 4, 8, 12, 16, 20] },
  DataPostbackMode: 'HOUR',
  PostbackHours: [0, 6, 12, 18],
  Realtime: false,
  PacketCount: null,
  ...over,
});

describe('battery level by battery type', () => {
  it('reads a Li cell on the §9 levels (Unknown too)', () => {
    for (const type of [BatteryType.Li, BatteryType.Unknown]) {
      expect([4.3, 4.2, 3.9, 3.8, 3.7, 3.6].map((v) => batteryLevelOf(v, type))).toEqual([100, 50, 50, 30, 10, 0]);
    }
  });

  it('reads a LiSOCl2 primary cell on its own plateau curve: 3.6 V is plenty, not 0 %', () => {
    const l = (v: number) => batteryLevelOf(v, BatteryType.LiSOCl2Added);
    expect(batteryLevelOf(3.6, BatteryType.Li)).toBe(0);
    expect([3.66, 3.6, 3.51, 3.5, 3.45, 3.35, 3.3, 3.1].map(l)).toEqual([100, 100, 100, 30, 30, 10, 0, 0]);
    expect(batteryHealth(l(3.6))).toBe('good');
    expect(batteryHealth(l(3.42))).toBe('low');
    expect(batteryHealth(l(3.25))).toBe('critical');
  });

  it('reads a lithium-ion capacitor between 2.2 and 3.8 V', () => {
    expect([3.8, 3.5, 3.1, 2.8, 2.4].map((v) => batteryLevelOf(v, BatteryType.LIC))).toEqual([100, 50, 30, 10, 0]);
  });

  it('takes an unknown code as Unknown', () => {
    expect(batteryLevelOf(3.9, 42)).toBe(50);
  });
});

describe('the expected report gap of a schedule', () => {
  it('adds the fix gap and the postback wait', () => {
    expect(fixGapMinutes(schedule())).toBe(60);
    expect(postbackWaitMinutes(schedule())).toBe(360);
    expect(expectedReportGapMinutes(schedule())).toBe(420);
    expect(expectedReportGapMinutes(schedule({ Realtime: true, IntervalMinutes: 10 }))).toBe(10);
    expect(expectedReportGapMinutes(schedule({ Realtime: true, IntervalMinutes: 2 }))).toBe(10); // the floor
  });

  it('takes the longest gap round the clock for hour lists', () => {
    expect(longestHourGapMinutes([8, 20])).toBe(720);
    expect(longestHourGapMinutes([1, 2, 23])).toBe(21 * 60);
    expect(longestHourGapMinutes([5])).toBe(1440);
    expect(longestHourGapMinutes([])).toBe(1440);
    expect(fixGapMinutes(schedule({ NormalType: 'HOURS', CustomHours: [6, 18] }))).toBe(720);
  });

  it('takes the slowest setting of a voltage-adaptive mode', () => {
    expect(fixGapMinutes(schedule({ GNSSCollectionMode: 128 }))).toBe(60);
    expect(fixGapMinutes(schedule({ GNSSCollectionMode: 129 }))).toBe(240);
  });

  it('counts packets at the fix gap for DATA_CNT', () => {
    expect(postbackWaitMinutes(schedule({ DataPostbackMode: 'DATA_CNT', PacketCount: 5, IntervalMinutes: 30 }))).toBe(150);
  });
});

describe('online, late, silent', () => {
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);
  const ago = (min: number) => now - min * 60_000;

  it('says never for a device without a fix', () => {
    expect(linkState(null, now, 60)).toBe('never');
  });

  it('is online up to 1.5 gaps, late up to 4, silent beyond', () => {
    expect(linkState(ago(0), now, 60)).toBe('online');
    expect(linkState(ago(90), now, 60)).toBe('online');
    expect(linkState(ago(91), now, 60)).toBe('late');
    expect(linkState(ago(240), now, 60)).toBe('late');
    expect(linkState(ago(241), now, 60)).toBe('silent');
    // the same age judged against another schedule
    expect(linkState(ago(241), now, 420)).toBe('online');
  });

  it('takes a fix from a clock a little ahead as online', () => {
    expect(linkState(now + 30_000, now, 60)).toBe('online');
  });
});

describe('helpers', () => {
  it('tells how long ago in one unit', () => {
    expect(sinceUnit(-5000)).toEqual({ value: 0, unit: 'second' });
    expect(sinceUnit(59_000)).toEqual({ value: 59, unit: 'second' });
    expect(sinceUnit(12 * 60_000 + 5000)).toEqual({ value: 12, unit: 'minute' });
    expect(sinceUnit(47 * 3_600_000)).toEqual({ value: 47, unit: 'hour' });
    expect(sinceUnit(3 * 86_400_000)).toEqual({ value: 3, unit: 'day' });
  });

  it('takes medians', () => {
    expect(median([])).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
