import { z } from 'zod';
import { defineCall } from '../call.js';
import { COLLECTION_TIME_POINTS_MAX } from '../constants.js';
import { orderedRange, PageSchema, TimeZoneField } from '../paging.js';
import { formatOffset, parseOffset } from '../timezone.js';
import { ImeiSchema as imei, required } from '../validation.js';
import { TimeTextSchema } from './fix.js';
import type { WorkSettings } from './mount.js';

/**
 * Remote instructions (§3 Instruction, §4 Remote instruction status, §5 Remote command, §6 RemoteInstr,
 * §7.2 Instruction/*, §8, §9): a new schedule the console sends to devices, delivered with a device's next
 * ingest answer and acknowledged by it (docs/ingest.md "Instructions").
 *
 * Two instruction types, as the spec names them: ACQUISITION_FREQUENCY (how the device collects: its GNSS
 * schedule and/or its acceleration bursts) and POSTBACK_FREQUENCY (when it sends its data). The daily limit
 * (INSTRUCTIONS_PER_DEVICE_PER_DAY, §9) counts per device and per one of these two types, over the caller's
 * day in the caller's time zone; withdrawn instructions do not count.
 */

export const INSTRUCTION_TYPES = ['ACQUISITION_FREQUENCY', 'POSTBACK_FREQUENCY'] as const;
export const InstrTypeSchema = z.enum(INSTRUCTION_TYPES);
export type InstrType = z.infer<typeof InstrTypeSchema>;

/**
 * Remote instruction status (§4). SENT: queued, waiting for the device (delivered with its next ingest
 * answer); SUCCESSFUL / FAILED: the device's acknowledgement (FAILED with its ErrorMessage); COMM_ERROR:
 * the device did not fetch it within its postback window plus a margin (docs/ingest.md); WITHDRAWN (ours:
 * the spec lets an instruction be withdrawn within 2 minutes of sending but names no status for it): the
 * sender took it back while it was still SENT; it is never delivered afterwards.
 */
export const INSTRUCTION_STATUSES = ['SENT', 'SUCCESSFUL', 'FAILED', 'COMM_ERROR', 'WITHDRAWN'] as const;
export const InstructionStatusSchema = z.enum(INSTRUCTION_STATUSES);
export type InstructionStatus = z.infer<typeof InstructionStatusSchema>;

/** Most devices one Send may name. */
export const INSTRUCTION_SEND_MAX_DEVICES = 100;
/** Interval bounds, minutes: a fix / a burst at most every minute, at least once a day. */
export const INSTRUCTION_INTERVAL_MIN = 1;
export const INSTRUCTION_INTERVAL_MAX = 1440;
/** Acceleration sampling frequency bounds per axis, Hz. */
export const ACC_HZ_MIN = 1;
export const ACC_HZ_MAX = 100;
/** DATA_CNT postback: fixes gathered before a postback, and the largest packet, bytes. */
export const PACKET_COUNT_MAX = 10_000;
export const PACKET_SIZE_MIN = 16;
export const PACKET_SIZE_MAX = 65_535;

/** A whole hour of the day, 0..23 (shown 00:00..23:00, HOUR_OPTIONS). */
const hour = z.number({ error: 'validation.invalidValue' }).int({ error: 'validation.invalidValue' }).min(0).max(23);

/** An hour array: at least one hour, each once, at most `max` (the §9 time-point caps). */
function hourArray(max: number) {
  return z
    .array(hour, { error: 'validation.hoursRequired' })
    .min(1, { error: 'validation.hoursRequired' })
    .max(max, { error: 'validation.tooManyTimePoints' })
    .refine((hs) => new Set(hs).size === hs.length, { error: 'validation.hourTwice' });
}

/** An interval in minutes; a missing one is "collection interval cannot be empty" (§8). */
const interval = z
  .number({ error: 'validation.intervalRequired' })
  .int({ error: 'validation.invalidValue' })
  .min(INSTRUCTION_INTERVAL_MIN, { error: 'validation.intervalRequired' })
  .max(INSTRUCTION_INTERVAL_MAX);

