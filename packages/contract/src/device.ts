import { PRECISION_GRADES, PRECISION_N_VALUES, type PrecisionLetter } from './constants.js';
import { SENSOR_KIND_NAMES, SENSOR_KINDS, type SensorKindFlag, type SensorKindName, type SensorValueField } from './sensor-kinds.js';

/**
 * Device and sensor enums of §3/§4, with the decisions where the spec disagrees with itself:
 * device type Unknown=0, Tracker=1, VHFReceiver=2, Phone=3; sex Unknown/Male/Female.
 */

export const DeviceType = { Unknown: 0, Tracker: 1, VHFReceiver: 2, Phone: 3 } as const;
export type DeviceType = (typeof DeviceType)[keyof typeof DeviceType];

export const SpeciesType = { Unknown: 0, OtherSpecies: 1, Bird: 2, Beast: 3 } as const;
export type SpeciesType = (typeof SpeciesType)[keyof typeof SpeciesType];

export const BatteryType = { Unknown: 0, Li: 1, LIC: 2, LiSOCl2Added: 3 } as const;
export type BatteryType = (typeof BatteryType)[keyof typeof BatteryType];

/**
 * Device work status (§4). The spec names the states and says codes 2, 3 and 4 allow remote
 * instructions; those are the three states in which a tag is powered and reachable.
 */
export const DeviceStatus = {
  Stock: 1,
  NotMounted: 2,
  Working: 3,
  UnderMaintenance: 4,
  Retrieved: 5,
  ShutDown: 6,
  Malfunction: 7,
  ServicesUnavailable: 8,
  Virtual: 9,
} as const;
export type DeviceStatus = (typeof DeviceStatus)[keyof typeof DeviceStatus];
export const INSTRUCTABLE_STATUSES: readonly number[] = [DeviceStatus.NotMounted, DeviceStatus.Working, DeviceStatus.UnderMaintenance];

/**
 * The sensor support flags (§3) that are no scalar kind's, as bit positions of Device.Sensor; the scalar
 * kinds' flags come from their rows (sensor-kinds.ts).
 */
const OTHER_SENSOR_BITS = { GNSS: 0, Acceleration: 1, OldAcceleration: 2, Image: 6, Video: 7, Audio: 8 } as const;

/** Sensor support flags (§3) as bits of Device.Sensor, in bit order. */
export const SensorFlag: Readonly<Record<keyof typeof OTHER_SENSOR_BITS | SensorKindFlag, number>> = Object.fromEntries(
  [...Object.entries(OTHER_SENSOR_BITS), ...SENSOR_KIND_NAMES.map((k) => [SENSOR_KINDS[k].flag, SENSOR_KINDS[k].bit] as const)]
    .sort((a, b) => a[1] - b[1])
    .map(([name, bit]) => [name, 1 << bit]),
) as Record<keyof typeof OTHER_SENSOR_BITS | SensorKindFlag, number>;
export type SensorFlagName = keyof typeof SensorFlag;
export const SENSOR_FLAG_NAMES = Object.keys(SensorFlag) as SensorFlagName[];

export function sensorMask(names: readonly SensorFlagName[]): number {
  return names.reduce((m, n) => m | SensorFlag[n], 0);
}

export function sensorNames(mask: number): SensorFlagName[] {
  return SENSOR_FLAG_NAMES.filter((n) => (mask & SensorFlag[n]) !== 0);
}

/** Instruction support flags (§3) as bits of Device.InstrSupport. */
export const InstrSupportFlag = {
  AccCollectionSwitch: 1 << 0,
  AccCollectionFrequency: 1 << 1,
  GNSSCollectionAdaptiveHighFrequency: 1 << 2,
  GNSSCollectionAdaptiveLowFrequency: 1 << 3,
  DataPostbackHours: 1 << 4,
} as const;
export type InstrSupportName = keyof typeof InstrSupportFlag;
export const INSTR_SUPPORT_NAMES = Object.keys(InstrSupportFlag) as InstrSupportName[];

export function instrSupportMask(names: readonly InstrSupportName[]): number {
  return names.reduce((m, n) => m | InstrSupportFlag[n], 0);
}

