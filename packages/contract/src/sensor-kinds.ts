import type { Lang } from './lang.js';

/**
 * The scalar sensor kinds (§3 Other sensor records): one row per kind, from which everything per kind is
 * made: the Device.Sensor flag and the tree filter value (device.ts, constants.ts), the stored layout
 * (`SensorKind`: `sensor_records.kind` and its v1..v4 columns), the calls /api/Sensor/Get<flag>Count and
 * Get<flag>List with their record schemas (calls/sensor.ts), the refusal message's name of the sensor
 * (messages.ts `sensor.<flag>`), the export kinds with their file names and column headers (calls/export.ts,
 * the server's modules/export/tables.ts), the series envelope of circular values (modules/sensor), and the
 * console's tabs, charts, tables, tree filter, sensor icons' names and download kinds (apps/web
 * `i18n/sensor-kinds.ts`). `sensor-kinds.test.ts` fails on a row that lacks any of it.
 *
 * Adding a kind: a row here (a new `id`, `bit` and `filter`, never reused), a named export pair in
 * calls/sensor.ts and calls/index.ts (the tests name the missing one), the web's icon for its flag
 * (`SENSOR_ICON`, a type error without it) and the sample fleet's values (docs/architecture.md "Adding a
 * sensor kind"). No migration while a kind has at most four values.
 */

/** A text in each interface language. */
export type Texts = Readonly<Record<Lang, string>>;

/** One value column of a kind, in the stored order (v1, v2, …). */
export interface SensorValueColumn {
  /** The record's field (§3 name) in the list call's answer; also a sort field. */
  readonly field: string;
  /** The value's name on the console: a chart's legend, a table's column. */
  readonly label: Texts;
  /** Its unit as the console writes it after the name. */
  readonly unit: Texts;
  /** Its header in an export file (CSV, XLSX), unit included as the files have always written it. */
  readonly export: Texts;
  /** Its line's colour on /track's chart. */
  readonly color: string;
  /** Drawn against the chart's right axis (the left one is 0). */
  readonly axis?: 1;
  /**
   * Degrees that wrap at 360: a bucket's mean is the circular mean (GetSeries), and the chart draws dots,
   * since a line across the wrap would mean nothing.
   */
  readonly circular?: true;
}

export interface SensorKindRow {
  /** `sensor_records.kind`: stored, so never changed nor reused. */
  readonly id: number;
  /** The Device.Sensor flag that offers the kind (§3); also the calls' name: /api/Sensor/Get<flag>Count. */
  readonly flag: string;
  /** The flag's bit in Device.Sensor (§3). */
  readonly bit: number;
  /** The device tree's sensor filter value for the flag (§6). */
  readonly filter: number;
  /** The kind's name as a title: /track's data kind, the download form, the tree filter, the sensor icon. */
  readonly label: Texts;
  /** The kind's name inside a sentence ("This device has no … sensor", the export confirmation). */
  readonly noun: Texts;
  /** The kind's name in an export file's and sheet's name (no '/'). */
  readonly file: Texts;
  /** The value columns, 1 to 4 (`sensor_records.v1`..`v4`). */
  readonly values: readonly SensorValueColumn[];
}

const T = (zh: string, en: string): Texts => ({ zh, en });