/**
 * The GNSS collection schedule (§3 DeviceWorkStatus GNSSCollectionMode), one of:
 * - INTERVAL: NORMAL (0) mode, a fix every IntervalMinutes;
 * - HOURS: NORMAL (0) mode, fixes at the listed whole hours (a custom hour array, 00:00..23:00);
 * - ADAPTIVE_HIGH: voltage-adaptive high frequency (128), minutes between fixes at high, medium and low
 *   battery level (needs InstrSupport GNSSCollectionAdaptiveHighFrequency);
 * - ADAPTIVE_LOW: voltage-adaptive low frequency (129), fix hours at the three levels, at most 12, 8 and 6
 *   (COLLECTION_TIME_POINTS_MAX; needs GNSSCollectionAdaptiveLowFrequency).
 * Hours are in the instruction's TimeZone (the sender's zone).
 */
export const GnssCollectionSchema = z.discriminatedUnion('Mode', [
  z.object({ Mode: z.literal('INTERVAL'), IntervalMinutes: interval }),
  z.object({ Mode: z.literal('HOURS'), Hours: hourArray(24) }),
  z.object({ Mode: z.literal('ADAPTIVE_HIGH'), High: interval, Medium: interval, Low: interval }),
  z.object({
    Mode: z.literal('ADAPTIVE_LOW'),
    High: hourArray(COLLECTION_TIME_POINTS_MAX[0]),
    Medium: hourArray(COLLECTION_TIME_POINTS_MAX[1]),
    Low: hourArray(COLLECTION_TIME_POINTS_MAX[2]),
  }),
]);
export type GnssCollection = z.infer<typeof GnssCollectionSchema>;

const hz = z.number({ error: 'validation.invalidValue' }).min(ACC_HZ_MIN).max(ACC_HZ_MAX);

/**
 * Acceleration bursts (§3 DeviceWorkStatus: enabled, follow-GNSS, Hz, interval), one of:
 * - OFF: no more bursts;
 * - FOLLOW_GNSS: a burst with each fix, at FrequencyHz;
 * - INTERVAL: a burst every IntervalMinutes, at FrequencyHz.
 * Any ACC part needs the device's acceleration sensor and InstrSupport AccCollectionSwitch; a
 * FrequencyHz other than the device's current one also needs AccCollectionFrequency. FrequencyHz null:
 * keep the device's current frequency.
 */
export const AccCollectionSchema = z.discriminatedUnion('Mode', [
  z.object({ Mode: z.literal('OFF') }),
  z.object({ Mode: z.literal('FOLLOW_GNSS'), FrequencyHz: hz.nullable().default(null) }),
  z.object({ Mode: z.literal('INTERVAL'), FrequencyHz: hz.nullable().default(null), IntervalMinutes: interval }),
]);
export type AccCollection = z.infer<typeof AccCollectionSchema>;

/**
 * Data postback (§3 DeviceWorkStatus DataPostbackMode), one of:
 * - DATA_CNT: send once PacketCount fixes wait, in packets of at most PacketSize bytes;
 * - HOUR: send at the listed whole hours (needs InstrSupport DataPostbackHours).
 * Realtime: send each record as soon as it is taken (the mode then says how the device falls back when it
 * has no link).
 */
export const PostbackSchema = z.discriminatedUnion('Mode', [
  z.object({
    Mode: z.literal('DATA_CNT'),
    PacketCount: z.number({ error: 'validation.invalidValue' }).int().min(1).max(PACKET_COUNT_MAX),
    PacketSize: z.number({ error: 'validation.invalidValue' }).int().min(PACKET_SIZE_MIN).max(PACKET_SIZE_MAX),
    Realtime: z.boolean().default(false),
  }),
  z.object({ Mode: z.literal('HOUR'), Hours: hourArray(24), Realtime: z.boolean().default(false) }),
]);
export type Postback = z.infer<typeof PostbackSchema>;

/**
 * What an instruction tells a device, by type: POSTBACK_FREQUENCY carries Postback; ACQUISITION_FREQUENCY
 * carries GNSS, ACC or both (at least one). The same object is stored, shown in the history (Params) and
 * handed to the device (PendingInstruction.params) with the zone its hours are written in.
 */
export const InstructionParamsSchema = z.discriminatedUnion('Type', [
  z.object({ Type: z.literal('POSTBACK_FREQUENCY'), Postback: PostbackSchema }),
  z
    .object({ Type: z.literal('ACQUISITION_FREQUENCY'), GNSS: GnssCollectionSchema.optional(), ACC: AccCollectionSchema.optional() })
    .refine((p) => p.GNSS !== undefined || p.ACC !== undefined, { error: 'validation.nothingToSend', path: ['GNSS'] }),
]);
export type InstructionParams = z.infer<typeof InstructionParamsSchema>;
export type InstructionParamsInput = z.input<typeof InstructionParamsSchema>;

