import { z } from 'zod';
import { defineCall } from '../call.js';
import { type SensorFlagName, SensorKind } from '../device.js';
import { SENSOR_KIND_NAMES, SENSOR_KINDS, type SensorKindName, type SensorValueField } from '../sensor-kinds.js';
import { orderedRange, PageSchema, SortOrderSchema, TimeTextSchema, TimeZoneField } from '../paging.js';
import { ImeiSchema as imei } from '../validation.js';

/**
 * Sensor calls (§3 Other sensor records, §7.2 Sensors): per kind a count and a page over a range of one
 * device. Times go in and out as text in the caller's zone (timeZone, else the user's); the range's end
 * second is included whole. Every call needs the device read right; a share's recipient sees only the
 * records inside the share's window; a device without the kind's sensor flag is refused with 601 naming
 * `imei`. Pages are JSON; the long series as base64 binary come in a later slice.
 *
 * The spec names the records' fields but not the paths: they are /api/Sensor/Get<Kind>Count and
 * /api/Sensor/Get<Kind>List, with the kind spelt as its sensor flag (§3), and the acceleration pair
 * marked V2 as §7.2 names it.
 */

const range = {
  imei,
  startTime: TimeTextSchema,
  endTime: TimeTextSchema,
  timeZone: TimeZoneField,
};
const countBody = z.object(range);
const countData = z.object({ Count: z.number().int() });

/** A kind's record (§3): its time, then its values by field in the stored order. */
export type SensorRecordOf<K extends SensorKindName> = { Time: string } & { [F in SensorValueField<K>]: number };

function recordSchema<K extends SensorKindName>(kind: K) {
  const shape: Record<string, z.ZodType> = { Time: z.string() };
  for (const field of SensorKind[kind].values) shape[field] = z.number();
  return z.object(shape) as unknown as z.ZodObject<{ Time: z.ZodString } & { [F in SensorValueField<K>]: z.ZodNumber }>;
}

/**
 * One acceleration sample (§3): Time with milliseconds ('YYYY-MM-DD HH:mm:ss.SSS', caller's zone), the raw
 * counts as the tag sent them (OriginX/Y/Z), calibrated X/Y/Z in g ((raw − offset) × scale) and ODBA in g
 * (the sum over the axes of |calibrated − the burst's mean|). An axis the burst did not sample is null.
 */
export const AccelerationSampleSchema = z.object({
  Time: z.string(),
  OriginX: z.number().int().nullable(),
  OriginY: z.number().int().nullable(),
  OriginZ: z.number().int().nullable(),
  X: z.number().nullable(),
  Y: z.number().nullable(),
  Z: z.number().nullable(),
  ODBA: z.number(),
});
export type AccelerationSample = z.infer<typeof AccelerationSampleSchema>;

/** An acceleration burst: when it began, how it was sampled, its mean ODBA and its samples in order. */
export const AccelerationBurstSchema = z.object({
  /** The burst's start as epoch ms in decimal text: names it within its device. */
  Id: z.string(),
  /** The start, caller's zone, to the second. */
  Time: z.string(),
  /** Samples per second on each axis, Hz. */
  Frequency: z.number(),
  /** The axes sampled, e.g. 'XYZ'. */
  Axes: z.string(),
  SampleCount: z.number().int(),
  /** Mean ODBA over the burst's samples, g. */
  MeanODBA: z.number(),
  Samples: z.array(AccelerationSampleSchema),
});
export type AccelerationBurst = z.infer<typeof AccelerationBurstSchema>;

/**
 * Each scalar kind's record schema and the sensor flag that offers it (§3 Sensor support flags), from the
 * kinds' table (sensor-kinds.ts).
 */
export const SENSOR_CALL_KINDS = Object.fromEntries(SENSOR_KIND_NAMES.map((k) => [k, { flag: SENSOR_KINDS[k].flag, record: recordSchema(k) }])) as unknown as {
  readonly [K in SensorKindName]: { readonly flag: (typeof SENSOR_KINDS)[K]['flag']; readonly record: ReturnType<typeof recordSchema<K>> };
};

/** The sensor flags that mean a device records acceleration bursts. */
export const ACCELERATION_FLAGS: readonly SensorFlagName[] = ['Acceleration', 'OldAcceleration'];

function listBody(sortFields: readonly [string, ...string[]]) {
  return z
    .object({ ...range, ...PageSchema, sortField: z.enum(sortFields).optional(), sortOrder: SortOrderSchema.optional() })
    .superRefine(orderedRange);
}