export const SENSOR_KINDS = {
  temperature: {
    id: 1,
    flag: 'Temperature',
    bit: 3,
    filter: 2,
    label: T('温度', 'Temperature'),
    noun: T('温度', 'temperature'),
    file: T('温度', 'temperature'),
    values: [{ field: 'Temperature', label: T('温度', 'Temperature'), unit: T('°C', '°C'), export: T('温度(℃)', 'Temperature (°C)'), color: '#d9480f' }],
  },
  pressure: {
    id: 2,
    flag: 'Pressure',
    bit: 5,
    filter: 5,
    label: T('气压', 'Pressure'),
    noun: T('气压', 'pressure'),
    file: T('气压', 'pressure'),
    values: [{ field: 'Pressure', label: T('气压', 'Pressure'), unit: T('hPa', 'hPa'), export: T('气压(hPa)', 'Pressure (hPa)'), color: '#5f3dc4' }],
  },
  waterDepth: {
    id: 3,
    flag: 'WaterDepth',
    bit: 4,
    filter: 10,
    label: T('水深', 'Water depth'),
    noun: T('水深', 'water depth'),
    file: T('水深', 'water depth'),
    values: [{ field: 'WaterDepth', label: T('水深', 'Water depth'), unit: T('米', 'm'), export: T('水深(m)', 'Water depth (m)'), color: '#1864ab' }],
  },
  redInfrared: {
    id: 4,
    flag: 'RedInfraredLight',
    bit: 9,
    filter: 11,
    label: T('红光/红外光', 'Red/infrared light'),
    noun: T('红光/红外', 'red/infrared light'),
    file: T('红光红外', 'red-infrared light'),
    values: [
      { field: 'RedLight', label: T('红光', 'Red light'), unit: T('计数', 'counts'), export: T('红光', 'Red light'), color: '#e03131' },
      { field: 'InfraredLight', label: T('红外光', 'Infrared light'), unit: T('计数', 'counts'), export: T('红外光', 'Infrared light'), color: '#862e9c' },
    ],
  },
  light: {
    id: 5,
    flag: 'LightIntensity',
    bit: 10,
    filter: 12,
    label: T('光照强度', 'Light intensity'),
    noun: T('光照强度', 'light intensity'),
    file: T('光照强度', 'light intensity'),
    values: [{ field: 'LightIntensity', label: T('光照强度', 'Light intensity'), unit: T('勒克斯', 'lx'), export: T('光照强度(lux)', 'Light intensity (lux)'), color: '#e67700' }],
  },
  humidity: {
    id: 6,
    flag: 'Humidity',
    bit: 11,
    filter: 13,
    label: T('湿度', 'Humidity'),
    noun: T('湿度', 'humidity'),
    file: T('湿度', 'humidity'),
    values: [{ field: 'Humidity', label: T('湿度', 'Humidity'), unit: T('%', '%'), export: T('湿度(%)', 'Humidity (%)'), color: '#0b7285' }],
  },
  magnetism: {
    id: 7,
    flag: 'Magnetism',
    bit: 12,
    filter: 14,
    label: T('地磁', 'Magnetism'),
    noun: T('地磁', 'magnetism'),
    file: T('地磁', 'magnetism'),
    values: [
      { field: 'X', label: T('X', 'X'), unit: T('微特斯拉', 'µT'), export: T('X', 'X'), color: '#c92a2a' },
      { field: 'Y', label: T('Y', 'Y'), unit: T('微特斯拉', 'µT'), export: T('Y', 'Y'), color: '#2b8a3e' },
      { field: 'Z', label: T('Z', 'Z'), unit: T('微特斯拉', 'µT'), export: T('Z', 'Z'), color: '#1864ab' },
      { field: 'Angle', label: T('角度', 'Angle'), unit: T('°', '°'), export: T('角度(°)', 'Angle (°)'), color: '#495057', axis: 1, circular: true },
    ],
  },
} as const satisfies Record<string, SensorKindRow>;

export type SensorKindName = keyof typeof SENSOR_KINDS;
/** The kinds in the table's order (the console's tabs, the export kinds, the download form). */
export const SENSOR_KIND_NAMES = Object.keys(SENSOR_KINDS) as SensorKindName[];
/** The Device.Sensor flag of each kind. */
export type SensorKindFlag = (typeof SENSOR_KINDS)[SensorKindName]['flag'];
/** A kind's value fields (§3 names). */
export type SensorValueField<K extends SensorKindName> = (typeof SENSOR_KINDS)[K]['values'][number]['field'];

/** The kind a Device.Sensor flag offers, if it is a scalar kind's. */
export function sensorKindOfFlag(flag: string): SensorKindName | undefined {
  return SENSOR_KIND_NAMES.find((k) => SENSOR_KINDS[k].flag === flag);
}
