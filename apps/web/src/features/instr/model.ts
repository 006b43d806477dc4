import {
  ACC_HZ_MAX,
  ACC_HZ_MIN,
  batteryLevelOf,
  BatteryType,
  COLLECTION_TIME_POINTS_MAX,
  GNSSCollectionMode,
  INSTRUCTION_INTERVAL_MAX,
  INSTRUCTION_INTERVAL_MIN,
  InstrSupportFlag,
  PACKET_COUNT_MAX,
  PACKET_SIZE_MAX,
  PACKET_SIZE_MIN,
  SensorFlag,
  type InstrSupportName,
  type InstrType,
  type InstructionParamsInput,
} from '@wildtrack/contract';

/**
 * The /instr form, kept apart from React so its rules can be tested: what the user sets (GNSS collection,
 * data postback, acceleration: §3 DeviceWorkStatus), the checks the form makes before anything is sent
 * (§8 "collection interval cannot be empty", "too many time points", §9 caps), which InstrSupport flag
 * (§3) each choice needs, and the battery warning of §9. The server checks all of it again.
 */

export type Section = 'gnss' | 'postback' | 'acc';
export const SECTIONS: readonly Section[] = ['gnss', 'postback', 'acc'];

export type GnssMode = (typeof GNSSCollectionMode)[keyof typeof GNSSCollectionMode];
export type Level = 'High' | 'Medium' | 'Low';
export const LEVELS: readonly Level[] = ['High', 'Medium', 'Low'];

export interface GnssForm {
  mode: GnssMode;
  /** NORMAL: a fix every `intervalMinutes`, or at `customHours`. */
  normalType: 'INTERVAL' | 'HOURS';
  intervalMinutes: number | null;
  customHours: number[];
  /** 128: minutes between fixes at each battery level. */
  highIntervals: Record<Level, number | null>;
  /** 129: fix hours at each battery level (at most 12, 8 and 6). */
  lowHours: Record<Level, number[]>;
}

export interface PostbackForm {
  mode: 'DATA_CNT' | 'HOUR';
  packetCount: number | null;
  packetSize: number | null;
  hours: number[];
  realtime: boolean;
}

export interface AccForm {
  enabled: boolean;
  followGNSS: boolean;
  hz: number | null;
  intervalMinutes: number | null;
}

export interface InstrForm {
  /** The parts the user chose to send (each an instruction, or a part of one). */
  sections: Section[];
  gnss: GnssForm;
  postback: PostbackForm;
  acc: AccForm;
}

export const INTERVAL_MIN = INSTRUCTION_INTERVAL_MIN;
export const INTERVAL_MAX = INSTRUCTION_INTERVAL_MAX;
export const HZ_OPTIONS = [1, 5, 10, 25, 50, 100].filter((hz) => hz >= ACC_HZ_MIN && hz <= ACC_HZ_MAX);
/** §9: at most this many time points at the high, medium and low battery level of mode 129. */
export const LOW_HOURS_MAX: Record<Level, number> = { High: COLLECTION_TIME_POINTS_MAX[0], Medium: COLLECTION_TIME_POINTS_MAX[1], Low: COLLECTION_TIME_POINTS_MAX[2] };
/** Custom fix hours and postback hours: any of the 24. */
export const HOURS_MAX = 24;

export function emptyForm(): InstrForm {
  return {
    sections: ['gnss'],
    gnss: {
      mode: GNSSCollectionMode.NORMAL,
      normalType: 'INTERVAL',
      intervalMinutes: null,
      customHours: [],
      highIntervals: { High: null, Medium: null, Low: null },
      lowHours: { High: [], Medium: [], Low: [] },
    },
    postback: { mode: 'DATA_CNT', packetCount: null, packetSize: null, hours: [], realtime: false },
    acc: { enabled: true, followGNSS: false, hz: null, intervalMinutes: null },
  };
}

/** A form problem: the field it belongs to and its message (an i18n key with its values). */
export interface FormIssue {
  field: string;
  key: string;
  values?: Record<string, number | string>;
}