/** An instruction of the history (§3 Instruction); times in the caller's zone ('' when none yet). */
export const InstructionSchema = z.object({
  Id: z.number().int(),
  IdStr: z.string(),
  IMEI: z.string(),
  Caption: z.string(),
  /** The receiver station or phone that carried the device's batch holding the acknowledgement ('' when the device sent it itself). */
  RelayIMEI: z.string(),
  RelayCaption: z.string(),
  SenderName: z.string(),
  InstrType: InstrTypeSchema,
  /** The type in words ("Collection schedule"), in the caller's language. */
  Desc: z.string(),
  /** What the device is told, in words, in the caller's language. */
  Detail: z.string(),
  Params: InstructionParamsSchema,
  /** The zone the hours of Params are written in (the sender's). */
  TimeZone: z.string(),
  Status: InstructionStatusSchema,
  SendTime: z.string(),
  /** Epoch ms of SendTime: the web counts the withdraw window down from it. */
  SendAt: z.number().int(),
  /** The device's next postback by its schedule when the instruction was sent ('' when its schedule is unknown). */
  EstimateExecuteTime: z.string(),
  /** When the device applied or refused it (its acknowledgement). */
  ExecuteTime: z.string(),
  ErrorMessage: z.string(),
  /** SENT and sent less than INSTRUCTION_WITHDRAW_WINDOW_MS ago, at the answer's time. */
  CanWithdraw: z.boolean(),
});
export type Instruction = z.infer<typeof InstructionSchema>;

/** The history's filter: devices, a range of SendTime, optionally a type and a status. */
const historyFilter = {
  imeis: z.array(imei).min(1, { error: 'validation.imeis.empty' }).max(INSTRUCTION_SEND_MAX_DEVICES * 5),
  startTime: TimeTextSchema,
  endTime: TimeTextSchema,
  type: InstrTypeSchema.optional(),
  status: InstructionStatusSchema.optional(),
  timeZone: TimeZoneField,
};

export const GetInstructionCount = defineCall({
  path: '/api/Instruction/GetCount',
  auth: 'session',
  access: 'device read',
  body: z.object(historyFilter).superRefine(orderedRange),
  data: z.object({ Count: z.number().int() }),
  summary: 'How many instructions were sent to the devices in the range (by SendTime).',
});

export const GetInstructionList = defineCall({
  path: '/api/Instruction/GetList',
  auth: 'session',
  access: 'device read',
  body: z.object({ ...historyFilter, ...PageSchema }).superRefine(orderedRange),
  data: z.object({ List: z.array(InstructionSchema), Total: z.number().int() }),
  summary: 'One page of the instruction history of the devices in the range, newest first.',
});

/** A device's count of instructions of one type sent today (the caller's day) and whether it is at the limit. */
export const ExceedSchema = z.object({
  IMEI: z.string(),
  Caption: z.string(),
  Count: z.number().int(),
  Exceeded: z.boolean(),
});
export type Exceed = z.infer<typeof ExceedSchema>;

export const Exceedrestrict = defineCall({
  path: '/api/Instruction/Exceedrestrict',
  auth: 'session',
  access: 'device right RemoteInstr',
  body: z.object({
    imeis: z.array(imei).min(1, { error: 'validation.imeis.empty' }).max(INSTRUCTION_SEND_MAX_DEVICES),
    type: InstrTypeSchema,
    timeZone: TimeZoneField,
  }),
  data: z.array(ExceedSchema),
  summary: 'For each chosen device, how many instructions of the type it got today (the caller\'s day) and whether it is at the daily limit.',
});

/**
 * A refused Send's or Exceedrestrict's Data (the envelope's Msg joins the same in one sentence): each device
 * refused, with its clause naming it and why in the caller's language ("Stork B (…) is a VHF receiver, …"),
 * so a client can put each beside its device.
 */
export const InstructionRefusalSchema = z.object({
  Refused: z.array(z.object({ IMEI: z.string(), Caption: z.string(), Reason: z.string() })),
});
export type InstructionRefusal = z.infer<typeof InstructionRefusalSchema>;

/**
 * Sends one instruction to each device, all or none (one transaction): every device is checked first
 * (RemoteInstr in its window, not a VHF receiver, work status 2/3/4, its InstrSupport flags and sensors,
 * the daily limit) and any refusal names the device and why, storing nothing.
 */
