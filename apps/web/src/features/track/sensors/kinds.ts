import { ACCELERATION_FLAGS, SENSOR_CALL_KINDS, SENSOR_KIND_NAMES, SensorFlag, type SensorKindName, type sensorSortFields } from '@wildtrack/contract';

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
 * How a kind's values are drawn: each value column's field (§3 name, also its i18n key under
 * trackSensors.field), colour, unit key and y axis (0 left, 1 right: magnetism's angle in degrees).
 */
export interface ValueStyle {
  field: string;
  color: string;
  unit: string;
  axis: 0 | 1;
  /** Drawn as dots, not a line: a compass angle wraps at 360°, a line across the wrap would mean nothing. */
  dots?: true;
}

export const KIND_VALUES: Record<SensorKindName, readonly ValueStyle[]> = {
  temperature: [{ field: 'Temperature', color: '#d9480f', unit: 'celsius', axis: 0 }],
  pressure: [{ field: 'Pressure', color: '#5f3dc4', unit: 'hpa', axis: 0 }],
  waterDepth: [{ field: 'WaterDepth', color: '#1864ab', unit: 'metre', axis: 0 }],
  redInfrared: [
    { field: 'RedLight', color: '#e03131', unit: 'counts', axis: 0 },
    { field: 'InfraredLight', color: '#862e9c', unit: 'counts', axis: 0 },
  ],
  light: [{ field: 'LightIntensity', color: '#e67700', unit: 'lux', axis: 0 }],
  humidity: [{ field: 'Humidity', color: '#0b7285', unit: 'percent', axis: 0 }],
  magnetism: [
    { field: 'X', color: '#c92a2a', unit: 'microtesla', axis: 0 },
    { field: 'Y', color: '#2b8a3e', unit: 'microtesla', axis: 0 },
    { field: 'Z', color: '#1864ab', unit: 'microtesla', axis: 0 },
    { field: 'Angle', color: '#495057', unit: 'degree', axis: 1, dots: true },
  ],
};

export type SensorSortField = ReturnType<typeof sensorSortFields>[number];
