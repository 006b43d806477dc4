import { z } from 'zod';
import { defineCall, EmptyBody, ZeroOne } from '../call.js';
import { PageSchema, TimeZoneField } from '../paging.js';
import { freeText, ImeiSchema as imei, plainText, required } from '../validation.js';
import { GnssCollectionSchema, InstructionParamsSchema, InstrTypeSchema, PostbackSchema } from './instruction.js';

/**
 * Geofences (§3 Fence / FenceRule, §4 Geofence sync and drawing, §5 Shapefile import and Geofence, §7.2
 * Fence/*, §8 "geofence file import failed", §9 the 10 MB shapefile).
 *
 * A fence belongs to an organisation: a polygon or a circle with a name, an enabled flag and one rule per
 * associated device (FenceRule). The rule says when it fires (InOrOut: entering, leaving or both), where it
 * is evaluated (RuleType: Remote, the server tests each new valid fix at ingest; Device, the fence is sent
 * to the device through the instruction channel and the device tests itself, Synchronized 0 until it
 * acknowledges), and whether firing sends instructions (AllowSendInstr).
 *
 * "Collection time and transmission frequency" (§5: a fence needs both) are the schedule the device is put
 * on when its rule fires: `collection` is the GNSS collection (an ACQUISITION_FREQUENCY instruction, e.g. a
 * fix every 5 minutes inside a protected area) and `postback` the data postback (a POSTBACK_FREQUENCY
 * instruction). With AllowSendInstr a remote rule sends both through the instruction module (its rules and
 * daily limit apply; a refusal is noted in the Fence event, the event is stored anyway); a device rule
 * carries them to the device, which applies them itself when it crosses the fence. They are the rule's
 * Instrs.
 *
 * The form edits a fence as a whole: one InOrOut / RuleType / AllowSendInstr / schedule for all the chosen
 * devices; a rule per device is kept (its own sync state and inside/outside state). Devices the caller
 * cannot see are never listed nor touched: an update keeps another user's rules on devices the caller
 * cannot see as they were.
 */

/** Fence.Type (§3): Unknown 0, Polygon 1, Circle 2. */
export const FENCE_TYPE = { Unknown: 0, Polygon: 1, Circle: 2 } as const;
export type FenceType = (typeof FENCE_TYPE)[keyof typeof FENCE_TYPE];
/** FenceRule.RuleType (§3): Unknown 0, Remote 1 (the server evaluates), Device 2 (the device evaluates). */
export const FENCE_RULE_TYPE = { Unknown: 0, Remote: 1, Device: 2 } as const;
export type FenceRuleType = (typeof FENCE_RULE_TYPE)[keyof typeof FENCE_RULE_TYPE];
/** The rule types a caller can choose. */
export const FenceRuleTypeSchema = z.union([z.literal(1), z.literal(2)], { error: 'validation.fence.ruleType' });

/** FenceRule.InOrOut: fires on entering, on leaving, or on both. */
export const FENCE_IN_OR_OUT = ['ENTER', 'LEAVE', 'BOTH'] as const;
export const InOrOutSchema = z.enum(FENCE_IN_OR_OUT, { error: 'validation.fence.inOrOut' });
export type InOrOut = z.infer<typeof InOrOutSchema>;

/** Most vertices of a polygon (a shapefile's larger rings are refused naming the fence). */
export const FENCE_MAX_VERTICES = 5000;
/** Largest circle radius, metres (1,000 km). */
export const FENCE_MAX_RADIUS_M = 1_000_000;
/** Most devices one fence names. */
export const FENCE_MAX_DEVICES = 100;
/** A fence name's longest length. */
export const FENCE_LABEL_MAX = 50;
/** A shapefile import's file must be under this many bytes (§9: 10 MB); one byte more is refused. */
export const FENCE_SHP_MAX_BYTES = 10 * 1024 * 1024;
/** Most polygons one shapefile import turns into fences. */
export const FENCE_SHP_MAX_FENCES = 200;
/**
 * Most rings (outer and inner, every record's) one shapefile may hold: the reader pairs each inner ring
 * with the outer ones, work that grows with both counts. Each ring is held to FENCE_MAX_VERTICES (+ the
 * closing vertex) too; both are checked from the records' headers before any geometry is read.
 */
