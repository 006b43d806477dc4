import { z } from 'zod';
import { defineCall } from '../call.js';
import { orderedRange, PageSchema, SortOrderSchema, TimeTextSchema, TimeZoneField } from '../paging.js';
import { ImeiSchema as imei } from '../validation.js';

/**
 * Field records (§3 POI, Behavior; §7.2 POI/GetList, Behavior/GetCount, GetList): what a field phone
 * records besides its track. A point of interest (a nest, a carcass, a camera trap) with its photos, and a
 * behaviour observation of an animal with its motion, chosen from the organisation's motion list (the
 * defaults every organisation has, plus the names its rangers added). Both belong to the phone that sent
 * them (docs/ingest.md "Field records"); every call names that device and needs its read right; a share's
 * recipient sees only the records inside the share's window. Times in the caller's zone.
 */

const range = {
  imei,
  startTime: TimeTextSchema,
  endTime: TimeTextSchema,
  timeZone: TimeZoneField,
};

/** Where the photos of a POI are served (by the session cookie, as pictures are: docs/api.md "Pictures"). */
export const POI_PHOTOS_URL = '/prod-api/files/poi';

/** A point of interest (§3 POI). UserId is the ranger who recorded it, as the phone's field app numbers them. */
export const PoiSchema = z.object({
  Id: z.number().int(),
  IdStr: z.string(),
  UserId: z.number().int(),
  UserIdStr: z.string(),
  /** The recorder's name as the phone sent it (not in §3's list; shown beside UserId). */
  UserName: z.string(),
  Name: z.string(),
  /** What the point is about: a species, a nest, a sign. */
  Target: z.string(),
  Longitude: z.number(),
  Latitude: z.number(),
  Altitude: z.number().nullable(),
  /** Addresses of the photos (POI_PHOTOS_URL/<imei>/<name>), served to whoever may read the device. */
  Photos: z.array(z.string()),
  Address: z.string(),
  Description: z.string(),
  RecordTime: z.string(),
});
export type Poi = z.infer<typeof PoiSchema>;

/** A motion of the organisation's list (§3 Behavior.Motion); a default's Name is in the caller's language. */
export const BehaviorMotionSchema = z.object({
  Id: z.number().int(),
  IdStr: z.string(),
  Name: z.string(),
  IsDefault: z.boolean(),
});
export type BehaviorMotion = z.infer<typeof BehaviorMotionSchema>;

/** The motions every organisation has (codes; their names are the messages `motion.<code>`). */
export const DEFAULT_MOTIONS = ['foraging', 'resting', 'moving', 'vigilance', 'grooming', 'social', 'courtship', 'nesting'] as const;
export type DefaultMotion = (typeof DEFAULT_MOTIONS)[number];

/** A behaviour observation (§3 Behavior): who recorded it, where, from when to when, and the motion seen. */
export const BehaviorSchema = z.object({
  Id: z.number().int(),
  IdStr: z.string(),
  /** The recorder's id (decimal text). */
  Recorder: z.string(),
  RecorderName: z.string(),
  Longitude: z.number(),
  Latitude: z.number(),
  StartTime: z.string(),
  EndTime: z.string(),
  Motion: BehaviorMotionSchema,
});
export type Behavior = z.infer<typeof BehaviorSchema>;

export const POI_SORT_FIELDS = ['RecordTime', 'Name'] as const;
export const BEHAVIOR_SORT_FIELDS = ['StartTime', 'EndTime'] as const;

export const GetPoiList = defineCall({
  path: '/api/POI/GetList',
  auth: 'session',
  access: 'device read',
  body: z
    .object({ ...range, ...PageSchema, sortField: z.enum(POI_SORT_FIELDS).optional(), sortOrder: SortOrderSchema.optional() })
    .superRefine(orderedRange),
  data: z.object({ List: z.array(PoiSchema), Total: z.number().int() }),
  summary: "One page of the points of interest a phone recorded in the range, with their photos (RecordTime descending by default).",
});

/** What narrows a device's behaviour observations besides the range: one motion, one recorder. */
const behaviorFilter = {
  motionId: z.number().int().min(1).optional(),
  /** A recorder's id (decimal text, as Behavior.Recorder writes it). */
  recorder: z.string().regex(/^\d{1,16}$/, 'validation.format').optional(),
};

export const GetBehaviorCount = defineCall({
  path: '/api/Behavior/GetCount',
  auth: 'session',
  access: 'device read',
  body: z.object({ ...range, ...behaviorFilter }).superRefine(orderedRange),
  data: z.object({ Count: z.number().int() }),
  summary: 'How many behaviour observations a phone recorded that began in the range (of one motion, one recorder).',
});

export const GetBehaviorList = defineCall({
  path: '/api/Behavior/GetList',
  auth: 'session',
  access: 'device read',
  body: z
    .object({ ...range, ...behaviorFilter, ...PageSchema, sortField: z.enum(BEHAVIOR_SORT_FIELDS).optional(), sortOrder: SortOrderSchema.optional() })
    .superRefine(orderedRange),
  data: z.object({ List: z.array(BehaviorSchema), Total: z.number().int() }),
  summary: 'One page of the behaviour observations a phone recorded that began in the range (StartTime descending by default).',
});

/**
 * Not named by the spec: the filters of the behaviour list. The motions of the device's organisation (the
 * defaults first) and the recorders of the device's observations the caller may see.
 */
export const GetBehaviorFilters = defineCall({
  path: '/api/Behavior/GetFilters',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei }),
  data: z.object({
    Motions: z.array(BehaviorMotionSchema),
    Recorders: z.array(z.object({ Recorder: z.string(), RecorderName: z.string() })),
  }),
  summary: "The motions of the phone's organisation and the recorders of its observations, to filter the behaviour list by.",
});

/** The file types POIs are exported as (issue 29 "Geodata out"): GeoJSON points and GPX 1.1 waypoints. */
export const POI_EXPORT_FILE_TYPES = ['geojson', 'gpx'] as const;
export type PoiExportFileType = (typeof POI_EXPORT_FILE_TYPES)[number];

export const ExportPois = defineCall({
  path: '/api/POI/Export',
  auth: 'session',
  access: 'device right DownloadData',
  body: z.object({ ...range, fileType: z.enum(POI_EXPORT_FILE_TYPES, { error: 'validation.poiExportFileType' }) }).superRefine(orderedRange),
  data: z.null(),
  download: { type: 'application/octet-stream' },
  timeout: 'long',
  summary: "The points of interest a phone recorded in the range as GeoJSON points or GPX 1.1 waypoints (oldest first), streamed; named device-POI(IMEI).ext.",
});