const isInterval = (v: number | null): v is number => v !== null && Number.isInteger(v) && v >= INTERVAL_MIN && v <= INTERVAL_MAX;

function intervalIssue(field: string, v: number | null): FormIssue | null {
  if (v === null) return { field, key: 'instr.error.intervalRequired' };
  if (!isInterval(v)) return { field, key: 'instr.error.intervalRange', values: { min: INTERVAL_MIN, max: INTERVAL_MAX } };
  return null;
}

function hoursIssue(field: string, hours: readonly number[], max: number): FormIssue | null {
  if (hours.length === 0) return { field, key: 'instr.error.hoursRequired' };
  if (hours.length > max) return { field, key: 'instr.error.tooManyPoints', values: { max } };
  return null;
}

/** What keeps the form from being sent, in the order of the form (empty: it may be sent). */
export function formIssues(form: InstrForm): FormIssue[] {
  const out: (FormIssue | null)[] = [];
  if (form.sections.length === 0) out.push({ field: 'sections', key: 'instr.error.nothingChosen' });
  if (form.sections.includes('gnss')) {
    const g = form.gnss;
    if (g.mode === GNSSCollectionMode.NORMAL) {
      out.push(g.normalType === 'INTERVAL' ? intervalIssue('gnss.intervalMinutes', g.intervalMinutes) : hoursIssue('gnss.customHours', g.customHours, HOURS_MAX));
    } else if (g.mode === GNSSCollectionMode.ADAPTIVE_HIGH) {
      for (const level of LEVELS) out.push(intervalIssue(`gnss.highIntervals.${level}`, g.highIntervals[level]));
    } else {
      for (const level of LEVELS) out.push(hoursIssue(`gnss.lowHours.${level}`, g.lowHours[level], LOW_HOURS_MAX[level]));
    }
  }
  if (form.sections.includes('postback')) {
    const p = form.postback;
    if (p.mode === 'HOUR') out.push(hoursIssue('postback.hours', p.hours, HOURS_MAX));
    else {
      if (p.packetCount === null || !Number.isInteger(p.packetCount) || p.packetCount < 1 || p.packetCount > PACKET_COUNT_MAX)
        out.push({ field: 'postback.packetCount', key: 'instr.error.countRange', values: { min: 1, max: PACKET_COUNT_MAX } });
      if (p.packetSize === null || !Number.isInteger(p.packetSize) || p.packetSize < PACKET_SIZE_MIN || p.packetSize > PACKET_SIZE_MAX)
        out.push({ field: 'postback.packetSize', key: 'instr.error.sizeRange', values: { min: PACKET_SIZE_MIN, max: PACKET_SIZE_MAX } });
    }
  }
  if (form.sections.includes('acc') && form.acc.enabled && !form.acc.followGNSS) out.push(intervalIssue('acc.intervalMinutes', form.acc.intervalMinutes));
  return out.filter((i): i is FormIssue => i !== null);
}

/**
 * The InstrSupport flags (§3) the chosen options need. Normal GNSS and postback by count need none; any
 * acceleration part needs the switch, a frequency also AccCollectionFrequency (the server lets a device
 * keep its own frequency without it: the form asks for the flag whenever a frequency is chosen).
 */
export function neededSupport(form: InstrForm): InstrSupportName[] {
  const out: InstrSupportName[] = [];
  if (form.sections.includes('gnss')) {
    if (form.gnss.mode === GNSSCollectionMode.ADAPTIVE_HIGH) out.push('GNSSCollectionAdaptiveHighFrequency');
    if (form.gnss.mode === GNSSCollectionMode.ADAPTIVE_LOW) out.push('GNSSCollectionAdaptiveLowFrequency');
  }
  if (form.sections.includes('postback') && form.postback.mode === 'HOUR') out.push('DataPostbackHours');
  if (form.sections.includes('acc')) {
    out.push('AccCollectionSwitch');
    if (form.acc.enabled && form.acc.hz !== null) out.push('AccCollectionFrequency');
  }
  return out;
}

