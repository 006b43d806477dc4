import { z } from 'zod';
import { defineCall } from '../call.js';
import { QUERY_SPAN_DAYS } from '../constants.js';
import { orderedRange, PageSchema, SortOrderSchema, TimeTextSchema, TimeZoneField } from '../paging.js';
import { ImeiSchema as imei, required } from '../validation.js';
import { FIX_SORT_FIELDS, orderedBounds, PositionFilterSchema } from '../position-filter.js';

/** Defined with the range fields (paging.ts); still importable from here, where it was first. */
export { TimeTextSchema } from '../paging.js';

/**
 * Fix calls (§3 Fix, §4 invalid-data marking, §7.2, §9 position filters). Every time goes in and out
 * as text in the caller's zone (timeZone, else the user's). A fix is named by its device and its
 * PickTime; its `Id` is that time as epoch milliseconds in decimal text.
 *
 * Bulk calls (GetList, GetListByImeis, GetAvgListByImeisAndTime) answer with Data = base64 of the
 * protobuf TrackSet of track-codec.ts; the rest are JSON.
 */

/** At most this many devices in one bulk or last-position call. */
export const MAX_IMEIS_PER_CALL = 1000;
const imeis = z.array(imei, required).min(1, { error: 'validation.imeis.empty' }).max(MAX_IMEIS_PER_CALL, { error: 'validation.tooBig' });

/** The longest range a call may ask for: the longest query span of §9 (3650 days). */
export const MAX_QUERY_SPAN_DAYS = QUERY_SPAN_DAYS[QUERY_SPAN_DAYS.length - 1]!;

const range = {
  startTime: TimeTextSchema,
  endTime: TimeTextSchema,
  timeZone: TimeZoneField,
};

/** Second-level fixes (§9): 'avg' (default) shows each run of 1 s fixes as its average, 'all' each fix. */
export const SecondLevelModeSchema = z.enum(['avg', 'all']).default('avg');
export type SecondLevelMode = z.output<typeof SecondLevelModeSchema>;

/** Validity of a fix as ValidValue says it: why a fix is or isn't valid. */
export const FixValidValue = {
  /** Position in range (§5) and not marked. */
  Valid: 1,
  /** Out of range or without a position. */
  OutOfRange: 0,
  /** Marked invalid by a user (irreversible, §4). */
  Marked: 2,
} as const;
export type FixValidValue = (typeof FixValidValue)[keyof typeof FixValidValue];

export const ConvertedInvalidSchema = z.object({
  /** The fix's Id. */
  Id: z.string(),
  OperateTime: z.string(),
  /** Who marked it (nickname or account). */
  Operator: z.string(),
});

/** A fix's annotations: source column name -> value as the source wrote it (text or number). */
export const FixAnnotationsSchema = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));
export type FixAnnotations = z.infer<typeof FixAnnotationsSchema>;

export const FixSchema = z.object({
  /** PickTime as epoch ms in decimal text: names the fix within its device. */
  Id: z.string(),
  Caption: z.string(),
  IMEI: z.string(),
  PickTime: z.string(),
  /** Absolute degrees with the hemisphere in LongitudeTag / LatitudeTag; null without a position. */
  Longitude: z.number().nullable(),
  LongitudeTag: z.enum(['E', 'W', '']),
  Latitude: z.number().nullable(),
  LatitudeTag: z.enum(['N', 'S', '']),
  /** km/h; null (or -1 from the device) when none. */
  Speed: z.number().nullable(),
  Course: z.number().nullable(),
  Altitude: z.number().nullable(),
  Temperature: z.number().nullable(),
  Exercise: z.number().nullable(),
  Voltage: z.number().nullable(),
  Channel: z.number().nullable(),
  Satellites: z.number().nullable(),
  HDOP: z.number().nullable(),
  VDOP: z.number().nullable(),
  /** 1..7 (A..E, 6-7 = N), null when unknown. */
  PrecisionGrade: z.number().int().nullable(),
  /** 1 valid, 0 not. */
  Validity: z.union([z.literal(0), z.literal(1)]),
  TransmissionTime: z.string(),
  /** Why: FixValidValue. */
  ValidValue: z.union([z.literal(FixValidValue.Valid), z.literal(FixValidValue.OutOfRange), z.literal(FixValidValue.Marked)]),
  /** Second-level average: how many 1 s fixes it stands for (absent for a single fix). */
  GroupSize: z.number().int().optional(),
  /** Second-level average: the Ids of the fixes it stands for (marking it invalid marks them all). */
  GroupIds: z.array(z.string()).optional(),
  ConvertedInvalid: ConvertedInvalidSchema.optional(),
  /**
   * One fix's detail only (GetFix): the values an import kept that no field above maps, under the
   * source's own column names (a Movebank export's Env-DATA annotations such as wind or chlorophyll,
   * e-obs columns, event-id). Absent when the fix has none; never in pages, lists or tracks.
   */
  Annotations: FixAnnotationsSchema.optional(),
});
export type Fix = z.infer<typeof FixSchema>;


const oneDevice = z.object({ imei, ...range, ...PositionFilterSchema.shape });

