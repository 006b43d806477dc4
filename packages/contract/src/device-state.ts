import { z } from 'zod';
import { defineCall } from './call.js';
import { type WorkSettings, WorkSettingsSchema } from './calls/mount.js';
import { BatteryType } from './device.js';
import { TimeZoneField } from './paging.js';
import { ImeiSchema } from './validation.js';

/**
 * Device state that tells the truth (issue 12 item 1): the battery level read by battery type, and whether
 * a device is reporting as its own schedule says it should. Shared by the server (details, work status)
 * and the web (marks refreshed against the clock).
 */

// ---- battery --------------------------------------------------------------------------------------

/** A level curve: the percent shown when the voltage is above `above` (first match, highest first). */
export type BatteryCurve = readonly { above: number; percent: number }[];

/**
 * Level curves by battery type.
 * - Li (and Unknown, the spec's default): the §9 levels of a rechargeable Li-ion cell (4.2 V full).
 * - LIC, a lithium-ion capacitor: it works between 2.2 V (empty) and 3.8 V (full) and its stored energy goes
 *   with V², so half the energy is left at ~3.0 V; levels at 3.70 / 3.30 / 3.00 / 2.60 V.
 * - LiSOCl2Added, a lithium-thionyl chloride primary cell (e.g. Saft LS/LSH 14-17, Tadiran SL-760): its
 *   voltage sits on a flat ~3.6 V plateau for most of its life (3.67 V open circuit, ~3.5-3.6 V under a
 *   tag's load) and falls only in the last few percent of its capacity, so the voltage says "plenty" or
 *   "near the end", never a true percentage. Above 3.50 V plenty (100 %), 3.40-3.50 V low (30 %),
 *   3.30-3.40 V very low (10 %), at or below 3.30 V critical (0 %, the cut-off of most tags is ~3.0-3.2 V).
 */
export const BATTERY_CURVES: Readonly<Record<BatteryType, BatteryCurve>> = {
  [BatteryType.Unknown]: [
    { above: 4.2, percent: 100 },
    { above: 3.82, percent: 50 },
    { above: 3.77, percent: 30 },
    { above: 3.68, percent: 10 },
  ],
  [BatteryType.Li]: [
    { above: 4.2, percent: 100 },
    { above: 3.82, percent: 50 },
    { above: 3.77, percent: 30 },
    { above: 3.68, percent: 10 },
  ],
  [BatteryType.LIC]: [
    { above: 3.7, percent: 100 },
    { above: 3.3, percent: 50 },
    { above: 3.0, percent: 30 },
    { above: 2.6, percent: 10 },
  ],
  [BatteryType.LiSOCl2Added]: [
    { above: 3.5, percent: 100 },
    { above: 3.4, percent: 30 },
    { above: 3.3, percent: 10 },
  ],
};

function curveOf(batteryType: number): BatteryCurve {
  return BATTERY_CURVES[batteryType as BatteryType] ?? BATTERY_CURVES[BatteryType.Unknown];
}

/** Battery percent (100, 50, 30, 10 or 0) of a voltage on the curve of the battery type. */
export function batteryLevelOf(voltage: number, batteryType: number): number {
  for (const level of curveOf(batteryType)) if (voltage > level.above) return level.percent;
  return 0;
}

export type BatteryHealth = 'good' | 'low' | 'critical';
/** good at 50 % and above, low at 10-30 %, critical at 0 %. */
export function batteryHealth(percent: number): BatteryHealth {
  return percent >= 50 ? 'good' : percent > 0 ? 'low' : 'critical';
}

// ---- reporting against the schedule --------------------------------------------------------------

/** What of a device's configured work status decides how often its fixes should arrive. */
export interface ReportSchedule {
  GNSSCollectionMode: number;
  NormalType: 'HOURS' | 'INTERVAL';
  CustomHours: readonly number[];
  IntervalMinutes: number | null;
  HighFrequencyIntervals: { High: number; Medium: number; Low: number };
  LowFrequencyHours: { High: readonly number[]; Medium: readonly number[]; Low: readonly number[] };
  DataPostbackMode: 'DATA_CNT' | 'HOUR';
  PostbackHours: readonly number[];
  Realtime: boolean;
  PacketCount: number | null;
}