export function supports(instrSupport: number, flag: InstrSupportName): boolean {
  return (instrSupport & InstrSupportFlag[flag]) !== 0;
}

export function hasAccSensor(sensor: number): boolean {
  return (sensor & (SensorFlag.Acceleration | SensorFlag.OldAcceleration)) !== 0;
}

/** What a device lacks for the form: InstrSupport flags, or its acceleration sensor ('Acceleration'). */
export type Lack = InstrSupportName | 'Acceleration';

/** The needed flags a device lacks (empty: it can take the form as it is). */
export function missingSupport(form: InstrForm, device: { InstrSupport: number; Sensor: number }): Lack[] {
  const out: Lack[] = [];
  if (form.sections.includes('acc') && !hasAccSensor(device.Sensor)) out.push('Acceleration');
  for (const flag of neededSupport(form)) if (!supports(device.InstrSupport, flag)) out.push(flag);
  return out;
}

/** The instruction types the form sends (ACQUISITION_FREQUENCY for GNSS and acceleration, §3). */
export function typesOf(form: InstrForm): InstrType[] {
  const out: InstrType[] = [];
  if (form.sections.includes('gnss') || form.sections.includes('acc')) out.push('ACQUISITION_FREQUENCY');
  if (form.sections.includes('postback')) out.push('POSTBACK_FREQUENCY');
  return out;
}

/** The Send params of each type the form sends (call only once formIssues is empty). */
export function paramsOf(form: InstrForm): InstructionParamsInput[] {
  const out: InstructionParamsInput[] = [];
  const g = form.gnss;
  const a = form.acc;
  const p = form.postback;
  if (form.sections.includes('gnss') || form.sections.includes('acc')) {
    const gnss = !form.sections.includes('gnss')
      ? undefined
      : g.mode === GNSSCollectionMode.NORMAL
        ? g.normalType === 'INTERVAL'
          ? { Mode: 'INTERVAL' as const, IntervalMinutes: g.intervalMinutes ?? 0 }
          : { Mode: 'HOURS' as const, Hours: g.customHours }
        : g.mode === GNSSCollectionMode.ADAPTIVE_HIGH
          ? { Mode: 'ADAPTIVE_HIGH' as const, High: g.highIntervals.High ?? 0, Medium: g.highIntervals.Medium ?? 0, Low: g.highIntervals.Low ?? 0 }
          : { Mode: 'ADAPTIVE_LOW' as const, High: g.lowHours.High, Medium: g.lowHours.Medium, Low: g.lowHours.Low };
    const acc = !form.sections.includes('acc')
      ? undefined
      : !a.enabled
        ? { Mode: 'OFF' as const }
        : a.followGNSS
          ? { Mode: 'FOLLOW_GNSS' as const, FrequencyHz: a.hz }
          : { Mode: 'INTERVAL' as const, FrequencyHz: a.hz, IntervalMinutes: a.intervalMinutes ?? 0 };
    out.push({ Type: 'ACQUISITION_FREQUENCY', ...(gnss ? { GNSS: gnss } : {}), ...(acc ? { ACC: acc } : {}) });
  }
  if (form.sections.includes('postback')) {
    out.push({
      Type: 'POSTBACK_FREQUENCY',
      Postback: p.mode === 'HOUR' ? { Mode: 'HOUR', Hours: p.hours, Realtime: p.realtime } : { Mode: 'DATA_CNT', PacketCount: p.packetCount ?? 0, PacketSize: p.packetSize ?? 0, Realtime: p.realtime },
    });
  }
  return out;
}

/**
 * §9 battery levels: a device whose battery is low (10 % or less on its battery type's curve) or above a
 * full Li cell (over 4.20 V, 100 % on the Li curve: charging or a faulty reading) is better left as it is.
 */
export function batteryWarning(voltage: number | null, batteryType: number): 'low' | 'high' | null {
  if (voltage === null) return null;
  const level = batteryLevelOf(voltage, batteryType);
  if (level <= 10) return 'low';
  if ((batteryType === BatteryType.Li || batteryType === BatteryType.Unknown) && level >= 100) return 'high';
  return null;
}
