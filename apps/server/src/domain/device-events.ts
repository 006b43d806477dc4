import { batteryLevelOf, type EventContent, type EventContentKind, EventType, expectedReportGapMinutes, LINK_RULE, UNKNOWN_SCHEDULE_REPORT_GAP_MINUTES, WorkSettingsSchema } from '@wildtrack/contract';
import { announceCreated } from './event-bus.js';

/**
 * Events that the server detects about a device (issue 15 item 3): of type FixUpdate (3) when a device
 * that had been silent longer than its schedule allows reports again, of type Device (4) when its battery
 * falls below the §9 10 % level, when it stays silent longer than its schedule allows, and when its status
 * is changed. Written by ingest (in the batch's transaction), the silence job and the device calls.
 *
 * `content` holds the parameters of the message that puts the event into words, as JSON, so that each
 * reader gets it in their language (like the instruction events of db/shared-writes.ts): its `kind` and
 * parameters are the contract's EventContent (calls/event.ts), which the event list puts into words.
 * Each stored event is announced (event-bus.ts) once its transaction has committed, for live delivery.
 *
 * The rules live here (no query: ingest and the modules both keep them); the writes that store the events
 * are db/event-writes.ts.
 */
export const DetectedKind = {
  resumed: 'resumed',
  batteryLow: 'batteryLow',
  silent: 'silent',
  status: 'status',
} as const satisfies Record<string, EventContentKind>;

/** The key of a silence's event, before the time the device was last heard. */
export const SILENT_PREFIX = `${DetectedKind.silent}:`;

/** The battery level (percent, §9) under which a device's battery is low enough for an event. */
export const LOW_BATTERY_PERCENT = 10;

export interface DeviceEvent {
  type: typeof EventType.FixUpdate | typeof EventType.Device;
  at: number;
  /** One event per device and key (null: no such limit). */
  key: string | null;
  content: EventContent;
}

const gapCache = new Map<string, number>();

/**
 * How long a device may go unheard before it is silent, in ms: the console's silent mark (LINK_RULE: more
 * than LATE_FACTOR expected report gaps of its work status; a day's gap when it never reported one), so
 * that an event says what the tree's mark says. The stored settings' gaps are remembered by their text:
 * the ingest path parses a schedule once, not once per batch.
 */
export function silentAfterMs(settings: string | null | undefined): number {
  let minutes = settings ? gapCache.get(settings) : UNKNOWN_SCHEDULE_REPORT_GAP_MINUTES;
  if (minutes === undefined) {
    let parsed: ReturnType<typeof WorkSettingsSchema.safeParse> | undefined;
    try {
      parsed = WorkSettingsSchema.safeParse(JSON.parse(settings!));
    } catch {
      parsed = undefined;
    }
    minutes = parsed?.success ? expectedReportGapMinutes(parsed.data) : UNKNOWN_SCHEDULE_REPORT_GAP_MINUTES;
    if (gapCache.size > 1000) gapCache.clear();
    gapCache.set(settings!, minutes);
  }
  return LINK_RULE.LATE_FACTOR * Math.max(LINK_RULE.MIN_REPORT_GAP, minutes) * 60_000;
}

/** What the server knew of a device before a batch: when it was last heard, its voltage then, its battery and schedule. */
export interface DeviceBefore {
  lastWork: number | null;
  lastVoltage: number | null;
  batteryType: number;
  settings: string | null;
  /** Whether the silence job recorded the silence that began when it was last heard (the device was called silent). */
  silenced: boolean;
  /** A ranger's phone reports when it is used, on no schedule: it is never silent nor reporting again. */
  phone: boolean;
}

/** What of a decoded batch detection needs: its newest record time and voltage, and its record times. */
export interface BatchTimes {
  lastTime: number | null;
  lastVoltage: number | null;
  /** Every record time of the batch (read only when the batch may end a silence). */
  times(): Iterable<number>;
}

/**
 * The events a batch makes, from the device's state before it. Only records newer than the device was last
 * heard count, so a batch sent again, or an older one arriving late, makes none; each event's key names the
 * silence or the drop it ends (the time last heard before it), so two processes, or two batches racing,
 * write it once. No query: the caller reads `before` once per batch.
 *
 * A device reports again after a silence when its records resume after a gap longer than its schedule
 * allows, or when the silence job had called it silent (a tag out of coverage for a day uploads the fixes
 * it kept: no gap in them, but the console said it was silent). A history loaded in order (the sample
 * devices' month, a Movebank import) has neither, so it makes no such event.
 */
export function detectBatchEvents(before: DeviceBefore, batch: BatchTimes, now: number): DeviceEvent[] {
  const newest = batch.lastTime;
  if (newest === null || (before.lastWork !== null && newest <= before.lastWork)) return [];
  const out: DeviceEvent[] = [];
  const prev = before.lastWork;
  if (prev !== null && !before.phone) {
    const allowed = silentAfterMs(before.settings);
    if (before.silenced || newest - prev > allowed) {
      let first = newest;
      for (const t of batch.times()) if (t > prev && t < first) first = t;
      if (before.silenced || first - prev > allowed) {
        out.push({ type: EventType.FixUpdate, at: now, key: `${DetectedKind.resumed}:${prev}`, content: { kind: DetectedKind.resumed, since: prev, first } });
      }
    }
  }
  if (batch.lastVoltage !== null) {
    const percent = batteryLevelOf(batch.lastVoltage, before.batteryType);
    const wasLow = before.lastVoltage !== null && batteryLevelOf(before.lastVoltage, before.batteryType) < LOW_BATTERY_PERCENT;
    if (percent < LOW_BATTERY_PERCENT && !wasLow) {
      out.push({ type: EventType.Device, at: newest, key: `${DetectedKind.batteryLow}:${prev ?? 0}`, content: { kind: DetectedKind.batteryLow, voltage: batch.lastVoltage, percent } });
    }
  }
  return out;
}

/** An event stored (to announce once its transaction has committed). */
export interface StoredEvent {
  eventId: number;
  deviceId: number;
  type: number;
  happenTime: number;
}

/** Announces stored events to live delivery; call after the transaction that wrote them committed. */
export function announceEvents(events: readonly StoredEvent[]): void {
  for (const e of events) announceCreated({ kind: 'event', ...e });
}
