import { z } from 'zod';
import { defineCall } from '../call.js';
import { EventType } from '../device.js';
import { orderedRange, PageSchema, TimeTextSchema, TimeZoneField } from '../paging.js';
import { ImeiSchema as imei } from '../validation.js';

/**
 * Events (§3 Event, EventSubscribe; §7.2 Event/*): what happened to a device — it entered or left a fence
 * (Fence), an instruction's status changed (Instr), it reports again after a gap (FixUpdate), its battery is
 * low, it is silent longer than its schedule allows or its status changed (Device). A user sees the events
 * of the devices they can read now (their organisation's, a share's inside its window, the examples while
 * their experience switch is on); each user has their own read state.
 *
 * Stored (table `events`, apps/server/src/db/shared-writes.ts recordEvent) as the type and an EventContent:
 * a message key's parameters, put into words (Title, Content) in each reader's language and zone when read.
 * Subscriptions (EventSubscribe) choose which events are delivered to a user (live, e-mail); the event list
 * shows every event the user may read.
 */

export const EVENT_TYPES = [EventType.Unknown, EventType.Fence, EventType.Instr, EventType.FixUpdate, EventType.Device] as const;
export const EventTypeSchema = z.union(EVENT_TYPES.map((t) => z.literal(t)) as [z.ZodLiteral<0>, ...z.ZodLiteral<EventType>[]], { error: 'validation.invalidValue' });

/**
 * What a stored event says, as the parameters of its message (`event.<kind>.title` / `event.<kind>.content`
 * in messages.ts, each with `{device}` plus the parameters below); times are epoch ms, shown in the reader's
 * zone. The detected kinds are the ones apps/server/src/db/event-writes.ts writes (DetectedKind). Instr
 * events keep the shape recordInstructionEvent writes ({instrType, status, error?}, no kind).
 * - fenceEntered / fenceLeft (Fence): the fence's name (and its id).
 * - resumed (FixUpdate): last heard before the silence, and the first new record after it.
 * - batteryLow (Device): the voltage and the battery level in percent.
 * - silent (Device): since when the device has not reported, and the minutes its schedule allows.
 * - status (Device): the status before and after (DeviceStatus numbers).
 */
export const EventContentSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('fenceEntered'), fence: z.string(), fenceId: z.number().optional() }),
  z.object({ kind: z.literal('fenceLeft'), fence: z.string(), fenceId: z.number().optional() }),
  z.object({ kind: z.literal('resumed'), since: z.number(), first: z.number() }),
  z.object({ kind: z.literal('batteryLow'), voltage: z.number().optional(), percent: z.number() }),
  z.object({ kind: z.literal('silent'), since: z.number(), allowedMinutes: z.number().optional() }),
  z.object({ kind: z.literal('status'), from: z.number().int(), to: z.number().int() }),
]);
export type EventContent = z.infer<typeof EventContentSchema>;
export type EventContentKind = EventContent['kind'];

/** The event type each content kind belongs to. */
export const EVENT_CONTENT_TYPE: Record<EventContentKind, EventType> = {
  fenceEntered: EventType.Fence,
  fenceLeft: EventType.Fence,
  resumed: EventType.FixUpdate,
  batteryLow: EventType.Device,
  silent: EventType.Device,
  status: EventType.Device,
};

/** An event of the list (§3 Event): HappenTime in the caller's zone; Title and Content in the caller's language. */
export const EventSchema = z.object({
  Id: z.number().int(),
  IdStr: z.string(),
  IMEI: z.string(),
  Caption: z.string(),
  Type: z.number().int(),
  HappenTime: z.string(),
  Title: z.string(),
  Content: z.string(),
  /** 0 unread, 1 read (by the caller). */
  Viewed: z.union([z.literal(0), z.literal(1)]),
});
export type Event = z.infer<typeof EventSchema>;

/** Which events of a device are delivered to the user (§3 EventSubscribe); all on until the user changes them. */
export const EventSubscribeSchema = z.object({
  IMEI: z.string(),
  Caption: z.string(),
  FenceEvent: z.boolean(),
  InstrEvent: z.boolean(),
  FixUpdateEvent: z.boolean(),
});
export type EventSubscribe = z.infer<typeof EventSubscribeSchema>;

/** Most event ids one EventViewed names. */
export const EVENT_VIEWED_MAX = 500;

/**
 * The event list's filter: one device (all the caller can read when absent), a type, a HappenTime range in
 * the call's zone, read state (0 unread, 1 read).
 */
const eventFilter = {
  imei: imei.optional(),
  eventType: EventTypeSchema.optional(),
  startTime: TimeTextSchema.optional(),
  endTime: TimeTextSchema.optional(),
  viewed: z.union([z.literal(0), z.literal(1)], { error: 'validation.invalidValue' }).optional(),
  timeZone: TimeZoneField,
};

export const GetEventCount = defineCall({
  path: '/api/Event/GetCount',
  auth: 'session',
  access: 'device read',
  body: z.object(eventFilter).superRefine(orderedRange),
  data: z.object({ Count: z.number().int() }),
  summary: 'How many events match the filter (viewed: 0 gives the unread count) among the devices the caller can read.',
});

export const GetEventListByPage = defineCall({
  path: '/api/Event/GetListByPage',
  auth: 'session',
  access: 'device read',
  body: z.object({ ...eventFilter, ...PageSchema }).superRefine(orderedRange),
  data: z.object({ List: z.array(EventSchema), Total: z.number().int() }),
  summary: 'One page of the events matching the filter, newest first, in the caller\'s language and zone.',
});

export const GetEventSubscribe = defineCall({
  path: '/api/Event/GetSubscribe',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei: imei.optional() }),
  data: z.object({ List: z.array(EventSubscribeSchema) }),
  summary: 'The caller\'s subscription of each device they can read (or of the one named).',
});

export const SetEventSubscribe = defineCall({
  path: '/api/Event/Subscribe',
  auth: 'session',
  access: 'device read',
  body: z.object({
    imei,
    FenceEvent: z.boolean({ error: 'validation.invalidValue' }),
    InstrEvent: z.boolean({ error: 'validation.invalidValue' }),
    FixUpdateEvent: z.boolean({ error: 'validation.invalidValue' }),
  }),
  data: EventSubscribeSchema,
  summary: 'Sets which events of a device the caller is sent (their own setting: allowed on any device they can read).',
});

export const EventViewed = defineCall({
  path: '/api/Event/Viewed',
  auth: 'session',
  access: 'session',
  body: z.object({
    eventIds: z
      .array(z.string().regex(/^\d{1,18}$/, { error: 'validation.format' }), { error: 'validation.required' })
      .min(1, { error: 'validation.required' })
      .max(EVENT_VIEWED_MAX),
  }),
  data: z.null(),
  summary: 'Marks these events read for the caller; an event the caller cannot read refuses the call (1002), marking nothing.',
});

export const EventViewedAll = defineCall({
  path: '/api/Event/ViewedAll',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei: imei.optional(), eventType: EventTypeSchema.optional() }),
  data: z.object({ Count: z.number().int() }),
  summary: 'Marks read every unread event the caller can read (of the device / type given); answers how many.',
});