export const GetFixCount = defineCall({
  path: '/api/Fix/GetCount',
  auth: 'session',
  access: 'device read',
  body: oneDevice.extend({ secondLevel: SecondLevelModeSchema }).superRefine(orderedBounds),
  data: z.object({ Count: z.number().int() }),
  summary: "How many fixes of a device fall in the range and pass the filters (second-level runs counted once when averaged).",
});

export const GetFixListByPage = defineCall({
  path: '/api/Fix/GetListByPage',
  auth: 'session',
  access: 'device read',
  body: oneDevice.extend({
    ...PageSchema,
    sortField: z.enum(FIX_SORT_FIELDS).optional(),
    sortOrder: SortOrderSchema.optional(),
    secondLevel: SecondLevelModeSchema,
  }).superRefine(orderedBounds),
  data: z.object({ List: z.array(FixSchema), Total: z.number().int() }),
  summary: 'One page of the fixes table: a device, a range, the position filters, sorted (PickTime descending by default).',
});

export const GetFix = defineCall({
  path: '/api/Fix/Get',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei, id: z.string(required).regex(/^\d{1,16}$/, { error: 'validation.invalidValue' }), timeZone: TimeZoneField }),
  data: FixSchema,
  summary: 'One fix by its Id, with its Annotations (the columns an import kept that no field maps) when it has any.',
});

/** Base64 of a protobuf TrackSet (track-codec.ts). */
const TrackSetBase64 = z.string();

export const GetFixList = defineCall({
  path: '/api/Fix/GetList',
  auth: 'session',
  access: 'device read',
  body: oneDevice.extend({ secondLevel: SecondLevelModeSchema }).superRefine(orderedBounds),
  data: TrackSetBase64,
  bytes: true,
  summary: 'The track of one device over the range (positions only), as base64 protobuf TrackSet.',
});

const manyDevices = z.object({ imeis, ...range, ...PositionFilterSchema.shape });

export const GetFixListByImeis = defineCall({
  path: '/api/Fix/GetListByImeis',
  auth: 'session',
  access: 'device read',
  body: manyDevices.superRefine(orderedBounds),
  data: TrackSetBase64,
  bytes: true,
  summary: 'Every fix with a position of several devices over the range, as base64 protobuf TrackSet.',
});

export const GetAvgListByImeisAndTime = defineCall({
  path: '/api/Fix/GetAvgListByImeisAndTime',
  auth: 'session',
  access: 'device read',
  body: manyDevices.superRefine(orderedBounds),
  data: TrackSetBase64,
  bytes: true,
  summary: 'Tracks of several devices with each run of second-level (1 s) fixes as its average, as base64 protobuf TrackSet.',
});

export const GetLastFixList = defineCall({
  path: '/api/Fix/GetLastList',
  auth: 'session',
  access: 'device read',
  body: z.object({ imeis, timeZone: TimeZoneField }),
  data: z.array(FixSchema),
  summary: 'The latest valid fix of each device that has one.',
});

export const GetLastFixByImei = defineCall({
  path: '/api/Fix/GetLastByImei',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei, timeZone: TimeZoneField }),
  data: FixSchema.nullable(),
  summary: "A device's latest valid fix, null when it has none.",
});

export const GetFixSpan = defineCall({
  path: '/api/Fix/GetSpan',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei, timeZone: TimeZoneField }),
  data: z.object({ FirstTime: z.string(), LastTime: z.string() }).nullable(),
  summary: "The pick times of a device's first and last fix (any fix), null when it has none; a share recipient's within the share's data period.",
});

export const MAX_FIXES_PER_MARK = 10_000;

export const ConvertFixInvalid = defineCall({
  path: '/api/Fix/ConvertInvalid',
  auth: 'session',
  access: 'device right EditFix',
  body: z.object({
    imei,
    ids: z.array(z.string().regex(/^\d{1,16}$/, { error: 'validation.invalidValue' }), required).min(1, required).max(MAX_FIXES_PER_MARK, { error: 'validation.tooBig' }),
  }),
  data: z.object({ Count: z.number().int() }),
  summary: 'Marks fixes invalid: irreversible, needs EditFix, records who and when. Count = fixes newly marked.',
});

const convertedQuery = z.object({ imei, startTime: TimeTextSchema.optional(), endTime: TimeTextSchema.optional(), timeZone: TimeZoneField });

export const GetConvertedInvalidCount = defineCall({
  path: '/api/Fix/GetConvertedInvalidCount',
  auth: 'session',
  access: 'device read',
  body: convertedQuery.superRefine(orderedRange),
  data: z.object({ Count: z.number().int() }),
  summary: 'How many fixes of a device are marked invalid, by users or by Movebank\'s outlier marks (by pick time within the range when given).',
});

export const GetConvertedInvalidListPage = defineCall({
  path: '/api/Fix/GetConvertedInvalidListPage',
  auth: 'session',
  access: 'device read',
  body: convertedQuery.extend(PageSchema).superRefine(orderedRange),
  data: z.object({ List: z.array(FixSchema), Total: z.number().int() }),
  summary: 'The fixes marked invalid (by users, or by Movebank\'s outlier marks on import), newest mark first, with operator and time.',
});