/** Sort fields of a kind's list: its time, or one of its values (§3 names). */
export function sensorSortFields(kind: SensorKindName): readonly [string, ...string[]] {
  return ['Time', ...SensorKind[kind].values];
}

function sensorCalls<K extends SensorKindName>(kind: K) {
  const { record } = SENSOR_CALL_KINDS[kind];
  const { flag, noun } = SENSOR_KINDS[kind];
  return {
    count: defineCall({
      path: `/api/Sensor/Get${flag}Count`,
      auth: 'session',
      access: 'device read',
      body: countBody.superRefine(orderedRange),
      data: countData,
      summary: `How many ${noun.en} records of a device fall in the range.`,
    }),
    list: defineCall({
      path: `/api/Sensor/Get${flag}List`,
      auth: 'session',
      access: 'device read',
      body: listBody(sensorSortFields(kind)),
      data: z.object({ List: z.array(record), Total: z.number().int() }),
      summary: `One page of a device's ${noun.en} records over the range (Time descending by default).`,
    }),
  };
}

/** The count and list call of each scalar kind, by kind (the server registers them from here). */
export const SENSOR_CALLS = Object.fromEntries(SENSOR_KIND_NAMES.map((k) => [k, sensorCalls(k)])) as unknown as { readonly [K in SensorKindName]: ReturnType<typeof sensorCalls<K>> };

// Each kind's pair by the name the spec's console calls it (calls/index.ts lists them for `calls`; the
// contract's sensor-kinds test fails on a kind whose pair is missing from `calls`).
export const { count: GetTemperatureCount, list: GetTemperatureList } = SENSOR_CALLS.temperature;
export const { count: GetPressureCount, list: GetPressureList } = SENSOR_CALLS.pressure;
export const { count: GetWaterDepthCount, list: GetWaterDepthList } = SENSOR_CALLS.waterDepth;
export const { count: GetRedInfraredLightCount, list: GetRedInfraredLightList } = SENSOR_CALLS.redInfrared;
export const { count: GetLightIntensityCount, list: GetLightIntensityList } = SENSOR_CALLS.light;
export const { count: GetHumidityCount, list: GetHumidityList } = SENSOR_CALLS.humidity;
export const { count: GetMagnetismCount, list: GetMagnetismList } = SENSOR_CALLS.magnetism;

/** The chart widths a series may be asked for, in pixels (a series never has more points than twice this). */
export const SERIES_WIDTH = { min: 16, max: 8192 } as const;

/**
 * One kind's values over a range as a chart draws them (§7.1 base64 binary, sensor-series-codec.ts): every
 * record when there are at most twice `width` of them, else a min/max/mean envelope of `width` time
 * buckets computed by the server, so that a million records cost the wire a few kilobytes. A chart asks
 * again with the visible range when it is zoomed.
 */
export const GetSensorSeries = defineCall({
  path: '/api/Sensor/GetSeries',
  auth: 'session',
  access: 'device read',
  body: z
    .object({ ...range, kind: z.enum(SENSOR_KIND_NAMES as [SensorKindName, ...SensorKindName[]]), width: z.number().int().min(SERIES_WIDTH.min).max(SERIES_WIDTH.max) })
    .superRefine(orderedRange),
  data: z.string(),
  bytes: true,
  summary: "A device's records of one sensor kind over the range for a chart of `width` pixels: the records, or a min/max/mean envelope per bucket, as base64 protobuf SensorSeries.",
});

export const ACCELERATION_SORT_FIELDS = ['Time', 'MeanODBA'] as const;

export const GetAccelerationCountV2 = defineCall({
  path: '/api/Sensor/GetAccelerationCountV2',
  auth: 'session',
  access: 'device read',
  body: countBody.superRefine(orderedRange),
  data: countData,
  summary: 'How many acceleration bursts of a device began in the range.',
});

export const GetAccelerationListV2 = defineCall({
  path: '/api/Sensor/GetAccelerationListV2',
  auth: 'session',
  access: 'device read',
  body: listBody(ACCELERATION_SORT_FIELDS),
  data: z.object({ List: z.array(AccelerationBurstSchema), Total: z.number().int() }),
  summary: "One page of a device's acceleration bursts over the range, each with its samples (raw, calibrated, ODBA); start time descending by default.",
});
