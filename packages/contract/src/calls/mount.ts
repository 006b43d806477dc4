import { z } from 'zod';
import { defineCall } from '../call.js';
import { TimeZoneField } from '../paging.js';
import { ImageUrlSchema, ImeiSchema as imei, plainText, required } from '../validation.js';

/**
 * Animal info (MountInfo, §3) and device work status. The spec names 18 measures and says birds have 9
 * and beasts 11 without saying which; this is Wildtrack's decision, from the measures ornithologists and
 * mammalogists take at capture: birds — beak height, length and width, body, head and tail length,
 * tarsus, wing length and wingspan; beasts — body, head and tail length, head width, neck, chest and
 * abdominal girth, shoulder height and width, trunk length and hoof length.
 */
export const BIRD_MEASURES = [
  'BeakHeight', 'BeakLength', 'BeakWidth', 'BodyLength', 'HeadLength', 'TailLength', 'Tarsus', 'WingLength', 'Wingspan',
] as const;
export const BEAST_MEASURES = [
  'BodyLength', 'HeadLength', 'TailLength', 'HeadWidth', 'NeckGirth', 'ChestGirth', 'AbdominalGirth', 'ShoulderHeight', 'ShoulderWidth', 'TrunkLength', 'HoofLength',
] as const;
export type MeasureName = (typeof BIRD_MEASURES)[number] | (typeof BEAST_MEASURES)[number];
/** Centimetres for lengths and girths, millimetres for beak and tarsus. */
export const MEASURE_UNIT: Record<MeasureName, 'cm' | 'mm'> = {
  BeakHeight: 'mm', BeakLength: 'mm', BeakWidth: 'mm', Tarsus: 'mm',
  BodyLength: 'cm', HeadLength: 'cm', TailLength: 'cm', WingLength: 'cm', Wingspan: 'cm', HeadWidth: 'cm', NeckGirth: 'cm',
  ChestGirth: 'cm', AbdominalGirth: 'cm', ShoulderHeight: 'cm', ShoulderWidth: 'cm', TrunkLength: 'cm', HoofLength: 'cm',
};

const measure = z.number().positive({ error: 'validation.measure.positive' }).max(10_000).nullable();
const text = (max: number) => z.string().trim().max(max, { error: 'validation.tooLong' }).refine(plainText.check, { error: plainText.error });

export const CustomFieldSchema = z.object({
  Name: z.string(required).trim().min(1, { error: 'validation.customField.name' }).max(40, { error: 'validation.tooLong' }).refine(plainText.check, { error: plainText.error }),
  Value: text(200),
});

const customFields = z
  .array(CustomFieldSchema)
  .max(50)
  .superRefine((fields, ctx) => {
    const seen = new Set<string>();
    fields.forEach((f, i) => {
      const key = f.Name.trim().toLowerCase();
      if (seen.has(key)) ctx.addIssue({ code: 'custom', message: 'validation.customField.duplicate', path: [i, 'Name'] });
      seen.add(key);
    });
  });

export const AnimalInfoSchema = z.object({
  Species: text(80),
  ScientificName: text(120),
  /** Sex: 0 unknown, 1 male, 2 female. */
  Sex: z.number().int().min(0).max(2),
  /** Age: 0 unknown, 1 larva, 2 subadult, 3 adult. */
  Age: z.number().int().min(0).max(3),
  /** Weight in kilograms. */
  Weight: z.number().positive({ error: 'validation.measure.positive' }).max(100_000).nullable(),
});

export const WorkInfoSchema = z.object({
  /** Times in the caller's zone, "YYYY-MM-DD HH:mm:ss", or empty. */
  CaptureTime: text(19),
  MountTime: text(19),
  ReleaseTime: text(19),
  ReleaseLon: z.number().min(-180, { error: 'validation.longitude' }).max(180, { error: 'validation.longitude' }).nullable(),
  ReleaseLat: z.number().min(-90, { error: 'validation.latitude' }).max(90, { error: 'validation.latitude' }).nullable(),
  ReleaseSite: text(120),
  /** Photo URLs (from /api/Image/Upload): this server's upload addresses only (ImageUrlSchema). */
  Images: z.array(ImageUrlSchema).max(6),
});

function mountInfo<M extends readonly string[]>(measures: M) {
  return z.object({
    IMEI: imei,
    AnimalInfo: AnimalInfoSchema,
    WorkInfo: WorkInfoSchema,
    AdditionalInfo: customFields,
    // strict: a beast's measure sent with a bird's info is refused, not silently dropped
    Measurements: z.strictObject(Object.fromEntries(measures.map((m) => [m, measure])) as { [K in M[number]]: typeof measure }).partial(),
  });
}
export const BirdInfoSchema = mountInfo(BIRD_MEASURES);
export const BeastInfoSchema = mountInfo(BEAST_MEASURES);
export const OtherSpeciesInfoSchema = mountInfo([] as const);

/**
 * Animal info as a Get answers it: what is stored, which may predate today's input rules (an import's
 * comment with line breaks, a photo address saved before ImageUrlSchema), so the texts are not checked
 * again; a Save body is (the schemas above).
 */