export const SendInstruction = defineCall({
  path: '/api/Instruction/Send',
  auth: 'session',
  access: 'device right RemoteInstr',
  body: z.object({
    imeis: z.array(imei).min(1, { error: 'validation.imeis.empty' }).max(INSTRUCTION_SEND_MAX_DEVICES),
    params: InstructionParamsSchema,
    /** The zone the params' hours are in and the caller's day is counted in; the caller's own by default. */
    timeZone: TimeZoneField,
  }),
  data: z.object({ List: z.array(InstructionSchema) }),
  summary: 'Sends an instruction to each chosen device (all or none); answers the instructions stored, SENT.',
});

export const WithdrawInstruction = defineCall({
  path: '/api/Instruction/Withdraw',
  auth: 'session',
  access: 'device right RemoteInstr',
  body: z.object({
    imei,
    /** The instruction's IdStr. */
    instructionId: z.string(required).regex(/^\d{1,18}$/, { error: 'validation.format' }),
    timeZone: TimeZoneField,
  }),
  data: InstructionSchema,
  summary: 'Withdraws an instruction still SENT within 2 minutes of sending; afterwards refused with the spec\'s message.',
});

/** Whole hours written in a zone ('+08:00') as UTC hours, sorted (zones are whole hours, §9). */
export function hoursToUtc(hours: readonly number[], zone: string): number[] {
  const shift = Math.round((parseOffset(zone) ?? 0) / 60);
  return [...new Set(hours.map((h) => (((h - shift) % 24) + 24) % 24))].sort((a, b) => a - b);
}

/** UTC hours as whole hours of a zone, sorted. */
export function hoursFromUtc(hours: readonly number[], zone: string): number[] {
  return hoursToUtc(hours, formatOffset(-(parseOffset(zone) ?? 0)));
}

/**
 * The work status a device has after applying an instruction successfully: `before` with the parts the
 * params name replaced (hours turned to UTC from the instruction's zone). The server stores it on a
 * SUCCESSFUL acknowledgement; a device (the simulator) applies the same.
 */
export function applyInstruction(before: WorkSettings, params: InstructionParams, zone: string): WorkSettings {
  const s: WorkSettings = { ...before, HighFrequencyIntervals: { ...before.HighFrequencyIntervals }, LowFrequencyHours: { ...before.LowFrequencyHours } };
  if (params.Type === 'POSTBACK_FREQUENCY') {
    const p = params.Postback;
    s.Realtime = p.Realtime;
    if (p.Mode === 'DATA_CNT') {
      s.DataPostbackMode = 'DATA_CNT';
      s.PacketCount = p.PacketCount;
      s.PacketSize = p.PacketSize;
    } else {
      s.DataPostbackMode = 'HOUR';
      s.PostbackHours = hoursToUtc(p.Hours, zone);
    }
    return s;
  }
  const g = params.GNSS;
  if (g?.Mode === 'INTERVAL') Object.assign(s, { GNSSCollectionMode: 0, NormalType: 'INTERVAL', IntervalMinutes: g.IntervalMinutes });
  else if (g?.Mode === 'HOURS') Object.assign(s, { GNSSCollectionMode: 0, NormalType: 'HOURS', CustomHours: hoursToUtc(g.Hours, zone) });
  else if (g?.Mode === 'ADAPTIVE_HIGH') Object.assign(s, { GNSSCollectionMode: 128, HighFrequencyIntervals: { High: g.High, Medium: g.Medium, Low: g.Low } });
  else if (g?.Mode === 'ADAPTIVE_LOW') {
    Object.assign(s, { GNSSCollectionMode: 129, LowFrequencyHours: { High: hoursToUtc(g.High, zone), Medium: hoursToUtc(g.Medium, zone), Low: hoursToUtc(g.Low, zone) } });
  }
  const a = params.ACC;
  if (a?.Mode === 'OFF') s.AccEnabled = false;
  else if (a) {
    s.AccEnabled = true;
    s.AccFollowGNSS = a.Mode === 'FOLLOW_GNSS';
    if (a.FrequencyHz !== null) s.AccFrequencyHz = a.FrequencyHz;
    if (a.Mode === 'INTERVAL') s.AccIntervalMinutes = a.IntervalMinutes;
  }
  return s;
}
