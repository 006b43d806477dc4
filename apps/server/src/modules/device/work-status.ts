import { formatTime, type Lang, message, SensorFlag, type WorkStatus } from '@wildtrack/contract';

/** The stored part of a device's work status (device_work_status.settings, JSON). */
export type WorkStatusDoc = Omit<WorkStatus, 'IMEI' | 'LastWorkTime' | 'BatteryType'>;

/** What a device does until it reports or is told otherwise: a fix an hour, data sent four times a day. */
export function defaultWorkStatus(sensors: number): WorkStatusDoc {
  const acc = (sensors & (SensorFlag.Acceleration | SensorFlag.OldAcceleration)) !== 0;
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
    AccEnabled: acc,
    AccFollowGNSS: false,
    AccFrequencyHz: acc ? 20 : null,
    AccIntervalMinutes: acc ? 10 : null,
  };
}

export function readWorkStatus(stored: string | undefined, sensors: number): WorkStatusDoc {
  if (!stored) return defaultWorkStatus(sensors);
  return { ...defaultWorkStatus(sensors), ...(JSON.parse(stored) as Partial<WorkStatusDoc>) };
}

const hoursText = (hours: number[]) => hours.map((h) => `${String(h).padStart(2, '0')}:00`).join(', ');

/** Fixes a day the schedule takes (at the highest battery level for adaptive modes). */
export function samplingTimes(doc: WorkStatusDoc): number {
  if (doc.GNSSCollectionMode === 128) return Math.round((24 * 60) / Math.max(1, doc.HighFrequencyIntervals.High));
  if (doc.GNSSCollectionMode === 129) return doc.LowFrequencyHours.High.length;
  return doc.NormalType === 'HOURS' ? doc.CustomHours.length : Math.round((24 * 60) / Math.max(1, doc.IntervalMinutes ?? 60));
}

export function describeWorkStatus(doc: WorkStatusDoc, lang: Lang) {
  const f = doc.HighFrequencyIntervals;
  const l = doc.LowFrequencyHours;
  const gnss =
    doc.GNSSCollectionMode === 128
      ? message(lang, 'ws.gnss.adaptiveHigh', { high: f.High, medium: f.Medium, low: f.Low })
      : doc.GNSSCollectionMode === 129
        ? message(lang, 'ws.gnss.adaptiveLow', { high: l.High.length, medium: l.Medium.length, low: l.Low.length })
        : doc.NormalType === 'HOURS'
          ? message(lang, 'ws.gnss.hours', { hours: hoursText(doc.CustomHours) })
          : message(lang, 'ws.gnss.interval', { minutes: doc.IntervalMinutes ?? 60 });
  const acc = !doc.AccEnabled
    ? message(lang, 'ws.acc.off')
    : doc.AccFollowGNSS
      ? message(lang, 'ws.acc.follow', { hz: doc.AccFrequencyHz ?? 0 })
      : message(lang, 'ws.acc.on', { hz: doc.AccFrequencyHz ?? 0, minutes: doc.AccIntervalMinutes ?? 0 });
  const postback = doc.Realtime
    ? message(lang, 'ws.postback.realtime')
    : doc.DataPostbackMode === 'DATA_CNT'
      ? message(lang, 'ws.postback.count', { count: doc.PacketCount ?? 0 })
      : message(lang, 'ws.postback.hours', { hours: hoursText(doc.PostbackHours) });
  return {
    GNSSCollectionDesc: gnss,
    AccCollectionDesc: acc,
    DataPostbackDesc: postback,
    PostBackFrequency: postback,
    PostBackTime: doc.DataPostbackMode === 'HOUR' && !doc.Realtime ? hoursText(doc.PostbackHours) : '',
    SamplingTimes: samplingTimes(doc),
  };
}

export function workStatusOf(imei: string, lastWork: number | null, batteryType: number, doc: WorkStatusDoc, zone: string): WorkStatus {
  return { IMEI: imei, LastWorkTime: formatTime(lastWork, zone), BatteryType: batteryType, ...doc };
}