export const FENCE_SHP_MAX_RINGS = 1000;
/** Longest a shapefile's geometry may take to read and check (in a worker thread, beside the server's calls). */
export const FENCE_SHP_MAX_SECONDS = 30;
export const FENCE_IMPORT_PATH = '/api/Fence/ImportShp';

const lng = z.number({ error: 'validation.fence.lng' }).min(-180, { error: 'validation.fence.lng' }).max(180, { error: 'validation.fence.lng' });
const lat = z.number({ error: 'validation.fence.lat' }).min(-90, { error: 'validation.fence.lat' }).max(90, { error: 'validation.fence.lat' });
/** A position, GeoJSON order: [longitude, latitude] in WGS84 degrees. */
export const LngLatSchema = z.tuple([lng, lat], { error: 'validation.fence.position' });
export type LngLat = z.infer<typeof LngLatSchema>;

/** The ring's vertices without the closing repetition of the first one (if it was given). */
export function openRing(ring: readonly LngLat[]): LngLat[] {
  const n = ring.length;
  if (n > 1 && ring[0]![0] === ring[n - 1]![0] && ring[0]![1] === ring[n - 1]![1]) return ring.slice(0, n - 1) as LngLat[];
  return ring.slice() as LngLat[];
}

/** The ring closed (last = first), GeoJSON's form. */
export function closeRing(ring: readonly LngLat[]): LngLat[] {
  const open = openRing(ring);
  return open.length === 0 ? [] : [...open, open[0]!];
}

/** How many different positions the ring has. */
export function distinctVertices(ring: readonly LngLat[]): number {
  return new Set(ring.map(([x, y]) => `${x},${y}`)).size;
}

/**
 * A finished shape (§4: the drawing is completed by a double-click):
 * - Polygon: one outer ring, GeoJSON-like ([lng, lat] pairs), closed or not (answers always close it), at
 *   least 3 distinct vertices, none outside ±180 / ±90, and not crossing itself (the server checks that
 *   with @turf/kinks and answers 601 naming `shape`, validation.fence.selfIntersecting). No holes.
 * - Circle: a centre [lng, lat] and a radius in metres, > 0 and at most FENCE_MAX_RADIUS_M.
 * The circle is listed first: it is the smallest valid shape (generated bodies take the first option).
 */
export const CircleShapeSchema = z.object({
  Type: z.literal('Circle'),
  Center: LngLatSchema,
  Radius: z
    .number({ error: 'validation.fence.radius' })
    .gt(0, { error: 'validation.fence.radius' })
    .max(FENCE_MAX_RADIUS_M, { error: 'validation.fence.radiusMax' }),
});
export const PolygonShapeSchema = z.object({
  Type: z.literal('Polygon'),
  Coordinates: z
    .array(LngLatSchema, { error: 'validation.fence.unfinished' })
    .min(3, { error: 'validation.fence.unfinished' })
    .max(FENCE_MAX_VERTICES + 1, { error: 'validation.fence.tooManyVertices' })
    .refine((ring) => distinctVertices(ring) >= 3, { error: 'validation.fence.unfinished' }),
});
export const FenceShapeSchema = z.discriminatedUnion('Type', [CircleShapeSchema, PolygonShapeSchema], { error: 'validation.fence.unfinished' });
export type FenceShape = z.infer<typeof FenceShapeSchema>;
export type CircleShape = z.infer<typeof CircleShapeSchema>;
export type PolygonShape = z.infer<typeof PolygonShapeSchema>;

export const FenceLabelSchema = z
  .string(required)
  .trim()
  .min(1, required)
  .max(FENCE_LABEL_MAX, { error: 'validation.tooLong' })
  .refine(plainText.check, { error: plainText.error });

const fenceId = z.string(required).regex(/^\d{1,18}$/, { error: 'validation.format' });

