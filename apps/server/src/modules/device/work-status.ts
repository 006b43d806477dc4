import {
  fixGapMinutes,
  formatTime,
  hoursFromUtc,
  type Lang,
  message,
  type WorkSettings,
  type WorkStatus,
} from '@wildtrack/contract';

/**
 * A device's work status as the server keeps it (device_work_status.settings, JSON, hours in UTC): what the
 * device last reported in a batch (docs/ingest.md "Work status"), or what a SUCCESSFUL instruction left
 * it. A device that never reported has none: it is unknown, never a schedule made up for it. Reading the
 * stored document, its report gap and an instruction's COMM_ERROR window are the contract's (`readWorkStatus`,
 * `reportGapOf`, `commWindowMs` in device-state.ts): ingest counts them too and imports no module.
 */
export type WorkStatusDoc = WorkSettings;

const hoursText = (hours: readonly number[]) => hours.map((h) => `${String(h).padStart(2, '0')}:00`).join(', ');

/** Fixes a day the schedule takes (at the highest battery level for adaptive modes). */
export function samplingTimes(doc: WorkStatusDoc): number {
  if (doc.GNSSCollectionMode === 128) return Math.round((24 * 60) / Math.max(1, doc.HighFrequencyIntervals.High));
  if (doc.GNSSCollectionMode === 129) return doc.LowFrequencyHours.High.length;
  return doc.NormalType === 'HOURS' ? doc.CustomHours.length : Math.round((24 * 60) / Math.max(1, doc.IntervalMinutes ?? 60));
}

/** The GNSS, acceleration and postback parts of a schedule in words, hours in `zone`. */
export function describeSettings(doc: WorkStatusDoc, lang: Lang, zone: string) {
  const f = doc.HighFrequencyIntervals;
  const l = doc.LowFrequencyHours;
  const gnss =
    doc.GNSSCollectionMode === 128
      ? message(lang, 'ws.gnss.adaptiveHigh', { high: f.High, medium: f.Medium, low: f.Low })
      : doc.GNSSCollectionMode === 129
        ? message(lang, 'ws.gnss.adaptiveLow', { high: l.High.length, medium: l.Medium.length, low: l.Low.length })
        : doc.NormalType === 'HOURS'
          ? message(lang, 'ws.gnss.hours', { hours: hoursText(hoursFromUtc(doc.CustomHours, zone)) })
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
      : message(lang, 'ws.postback.hours', { hours: hoursText(hoursFromUtc(doc.PostbackHours, zone)) });
  return { gnss, acc, postback };
}

/** The detail fields of §3 a work status decides; "unknown" texts for a device that never reported one. */
export function describeWorkStatus(doc: WorkStatusDoc | null, lang: Lang, zone: string) {
  if (doc === null) {
    const unknown = message(lang, 'ws.unknown');
    return { GNSSCollectionDesc: unknown, AccCollectionDesc: unknown, DataPostbackDesc: unknown, PostBackFrequency: unknown, PostBackTime: '', SamplingTimes: null };
  }
  const d = describeSettings(doc, lang, zone);
  return {
    GNSSCollectionDesc: d.gnss,
    AccCollectionDesc: d.acc,
    DataPostbackDesc: d.postback,
    PostBackFrequency: d.postback,
    PostBackTime: doc.DataPostbackMode === 'HOUR' && !doc.Realtime ? hoursText(hoursFromUtc(doc.PostbackHours, zone)) : '',
    SamplingTimes: samplingTimes(doc),
  };
}

/** The settings with their hours in `zone` (as the caller reads them). */
function inZone(doc: WorkStatusDoc, zone: string): WorkStatusDoc {
  return {
    ...doc,
    CustomHours: hoursFromUtc(doc.CustomHours, zone),
    PostbackHours: hoursFromUtc(doc.PostbackHours, zone),
    LowFrequencyHours: {
      High: hoursFromUtc(doc.LowFrequencyHours.High, zone),
      Medium: hoursFromUtc(doc.LowFrequencyHours.Medium, zone),
      Low: hoursFromUtc(doc.LowFrequencyHours.Low, zone),
    },
  };
}

export function workStatusOf(imei: string, lastWork: number | null, batteryType: number, doc: WorkStatusDoc | null, reportedAt: number | null, zone: string): WorkStatus {
  const base = { IMEI: imei, LastWorkTime: formatTime(lastWork, zone), BatteryType: batteryType };
  if (doc === null) return { ...base, Known: false };
  return { ...base, ...inZone(doc, zone), Known: true, ReportedTime: formatTime(reportedAt, zone) };
}

const MINUTE = 60_000;

/** The first whole UTC hour of `hours` strictly after `after`. */
function nextHour(hours: readonly number[], after: number): number | null {
  if (hours.length === 0) return null;
  const HOUR = 60 * MINUTE;
  let h = Math.floor(after / HOUR) + 1;
  for (let i = 0; i < 25; i++, h++) if (hours.includes(((h % 24) + 24) % 24)) return h * HOUR;
  return null;
}

/** The device's next fix by its schedule (at the highest battery level for adaptive modes), epoch ms. */
function nextFix(s: WorkSettings, after: number): number | null {
  if (s.GNSSCollectionMode === 129) return nextHour(s.LowFrequencyHours.High, after);
  if (s.GNSSCollectionMode === 0 && s.NormalType === 'HOURS') return nextHour(s.CustomHours, after);
  const minutes = s.GNSSCollectionMode === 128 ? s.HighFrequencyIntervals.High : (s.IntervalMinutes ?? 60);
  const p = Math.max(1, minutes) * MINUTE;
  return (Math.floor(after / p) + 1) * p;
}

/**
 * The device's next postback by its current schedule (EstimateExecuteTime): its next fix when it sends in
 * real time, its next postback hour, or when PacketCount fixes will wait; null when the schedule is unknown.
 */
export function nextPostback(s: WorkSettings | null, after: number): number | null {
  if (s === null) return null;
  if (s.Realtime) return nextFix(s, after);
  if (s.DataPostbackMode === 'HOUR') return nextHour(s.PostbackHours, after);
  const first = nextFix(s, after);
  return first === null ? null : first + (Math.max(1, s.PacketCount ?? 1) - 1) * fixGapMinutes(s) * MINUTE;
}