function storedMountInfo<M extends readonly string[]>(measures: M) {
  const stored = z.string();
  const body = mountInfo(measures);
  return z.object({
    IMEI: z.string(),
    AnimalInfo: AnimalInfoSchema.extend({ Species: stored, ScientificName: stored }),
    WorkInfo: WorkInfoSchema.extend({ CaptureTime: stored, MountTime: stored, ReleaseTime: stored, ReleaseSite: stored, Images: z.array(stored) }),
    AdditionalInfo: z.array(z.object({ Name: stored, Value: stored })),
    Measurements: body.shape.Measurements,
  });
}
export type BirdInfo = z.infer<typeof BirdInfoSchema>;
export type BeastInfo = z.infer<typeof BeastInfoSchema>;
export type MountInfo = Omit<z.infer<typeof OtherSpeciesInfoSchema>, 'Measurements'> & { Measurements: Partial<Record<MeasureName, number | null>> };

const byImei = z.object({ imei, timeZone: TimeZoneField });

export const GetBirdInfo = defineCall({ path: '/api/MountInfo/GetBirdInfo', auth: 'session', access: 'device read', body: byImei, data: storedMountInfo(BIRD_MEASURES), summary: 'Animal info of a bird.' });
export const GetBeastInfo = defineCall({ path: '/api/MountInfo/GetBeastInfo', auth: 'session', access: 'device read', body: byImei, data: storedMountInfo(BEAST_MEASURES), summary: 'Animal info of a beast.' });
export const GetOtherSpeciesInfo = defineCall({ path: '/api/MountInfo/GetOtherSpeciesInfo', auth: 'session', access: 'device read', body: byImei, data: storedMountInfo([] as const), summary: 'Animal info of another species.' });
export const SaveBirdInfo = defineCall({ path: '/api/MountInfo/SaveBirdInfo', auth: 'session', access: 'device right EditDevice', body: BirdInfoSchema.extend({ timeZone: TimeZoneField }), data: z.null(), summary: 'Saves the animal info of a bird; needs EditDevice.' });
export const SaveBeastInfo = defineCall({ path: '/api/MountInfo/SaveBeastInfo', auth: 'session', access: 'device right EditDevice', body: BeastInfoSchema.extend({ timeZone: TimeZoneField }), data: z.null(), summary: 'Saves the animal info of a beast; needs EditDevice.' });
export const SaveOtherSpeciesInfo = defineCall({ path: '/api/MountInfo/SaveOtherSpeciesInfo', auth: 'session', access: 'device right EditDevice', body: OtherSpeciesInfoSchema.extend({ timeZone: TimeZoneField }), data: z.null(), summary: 'Saves the animal info of another species; needs EditDevice.' });

export const GNSSCollectionMode = { NORMAL: 0, ADAPTIVE_HIGH: 128, ADAPTIVE_LOW: 129 } as const;

const hourOfDay = z.number().int().min(0).max(23);
const minutes = z.number().int().min(1).max(1440);

/**
 * How a device collects and sends data (§3 DeviceWorkStatus), as the device reports it (an ingest batch's
 * workStatus) or as a successful instruction left it. Stored per device (device_work_status).
 */
export const WorkSettingsSchema = z.object({
  GNSSCollectionMode: z.union([z.literal(0), z.literal(128), z.literal(129)]),
  /** NORMAL mode: fixes at the listed hours, or every IntervalMinutes. */
  NormalType: z.enum(['HOURS', 'INTERVAL']),
  CustomHours: z.array(hourOfDay).max(24),
  IntervalMinutes: minutes.nullable(),
  /** Adaptive high frequency: minutes between fixes at high, medium and low battery level. */
  HighFrequencyIntervals: z.object({ High: minutes, Medium: minutes, Low: minutes }),
  /** Adaptive low frequency: fix hours at high, medium and low battery level (at most 12, 8, 6). */
  LowFrequencyHours: z.object({ High: z.array(hourOfDay).max(12), Medium: z.array(hourOfDay).max(8), Low: z.array(hourOfDay).max(6) }),
  DataPostbackMode: z.enum(['DATA_CNT', 'HOUR']),
  PostbackHours: z.array(hourOfDay).max(24),
  Realtime: z.boolean(),
  PacketCount: z.number().int().min(1).nullable(),
  PacketSize: z.number().int().min(1).nullable(),
  AccEnabled: z.boolean(),
  AccFollowGNSS: z.boolean(),
  AccFrequencyHz: z.number().positive().max(1000).nullable(),
  AccIntervalMinutes: minutes.nullable(),
});
export type WorkSettings = z.infer<typeof WorkSettingsSchema>;

/**
 * A device's work status: `Known` true with its settings (hours in the caller's zone; the server keeps
 * them in UTC) and when it last reported or
 * applied them (ReportedTime), or `Known` false for a device that never reported one, which shows
 * "unknown" rather than a schedule it may not have.
 */
export const WorkStatusSchema = z.discriminatedUnion('Known', [
  WorkSettingsSchema.extend({
    Known: z.literal(true),
    IMEI: z.string(),
    LastWorkTime: z.string(),
    BatteryType: z.number().int(),
    ReportedTime: z.string(),
  }),
  z.object({ Known: z.literal(false), IMEI: z.string(), LastWorkTime: z.string(), BatteryType: z.number().int() }),
]);
export type WorkStatus = z.infer<typeof WorkStatusSchema>;

export const GetWorkStatus = defineCall({ path: '/api/DeviceWorkStatus/Get', auth: 'session', access: 'device read', body: byImei, data: WorkStatusSchema, summary: 'How a device collects and sends data.' });
export const GetWorkStatusList = defineCall({
  path: '/api/DeviceWorkStatus/GetList',
  auth: 'session',
  access: 'device read',
  body: z.object({ imeis: z.array(imei).min(1, required).max(500), timeZone: TimeZoneField }),
  data: z.array(WorkStatusSchema),
  summary: 'Work status of several devices (each must be visible to the caller).',
});