/** What a fence's form sets besides its name and shape (create, update, and each fence of an import). */
export const FenceSettingsSchema = z.object({
  enabled: ZeroOne.default(1),
  inOrOut: InOrOutSchema,
  ruleType: FenceRuleTypeSchema,
  allowSendInstr: ZeroOne.default(0),
  /** The associated devices (§5: at least one); each needs RemoteInstr for the caller. */
  imeis: z.array(imei, { error: 'validation.fence.noDevice' }).min(1, { error: 'validation.fence.noDevice' }).max(FENCE_MAX_DEVICES, { error: 'validation.tooMany' }),
  /** Collection time (§5): the GNSS schedule put on the device when the rule fires. */
  collection: GnssCollectionSchema,
  /** Transmission frequency (§5): the data postback put on the device when the rule fires. */
  postback: PostbackSchema,
  /** The zone the schedule's hours are written in; the caller's own by default. */
  timeZone: TimeZoneField,
});
export type FenceSettings = z.infer<typeof FenceSettingsSchema>;
export type FenceSettingsInput = z.input<typeof FenceSettingsSchema>;

/** An instruction a rule sends when it fires (§3 FenceRule.Instrs), as the instruction contract writes one. */
export const FenceInstrSchema = z.object({
  Type: InstrTypeSchema,
  Parameters: InstructionParamsSchema,
  /** The zone the Parameters' hours are written in. */
  StdTimeZone: z.string(),
  /** The type in words, in the caller's language ("Collection schedule"). */
  Desc: z.string(),
  /** What the device is told, in words, in the caller's language. */
  Detail: z.string(),
  /** The collection is minute-based (a fix at least hourly: INTERVAL of at most 60 min, or ADAPTIVE_HIGH). */
  HighFrequency: z.boolean(),
});
export type FenceInstr = z.infer<typeof FenceInstrSchema>;

/** One device's rule of a fence (§3 FenceRule). */
export const FenceRuleSchema = z.object({
  Id: z.number().int(),
  IdStr: z.string(),
  FenceIdStr: z.string(),
  IMEI: z.string(),
  Caption: z.string(),
  InOrOut: InOrOutSchema,
  AllowSendInstr: ZeroOne,
  Instrs: z.array(FenceInstrSchema),
  RuleType: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  /** Device rules: 0 while the device has not acknowledged the fence (synchronizing), 1 once it has. Remote rules: always 1. */
  Synchronized: ZeroOne,
  /** The device's last known side of the fence: true inside, false outside, null not known yet. */
  Inside: z.boolean().nullable(),
  /** The time of the fix that decided Inside, in the caller's zone ('' when none). */
  StateTime: z.string(),
});
export type FenceRule = z.infer<typeof FenceRuleSchema>;

/** A fence (§3 Fence). Times in the caller's zone. */
export const FenceSchema = z.object({
  Id: z.number().int(),
  IdStr: z.string(),
  Label: z.string(),
  Type: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  /** The shape; a polygon's ring is closed (last = first). */
  Shape: FenceShapeSchema,
  /** Geodesic area, m². */
  Area: z.number(),
  Enabled: ZeroOne,
  InOrOut: InOrOutSchema,
  RuleType: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  AllowSendInstr: ZeroOne,
  Collection: GnssCollectionSchema,
  Postback: PostbackSchema,
  TimeZone: z.string(),
  /** The associated devices the caller can see. */
  Devices: z.array(z.object({ IMEI: z.string(), Caption: z.string() })),
  /** A sample fence of the experience devices: read-only. */
  Example: z.boolean(),
  /** The caller may change or delete it (their organisation's, not a sample). */
  Editable: z.boolean(),
  /**
   * The caller may delete it: their organisation's, or another organisation's with rules on the caller's
   * organisation's devices (made under a share), whose delete takes those devices out of it.
   */
  Removable: z.boolean(),
  /** Whose it is when not the caller's organisation's (nor a sample): that organisation and the account that made it. */
  Owner: z.object({ OrgName: z.string(), NickName: z.string() }).nullable(),
  CreateTime: z.string(),
  UpdateTime: z.string(),
  detail: z.object({
    /** Rules (over the devices the caller can see) evaluated by the server, and by the devices. */
    RemoteRule: z.number().int(),
    DeviceRule: z.number().int(),
    /** 1 when every device rule is acknowledged (or there is none), 0 while one is synchronizing. */
    Synchronized: ZeroOne,
  }),
});
export type Fence = z.infer<typeof FenceSchema>;

