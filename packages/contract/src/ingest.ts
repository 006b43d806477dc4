import { z } from 'zod';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { InstructionParamsSchema, InstrTypeSchema } from './calls/instruction.js';
import { PendingFenceRuleSchema } from './calls/fence.js';
import { WorkSettingsSchema } from './calls/mount.js';
import { SENSOR_KIND_NAMES } from './sensor-kinds.js';
import { freeText, ImeiSchema } from './validation.js';
import { bodyHash, canonicalString, newRequestCode } from './wire.js';

/**
 * The device-facing ingest protocol (docs/ingest.md), apart from the console's /prod-api: devices POST
 * signed batches to /ingest/v1/... Batches are columnar (one array per field) because that is what a
 * tag's firmware buffers, and it parses and checks in a tight loop on the server.
 */

export const INGEST_BASE = '/ingest/v1';
export const IngestHeader = {
  imei: 'x-device-imei',
  timestamp: 'x-timestamp',
  nonce: 'x-nonce',
  signature: 'x-signature',
} as const;
/**
 * The body's SHA-256 (hex) declared up front, optional (docs/ingest.md, "Signing"): it is the hash the signature
 * already covers, so with it the server checks the signature before reading a byte of the body, and then
 * checks the body against it as it streams in. A request without it is checked once its body is in, and
 * waits in a smaller share of the server's room for uploads.
 */
export const INGEST_BODY_HASH_HEADER = 'x-body-sha256';
/** A batch signed longer ago than this (or ahead by more) is refused; nonces are remembered this long. */
export const INGEST_WINDOW_MS = 15 * 60_000;
/** Records dated more than a day ahead of the server clock are refused. */
export const INGEST_MAX_FUTURE_MS = 24 * 3600_000;
export const INGEST_MAX_BATCH_BYTES = 8 * 1024 * 1024;
export const INGEST_MAX_MEDIA_BYTES = 32 * 1024 * 1024;
export const INGEST_MAX_RECORDS = 20_000;

const time = z.number().int().min(0);
const num = z.number();
const optNum = z.array(num.nullable()).optional();

/** Fixes, one array per field; every array present has the length of `t`. Times are epoch ms (UTC). */
export const FixColumnsSchema = z.object({
  t: z.array(time),
  /** null for an attempt that produced no position (stored, never valid). */
  lon: z.array(num.nullable()),
  lat: z.array(num.nullable()),
  alt: optNum,
  /** Ground speed in km/h; -1 or null = none. */
  speed: optNum,
  /** Course over ground, degrees from north. */
  course: optNum,
  temp: optNum,
  /** Activity count of the tag (the "Exercise" column of §3). */
  activity: optNum,
  voltage: optNum,
  sats: optNum,
  hdop: optNum,
  vdop: optNum,
  /** Precision grade 1..7 (A..E, 6-7 = N). */
  grade: optNum,
  channel: optNum,
  /** When the fix left the device (epoch ms). */
  tx: optNum,
});
export type FixColumns = z.infer<typeof FixColumnsSchema>;
export const FIX_OPTIONAL_COLUMNS = ['alt', 'speed', 'course', 'temp', 'activity', 'voltage', 'sats', 'hdop', 'vdop', 'grade', 'channel', 'tx'] as const;

export const SensorColumnsSchema = z.object({
  kind: z.enum(SENSOR_KIND_NAMES as [string, ...string[]]),
  t: z.array(time),
  /** The values of each record in the kind's layout order (device.ts SensorKind), e.g. [[red, ir], ...]. */
  v: z.array(z.array(num).min(1).max(4)),
});
export type SensorColumns = z.infer<typeof SensorColumnsSchema>;

export const AccAxes = z.enum(['X', 'Y', 'Z', 'XY', 'XZ', 'YZ', 'XYZ']);
export type AccAxes = z.infer<typeof AccAxes>;

export const BurstSchema = z.object({
  /** Start of the burst, epoch ms. */
  t: time,
  /** Sampling frequency per axis, Hz. */
  hz: z.number().positive().max(1000),
  axes: AccAxes,
  /** Interleaved raw samples (XYZXYZ...) as little-endian int16, base64. */
  samples: z.string().min(1),
  /** Calibration: g = (raw - offset) * scale, per axis in `axes` order; defaults to e-obs-like 12-bit. */
  scale: z.array(num).optional(),
  offset: z.array(num).optional(),
});
export type Burst = z.infer<typeof BurstSchema>;

