import { ACCELERATION_FLAGS, SENSOR_CALL_KINDS, SENSOR_KIND_NAMES, SENSOR_KINDS, SensorFlag, type SensorKindName, type SensorKindRow, type sensorSortFields, type Texts } from '@wildtrack/contract';

/** What the /track switch offers beside positions: the scalar kinds, and acceleration (its own panel). */
export type DataKind = 'positions' | SensorKindName | 'acceleration';

/** The kinds a device's sensor flags offer, in the switch's order (a kind it lacks is not offered). */
export function kindsOf(sensorMask: number): DataKind[] {
  const kinds: DataKind[] = ['positions'];
  if (ACCELERATION_FLAGS.some((f) => (sensorMask & SensorFlag[f]) !== 0)) kinds.push('acceleration');
  for (const kind of SENSOR_KIND_NAMES) if ((sensorMask & SensorFlag[SENSOR_CALL_KINDS[kind].flag]) !== 0) kinds.push(kind);
  return kinds;
}

/**
 * How a kind's values are drawn, from the contract's kinds table: each value column's field (§3 name),
 * label and unit in both languages, colour and y axis (0 left, 1 right: magnetism's angle in degrees).
 */
export interface ValueStyle {
  field: string;
  label: Texts;
  unit: Texts;
  color: string;
  axis: 0 | 1;
  /** Drawn as dots, not a line: a compass angle wraps at 360°, a line across the wrap would mean nothing. */
  dots?: true;
}

export const KIND_VALUES = Object.fromEntries(
  SENSOR_KIND_NAMES.map((kind) => [
    kind,
    (SENSOR_KINDS[kind] as SensorKindRow).values.map((v): ValueStyle => ({ field: v.field, label: v.label, unit: v.unit, color: v.color, axis: v.axis ?? 0, ...(v.circular ? { dots: true as const } : {}) })),
  ]),
) as unknown as Record<SensorKindName, readonly ValueStyle[]>;

export type SensorSortField = ReturnType<typeof sensorSortFields>[number];