export const GetFenceList = defineCall({
  path: '/api/Fence/GetFenceList',
  auth: 'session',
  access: 'session',
  body: z.object({
    /** Part of the name; '' or absent: all. */
    keyword: freeText().trim().max(FENCE_LABEL_MAX, { error: 'validation.tooLong' }).optional(),
    ...PageSchema,
    timeZone: TimeZoneField,
  }),
  data: z.object({ List: z.array(FenceSchema), Total: z.number().int() }),
  summary: "The fences of the caller's organisation, other organisations' fences with a rule on one of its devices (marked with their Owner), and the sample fences while the experience switch is on, newest first, one page.",
});

/** A fence with the named device's rule in it. */
export const DeviceFenceSchema = z.object({ Fence: FenceSchema, Rule: FenceRuleSchema });
export type DeviceFence = z.infer<typeof DeviceFenceSchema>;

export const GetDeviceFenceList = defineCall({
  path: '/api/Fence/GetDeviceFenceList',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei, timeZone: TimeZoneField }),
  data: z.object({ List: z.array(DeviceFenceSchema) }),
  summary: "The fences with a rule on the device (the caller's organisation's and the device owner's), each with that rule.",
});

export const GetRuleListByType = defineCall({
  path: '/api/Fence/GetRuleListByType',
  auth: 'session',
  access: 'session',
  body: z.object({
    fenceId,
    /** 1 remote, 2 device; absent: both. */
    type: FenceRuleTypeSchema.optional(),
    timeZone: TimeZoneField,
  }),
  data: z.object({ List: z.array(FenceRuleSchema) }),
  summary: 'The rules of a fence the caller can see, on the devices the caller can see, of one rule type or both.',
});

export const CreateFence = defineCall({
  path: '/api/Fence/Create',
  auth: 'session',
  access: 'device right RemoteInstr',
  body: z.object({ label: FenceLabelSchema, shape: FenceShapeSchema, ...FenceSettingsSchema.shape }),
  data: FenceSchema,
  summary: 'Creates a fence with a rule on each device (one transaction); answers it.',
});

export const UpdateFence = defineCall({
  path: '/api/Fence/Update',
  auth: 'session',
  access: 'device right RemoteInstr',
  body: z.object({ fenceId, label: FenceLabelSchema, shape: FenceShapeSchema, ...FenceSettingsSchema.shape }),
  data: FenceSchema,
  summary: "Replaces a fence's name, shape, settings and devices (rules on devices the caller can't see are kept); one transaction.",
});

export const EnableFence = defineCall({
  path: '/api/Fence/Enable',
  auth: 'session',
  access: 'session',
  body: z.object({ fenceId, enabled: ZeroOne, timeZone: TimeZoneField }),
  data: FenceSchema,
  summary: 'Switches a fence on or off.',
});

export const DeleteFence = defineCall({
  path: '/api/Fence/Delete',
  auth: 'session',
  access: 'session',
  body: z.object({ fenceId }),
  data: z.null(),
  summary: "Deletes a fence of the caller's organisation with its rules and states (device rules are withdrawn from the devices); another organisation's fence with rules on the caller's devices loses those rules only.",
});

/**
 * The import's text fields: `settings`, the FenceSettings as JSON (applied to every fence the file makes),
 * and an optional `labelPrefix` (default: the file's name without .shp): the fences are named
 * "<prefix> 1", "<prefix> 2", ... in the file's order. Then the part `file`: one .shp (not .zip; no .prj
 * read: coordinates are taken as WGS84 longitude/latitude), under FENCE_SHP_MAX_BYTES. Each Polygon record
 * (its outer rings) becomes a fence; other shape types, a ring that fails the fence rules, or a file that is
 * not a shapefile refuse the whole file with "geofence file import failed: <reason>" (fence.importFailed);
 * nothing is stored then.
 */