/** At most this many photos per POI, each at most POI_PHOTO_MAX_BYTES (JPEG or PNG). */
export const POI_MAX_PHOTOS = 9;
export const POI_PHOTO_MAX_BYTES = 2 * 1024 * 1024;
/** Field records per batch (they are few: a ranger records a handful a day). */
export const INGEST_MAX_FIELD_RECORDS = 500;

/**
 * A field record's free text: the contract's text rule (hidden characters refused: NUL, bidirectional overrides and
 * isolates, as for every call's free strings), trimmed; `lines` lets tab and line breaks through (a description).
 */
const fieldText = (max: number, lines = false) => freeText(undefined, { lines }).trim().max(max);
/** The ranger using the phone, as the organisation's field app numbers them. */
const recorder = { recorder: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER), recorderName: fieldText(64).min(1) };

/** A point of interest a phone recorded (§3 POI): its photos travel in the batch, base64. */
export const PoiRecordSchema = z.object({
  t: time,
  ...recorder,
  name: fieldText(100).min(1),
  target: fieldText(100).default(''),
  lon: z.number().min(-180).max(180),
  lat: z.number().min(-90).max(90),
  alt: num.nullable().optional(),
  address: fieldText(200).default(''),
  description: fieldText(2000, true).default(''),
  /** JPEG or PNG files, base64. */
  photos: z.array(z.string().min(1)).max(POI_MAX_PHOTOS).default([]),
});
export type PoiRecord = z.input<typeof PoiRecordSchema>;

/**
 * A behaviour observation (§3 Behavior). `motion` is a default motion's code (DEFAULT_MOTIONS) or a name of
 * the organisation's list; a name the list lacks is added to it.
 */
export const BehaviorRecordSchema = z.object({
  start: time,
  end: time,
  ...recorder,
  lon: z.number().min(-180).max(180),
  lat: z.number().min(-90).max(90),
  motion: fieldText(50).min(1),
});
export type BehaviorRecord = z.input<typeof BehaviorRecordSchema>;

/**
 * The device's own report of how it works (§3 DeviceWorkStatus), sent in a batch whenever it changes (at
 * start, after applying an instruction, after its battery moved it between adaptive levels) or with any
 * batch. The server keeps the latest as the device's work status (docs/ingest.md "Work status").
 * `at`: when the device's settings took this shape, epoch ms (a report older than the stored one is kept out).
 */
export const WorkStatusReportSchema = z.object({
  at: time,
  settings: WorkSettingsSchema,
});
export type WorkStatusReport = z.infer<typeof WorkStatusReportSchema>;

export const IngestBatchSchema = z.object({
  fixes: FixColumnsSchema.optional(),
  sensors: z.array(SensorColumnsSchema).optional(),
  bursts: z.array(BurstSchema).optional(),
  pois: z.array(PoiRecordSchema).max(INGEST_MAX_FIELD_RECORDS).optional(),
  behaviors: z.array(BehaviorRecordSchema).max(INGEST_MAX_FIELD_RECORDS).optional(),
  /** The device's work status as it reports it (see WorkStatusReportSchema). */
  workStatus: WorkStatusReportSchema.optional(),
  /**
   * The IMEI of the receiver station or phone that carried this batch from the device (a device of the
   * same organisation); absent when the device sent it itself. The batch is still signed with the
   * device's own secret. Instructions delivered in the answer, and acknowledgements sent with the same
   * relay, name it (Instruction RelayIMEI / RelayCaption).
   */
  relay: ImeiSchema.optional(),
});
export type IngestBatch = z.infer<typeof IngestBatchSchema>;

/**
 * An instruction waiting for the device, handed over with each ingest answer until it is acknowledged
 * (or withdrawn, or marked COMM_ERROR). `params` is the typed InstructionParams (calls/instruction.ts);
 * its hours are whole hours in `timeZone` ('+08:00', the sender's zone).
 */
export const PendingInstructionSchema = z.object({
  id: z.number().int(),
  type: InstrTypeSchema,
  params: InstructionParamsSchema,
  timeZone: z.string(),
  sentAt: z.number().int(),
});
export type PendingInstruction = z.infer<typeof PendingInstructionSchema>;