/**
 * Event types (§3 Event). Stored now (table `events`) for the event list and notifications of their own
 * issue: an instruction's status change is an Instr event.
 */
export const EventType = { Unknown: 0, Fence: 1, Instr: 2, FixUpdate: 3, Device: 4 } as const;
export type EventType = (typeof EventType)[keyof typeof EventType];

export const Sex = { Unknown: 0, Male: 1, Female: 2 } as const;
export const Age = { Unknown: 0, Larva: 1, Subadult: 2, Adult: 3 } as const;

/** Position validity (§5): longitude within ±180, latitude within ±90, altitude within ±10000. */
export function isValidPosition(lon: number, lat: number, alt: number | null | undefined): boolean {
  return (
    Number.isFinite(lon) && Number.isFinite(lat) && Math.abs(lon) <= 180 && Math.abs(lat) <= 90 &&
    (alt === null || alt === undefined || (Number.isFinite(alt) && Math.abs(alt) <= 10000))
  );
}

/** Speed of -1 means "no speed" (§5). */
export const NO_SPEED = -1;

/** Precision grades: A..E are 1..5; 6 and 7 are shown as N (§9). */
export const PRECISION_GRADE_VALUES: Readonly<Record<string, readonly number[]>> = {
  A: [1], B: [2], C: [3], D: [4], E: [5], N: PRECISION_N_VALUES,
};
/** The grade legend of the maps: each letter in A..E, N order with the grade drawn for it (N as 6). */
export const GRADE_LEGEND: readonly (readonly [PrecisionLetter, number])[] = PRECISION_GRADES.map((letter) => [letter, PRECISION_GRADE_VALUES[letter]![0]!] as const);
export function gradeLetter(grade: number | null | undefined): string {
  if (grade === null || grade === undefined) return '';
  return grade >= 1 && grade <= 5 ? PRECISION_GRADES[grade - 1]! : 'N';
}

/**
 * Scalar sensor kinds as they are stored: `sensor_records.kind` and the meaning of its value columns v1..v4
 * (one layout per kind, §3), made from the kinds' table (sensor-kinds.ts).
 */
export const SensorKind = Object.fromEntries(
  SENSOR_KIND_NAMES.map((k) => [k, { id: SENSOR_KINDS[k].id, values: SENSOR_KINDS[k].values.map((v) => v.field) }]),
) as unknown as { readonly [K in SensorKindName]: { readonly id: (typeof SENSOR_KINDS)[K]['id']; readonly values: readonly SensorValueField<K>[] } };

export const MediaKind = { image: 1, video: 2, audio: 3 } as const;
export type MediaKindName = keyof typeof MediaKind;

/** The sensor flags each tree filter value of §6 stands for (a device matches when it has any of them). */
export const SENSOR_FILTER_FLAGS: Record<number, number> = {
  0: 0,
  1: SensorFlag.Acceleration | SensorFlag.OldAcceleration,
  3: SensorFlag.Image,
  4: SensorFlag.Video,
  6: SensorFlag.Audio,
  7: SensorFlag.GNSS,
  ...Object.fromEntries(SENSOR_KIND_NAMES.map((k) => [SENSOR_KINDS[k].filter, SensorFlag[SENSOR_KINDS[k].flag]])),
};

export function matchesSensorFilter(sensorMask: number, filter: number): boolean {
  const flags = SENSOR_FILTER_FLAGS[filter];
  if (flags === undefined) return false;
  return flags === 0 || (sensorMask & flags) !== 0;
}

/** Tree selectability by page (§6). */
export type TreePage = 'download' | 'share' | 'instr' | 'other';
export function selectableOn(
  page: TreePage,
  device: { Type: number; Status: number },
  permission: { DownloadData: boolean; ShareDevice: boolean; RemoteInstr: boolean },
): boolean {
  if (device.Type === DeviceType.VHFReceiver) return false;
  switch (page) {
    case 'download':
      return permission.DownloadData;
    case 'share':
      return permission.ShareDevice;
    case 'instr':
      return permission.RemoteInstr && INSTRUCTABLE_STATUSES.includes(device.Status);
    default:
      return true;
  }
}