export const FenceImportFields = z.object({
  settings: freeText(required, { lines: true }).min(1, required).max(100_000, { error: 'validation.tooLong' }),
  labelPrefix: z.string().trim().max(FENCE_LABEL_MAX - 6, { error: 'validation.tooLong' }).refine(plainText.check, { error: plainText.error }).optional(),
});

/**
 * One fence an import made, as its answer names it: what the console reports (how many, their names) without
 * each shape back (a file at the limits is 600,000 vertices: re-read and serialised, that answer held the
 * server's other calls up for seconds; GetFenceList has the shapes).
 */
export const ImportedFenceSchema = FenceSchema.pick({ Id: true, IdStr: true, Label: true, Area: true }).extend({
  /** The vertices of its ring (the closing repetition not counted). */
  Vertices: z.number().int(),
});
export type ImportedFence = z.infer<typeof ImportedFenceSchema>;

export const ImportShp = defineCall({
  path: FENCE_IMPORT_PATH,
  auth: 'session',
  access: 'session',
  body: EmptyBody,
  data: z.object({ List: z.array(ImportedFenceSchema) }),
  multipart: { fields: FenceImportFields, files: ['file'] },
  timeout: 'long',
  summary: 'Imports the polygons of one .shp (under 10 MB) as fences with the given settings, all or none.',
});

/**
 * A device rule as handed to its device with an ingest answer (IngestAnswer.fenceRules) until the device
 * acknowledges it (POST /ingest/v1/fence-ack, FenceAck): the fence to test itself, when to act, and the
 * schedule to apply then (Parameters as an instruction's). `removed`: the fence was deleted, switched off or
 * the device taken out of it: the device drops it. `version` counts the fence's changes: the device
 * acknowledges the version it applied; an older one leaves the rule synchronizing.
 */
export const PendingFenceRuleSchema = z.object({
  fenceId: z.number().int(),
  version: z.number().int(),
  removed: z.boolean(),
  shape: FenceShapeSchema,
  inOrOut: InOrOutSchema,
  instrs: z.array(InstructionParamsSchema),
  timeZone: z.string(),
});
export type PendingFenceRule = z.infer<typeof PendingFenceRuleSchema>;

/** A device's acknowledgement of a pending fence rule: the fence and the version it applied (or dropped). */
export const FenceAckSchema = z.object({ fenceId: z.number().int(), version: z.number().int() });
export type FenceAck = z.infer<typeof FenceAckSchema>;

/** The file types fences are exported as (issue 29 "Geodata out"): GeoJSON (RFC 7946) and KML 2.2. */
export const FENCE_EXPORT_FILE_TYPES = ['geojson', 'kml'] as const;
export type FenceExportFileType = (typeof FENCE_EXPORT_FILE_TYPES)[number];

/**
 * The fences the caller sees (as GetFenceList lists them, optionally only those whose name holds `keyword`
 * or the ones named by `fenceIds`) as one file, streamed: each fence a polygon feature (GeoJSON) or a
 * Placemark (KML) with its name, settings and devices; a circle written as a 64-vertex polygon, its centre
 * and radius in the properties. Named fences(.geojson|.kml) in the caller's language.
 */
export const ExportFences = defineCall({
  path: '/api/Fence/Export',
  auth: 'session',
  access: 'session',
  body: z.object({
    fileType: z.enum(FENCE_EXPORT_FILE_TYPES, { error: 'validation.fenceExportFileType' }),
    keyword: freeText().trim().max(FENCE_LABEL_MAX, { error: 'validation.tooLong' }).optional(),
    fenceIds: z.array(fenceId).max(1000).optional(),
    timeZone: TimeZoneField,
  }),
  data: z.null(),
  download: { type: 'application/octet-stream' },
  timeout: 'long',
  summary: "The fences the caller sees (all, those whose name holds keyword, or fenceIds) as one GeoJSON or KML file, streamed; a circle as a polygon with its centre and radius noted.",
});