const DAY_MIN = 24 * 60;

/** The longest gap, in minutes, between whole hours of a day taken round the clock (a day for one hour). */
export function longestHourGapMinutes(hours: readonly number[]): number {
  const sorted = [...new Set(hours)].filter((h) => h >= 0 && h <= 23).sort((a, b) => a - b);
  if (sorted.length === 0) return DAY_MIN;
  let gap = 24 - sorted[sorted.length - 1]! + sorted[0]!;
  for (let i = 1; i < sorted.length; i++) gap = Math.max(gap, sorted[i]! - sorted[i - 1]!);
  return gap * 60;
}

/**
 * The longest the configured schedule leaves between two fixes, in minutes. Voltage-adaptive modes take
 * their slowest (low-battery) setting, so a tag that saves its battery is not called late.
 */
export function fixGapMinutes(s: ReportSchedule): number {
  if (s.GNSSCollectionMode === 128) return Math.max(1, s.HighFrequencyIntervals.Low, s.HighFrequencyIntervals.Medium, s.HighFrequencyIntervals.High);
  if (s.GNSSCollectionMode === 129) return longestHourGapMinutes(s.LowFrequencyHours.Low.length ? s.LowFrequencyHours.Low : s.LowFrequencyHours.High);
  if (s.NormalType === 'HOURS') return longestHourGapMinutes(s.CustomHours);
  return Math.max(1, s.IntervalMinutes ?? 60);
}

/**
 * The longest a fix may wait on the device before it is sent, in minutes: none in real time, the longest
 * gap between postback hours, or the time to take PacketCount fixes.
 */
export function postbackWaitMinutes(s: ReportSchedule): number {
  if (s.Realtime) return 0;
  if (s.DataPostbackMode === 'DATA_CNT') return Math.max(1, s.PacketCount ?? 1) * fixGapMinutes(s);
  return longestHourGapMinutes(s.PostbackHours);
}

/**
 * The rule of the online / late / silent mark. The newest fix the server holds may be, by the schedule
 * alone, one fix gap plus one postback wait old: that sum (at least MIN_REPORT_GAP minutes) is the
 * device's expected report gap. A device is online while its last fix is at most ONLINE_FACTOR gaps old,
 * late up to LATE_FACTOR gaps, silent beyond; a device with no fix at all never reported.
 */
export const LINK_RULE = { ONLINE_FACTOR: 1.5, LATE_FACTOR: 4, MIN_REPORT_GAP: 10 } as const;

/**
 * The expected report gap of a device whose schedule is unknown (it never reported its work status): a
 * day, the slowest schedule a tag commonly has, so that such a device is called late only after days.
 */
export const UNKNOWN_SCHEDULE_REPORT_GAP_MINUTES = 24 * 60;

/** The expected report gap of a schedule, in minutes (see LINK_RULE). */
export function expectedReportGapMinutes(s: ReportSchedule): number {
  return Math.max(LINK_RULE.MIN_REPORT_GAP, fixGapMinutes(s) + postbackWaitMinutes(s));
}

/** The expected report gap of a device's schedule (minutes); a day for an unknown one. */
export function reportGapOf(s: ReportSchedule | null): number {
  return s === null ? UNKNOWN_SCHEDULE_REPORT_GAP_MINUTES : expectedReportGapMinutes(s);
}

/**
 * How long an instruction may wait for its device before it is COMM_ERROR (docs/ingest.md "Instructions"):
 * the device's expected report gap by its schedule (a fix gap plus its postback wait; a day when its
 * schedule is unknown) plus a margin of half that gap, at least COMM_MARGIN_MIN_MS. Counted from sending,
 * and again from each delivery (the device then owes its acknowledgement by its next contact). The
 * console's instructions and ingest's deliveries both count it.
 */
export const COMM_MARGIN_MIN_MS = 30 * 60_000;
export function commWindowMs(s: ReportSchedule | null): number {
  const gap = reportGapOf(s) * 60_000;
  return gap + Math.max(COMM_MARGIN_MIN_MS, gap / 2);
}

/**
 * A device's work status as the server stores it (device_work_status.settings, JSON, hours in UTC), or null
 * when the device never reported one (or what is stored is not one): ingest writes it, the console reads it.
 */
