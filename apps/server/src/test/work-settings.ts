import type { WorkSettings } from '@wildtrack/contract';

/**
 * A work status as a device reports it, for tests: a fix an hour, data sent at 0, 6, 12 and 18 h UTC,
 * acceleration off; `over` changes what a test is about.
 */
export function workSettings(over: Partial<WorkSettings> = {}): WorkSettings {
  return {
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
    PacketSize: null,
    AccEnabled: false,
    AccFollowGNSS: false,
    AccFrequencyHz: null,
    AccIntervalMinutes: null,
    ...over,
  };
}