export const IngestAnswerSchema = z.object({
  ok: z.literal(true),
  accepted: z.object({
    fixes: z.number().int(),
    sensors: z.number().int(),
    bursts: z.number().int(),
    media: z.number().int(),
    /** Field records (absent from servers before them). */
    pois: z.number().int().optional(),
    behaviors: z.number().int().optional(),
  }),
  /** Records already stored (same device, time and kind): counted, not stored again. */
  duplicates: z.number().int(),
  instructions: z.array(PendingInstructionSchema),
  /** Device-side fence rules waiting for the device (absent when none; calls/fence.ts PendingFenceRule). */
  fenceRules: z.array(PendingFenceRuleSchema).optional(),
  serverTime: z.number().int(),
});
export type IngestAnswer = z.infer<typeof IngestAnswerSchema>;

export const IngestErrorSchema = z.object({ ok: z.literal(false), error: z.string(), reason: z.string() });
export type IngestError = z.infer<typeof IngestErrorSchema>;

/**
 * Why a device refused an instruction, when it says (an ack's `reason`): its parameters could not be read,
 * it lacks what the instruction asks for, a value is out of its range, or its battery is too low for the
 * extra work. The console says these in the reader's language; the device's `message` is its own free text
 * (in its firmware's language), shown beside it as it came.
 */
export const INSTRUCTION_FAILURE_REASONS = ['badParams', 'unsupported', 'outOfRange', 'batteryLow'] as const;
export type InstructionFailureReason = (typeof INSTRUCTION_FAILURE_REASONS)[number];

/**
 * A device's answer to an instruction: SUCCESSFUL (applied at executedAt: the server updates the device's
 * work status from the instruction's params) or FAILED with the device's error message and, optionally, its
 * reason of INSTRUCTION_FAILURE_REASONS. `relay`: as in a batch, the station or phone that carried the
 * acknowledgement.
 */
export const AckSchema = z.object({
  id: z.number().int(),
  outcome: z.enum(['SUCCESSFUL', 'FAILED']),
  executedAt: time,
  message: freeText(undefined, { lines: true }).max(500).optional(),
  reason: z.enum(INSTRUCTION_FAILURE_REASONS).optional(),
  relay: ImeiSchema.optional(),
});
export type Ack = z.infer<typeof AckSchema>;

/** Media upload: the body is the file; these travel in the query string (signed with the path). */
export const MediaQuerySchema = z.object({
  kind: z.enum(['image', 'video', 'audio']),
  t: z.coerce.number().int().min(0),
  lon: z.coerce.number().optional(),
  lat: z.coerce.number().optional(),
  alt: z.coerce.number().optional(),
  width: z.coerce.number().int().optional(),
  height: z.coerce.number().int().optional(),
  duration: z.coerce.number().optional(),
  rate: z.coerce.number().int().optional(),
  bitDepth: z.coerce.number().int().optional(),
  track: z.coerce.number().int().optional(),
});
export type MediaQuery = z.infer<typeof MediaQuerySchema>;

/** Packs int16 samples little-endian and base64s them (for device code and the simulator). */
export function packSamples(samples: ArrayLike<number>): string {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) view.setInt16(i * 2, Math.max(-32768, Math.min(32767, Math.round(samples[i]!))), true);
  let s = '';
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s);
}

/**
 * Headers of one signed ingest request: HMAC-SHA256 keyed with the device secret over the same
 * canonical string as console calls (method, full path with query, timestamp, nonce, body SHA-256),
 * and that body hash declared in INGEST_BODY_HASH_HEADER (`bodyHash: false` leaves it out, as the first
 * clients did).
 */
export function ingestHeaders(opts: {
  imei: string;
  secret: string;
  path: string;
  body: string | Uint8Array | undefined;
  now?: number;
  nonce?: string;
  method?: string;
  bodyHash?: boolean;
}): Record<string, string> {
  const timestamp = opts.now ?? Date.now();
  const nonce = opts.nonce ?? newRequestCode();
  const hash = bodyHash(opts.body);
  const canonical = canonicalString(opts.method ?? 'POST', opts.path, timestamp, nonce, hash);
  return {
    [IngestHeader.imei]: opts.imei,
    [IngestHeader.timestamp]: String(timestamp),
    [IngestHeader.nonce]: nonce,
    [IngestHeader.signature]: bytesToHex(hmac(sha256, utf8ToBytes(opts.secret), utf8ToBytes(canonical))),
    ...(opts.bodyHash === false ? {} : { [INGEST_BODY_HASH_HEADER]: hash }),
  };
}