export function readWorkStatus(stored: string | undefined | null): WorkSettings | null {
  if (!stored) return null;
  let json: unknown;
  try {
    json = JSON.parse(stored);
  } catch {
    return null;
  }
  const parsed = WorkSettingsSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export type LinkState = 'never' | 'online' | 'late' | 'silent';
export const LINK_STATES: readonly LinkState[] = ['never', 'online', 'late', 'silent'];

/** The mark of a device whose last fix was at `lastFixMs` (epoch ms, null: none), seen at `nowMs`. */
export function linkState(lastFixMs: number | null, nowMs: number, reportGapMinutes: number): LinkState {
  if (lastFixMs === null) return 'never';
  const gap = Math.max(LINK_RULE.MIN_REPORT_GAP, reportGapMinutes) * 60_000;
  const age = Math.max(0, nowMs - lastFixMs);
  if (age <= LINK_RULE.ONLINE_FACTOR * gap) return 'online';
  if (age <= LINK_RULE.LATE_FACTOR * gap) return 'late';
  return 'silent';
}

/**
 * How long ago, as a number and the unit Intl.RelativeTimeFormat takes: seconds under a minute, then
 * minutes, hours under two days, then days (a value never below 0: a clock a little ahead reads "now").
 */
export function sinceUnit(ms: number): { value: number; unit: 'second' | 'minute' | 'hour' | 'day' } {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return { value: s, unit: 'second' };
  const m = Math.floor(s / 60);
  if (m < 60) return { value: m, unit: 'minute' };
  const h = Math.floor(m / 60);
  if (h < 48) return { value: h, unit: 'hour' };
  return { value: Math.floor(h / 24), unit: 'day' };
}

/** The median of a list of numbers (null when empty); the list is not changed. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

// ---- the observed schedule (a call of our own: the spec has no payload for it) ---------------------

export const OBSERVED_DAYS_DEFAULT = 7;
export const OBSERVED_DAYS_MAX = 30;
/** Fixes read at most for the observed schedule (the newest ones of the window). */
export const OBSERVED_FIXES_MAX = 5000;
/** Points of the voltage trend at most (the window's fixes thinned evenly). */
export const VOLTAGE_TREND_POINTS = 200;

export const ObservedWorkSchema = z.object({
  IMEI: z.string(),
  /** The window: `Days` days up to the device's last fix (empty when it never reported). */
  Days: z.number().int(),
  From: z.string(),
  To: z.string(),
  /** Fixes in the window that the medians are taken over (at most OBSERVED_FIXES_MAX, the newest). */
  FixCount: z.number().int(),
  /** Median minutes between consecutive fixes, null under two fixes. */
  MedianFixIntervalMinutes: z.number().nullable(),
  /**
   * Median minutes from a fix to its arrival: the device's transmission time when it sends one (the
   * protocol's tx), else the server's receive time, minus the fix time. Null without fixes.
   */
  MedianPostbackDelayMinutes: z.number().nullable(),
  /** The configured schedule, for the side by side: the fix gap and the postback wait it allows (minutes); null when unknown (never reported). */
  ConfiguredFixIntervalMinutes: z.number().nullable(),
  ConfiguredPostbackWaitMinutes: z.number().nullable(),
  /** When the device last reported its configuration, in the caller's zone; '' when it never did. */
  ConfigReportedTime: z.string(),
  /** Voltage over the window: [epoch ms, volts] pairs, oldest first (fixes with a voltage, thinned). */
  Voltages: z.array(z.tuple([z.number(), z.number()])),
});
export type ObservedWork = z.infer<typeof ObservedWorkSchema>;

export const GetObservedWork = defineCall({
  path: '/api/DeviceWorkStatus/GetObserved',
  auth: 'session',
  access: 'device read',
  body: z.object({
    imei: ImeiSchema,
    days: z.number().int().min(1).max(OBSERVED_DAYS_MAX).default(OBSERVED_DAYS_DEFAULT),
    timeZone: TimeZoneField,
  }),
  data: ObservedWorkSchema,
  summary: 'The observed schedule of a device (median fix interval and postback delay over its last days) beside the configured one, and its voltage trend.',
});
