import type SQLite from 'better-sqlite3';
import { type Kysely, type OnConflictBuilder, sql } from 'kysely';
import { batteryLevelOf, DeviceType, type EventContent, type EventContentKind, EventType, expectedReportGapMinutes, LINK_RULE, UNKNOWN_SCHEDULE_REPORT_GAP_MINUTES, WorkSettingsSchema } from '@wildtrack/contract';
import { announceCreated } from '../domain/event-bus.js';
import type { Database } from './schema.js';

/**
 * Events that the server detects about a device (issue 15 item 3): of type FixUpdate (3) when a device
 * that had been silent longer than its schedule allows reports again, of type Device (4) when its battery
 * falls below the §9 10 % level, when it stays silent longer than its schedule allows, and when its status
 * is changed. Written by ingest (in the batch's transaction), the silence job and the device calls.
 *
 * `content` holds the parameters of the message that puts the event into words, as JSON, so that each
 * reader gets it in their language (like the instruction events of shared-writes.ts): its `kind` and
 * parameters are the contract's EventContent (calls/event.ts), which the event list puts into words.
 * Each stored event is announced (domain/event-bus.ts) once its transaction has committed, for live delivery.
 */
export const DetectedKind = {
  resumed: 'resumed',
  batteryLow: 'batteryLow',
  silent: 'silent',
  status: 'status',
} as const satisfies Record<string, EventContentKind>;

/** The key of a silence's event, before the time the device was last heard. */
const SILENT_PREFIX = `${DetectedKind.silent}:`;

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

/** The device's state before a batch (Kysely form; in the batch's transaction). */
export async function deviceBefore(db: Kysely<Database>, deviceId: number): Promise<DeviceBefore | undefined> {
  const r = await db
    .selectFrom('devices as d')
    .leftJoin('device_work_status as w', 'w.device_id', 'd.id')
    .select(['d.last_work_time', 'd.last_voltage', 'd.battery_type', 'd.type', 'w.settings'])
    .select(sql<number | null>`(select 1 from events e where e.device_id = d.id and e.dedup_key = cast(${SILENT_PREFIX} as text) || cast(d.last_work_time as text))`.as('silenced'))
    .where('d.id', '=', deviceId)
    .executeTakeFirst();
  return r && toBefore(r);
}


function toBefore(r: { last_work_time: number | null; last_voltage: number | null; battery_type: number; type: number; settings: string | null; silenced: number | null }): DeviceBefore {
  return {
    lastWork: r.last_work_time === null ? null : Number(r.last_work_time),
    lastVoltage: r.last_voltage === null ? null : Number(r.last_voltage),
    batteryType: Number(r.battery_type),
    settings: r.settings,
    silenced: r.silenced !== null,
    phone: Number(r.type) === DeviceType.Phone,
  };
}

/** An event stored (to announce once its transaction has committed). */
export interface StoredEvent {
  eventId: number;
  deviceId: number;
  type: number;
  happenTime: number;
}

/** The upsert's target: the unique index of keyed events (device, key), which holds only rows with a key. */
const keyedEvent = (oc: OnConflictBuilder<Database, 'events'>) => oc.columns(['device_id', 'dedup_key']).where('dedup_key', 'is not', null).doNothing();

/** Announces stored events to live delivery; call after the transaction that wrote them committed. */
export function announceEvents(events: readonly StoredEvent[]): void {
  for (const e of events) announceCreated({ kind: 'event', ...e });
}

/**
 * Stores detected events; one already stored under the same device and key is left as it is. Returns the
 * ones stored.
 */
export async function recordDeviceEvents(db: Kysely<Database>, deviceId: number, events: readonly DeviceEvent[]): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for (const e of events) {
    const r = await db
      .insertInto('events')
      .values({ device_id: deviceId, type: e.type, happen_time: e.at, content: JSON.stringify(e.content), dedup_key: e.key })
      .onConflict(keyedEvent)
      .returning('id')
      .executeTakeFirst();
    if (r) out.push({ eventId: Number(r.id), deviceId, type: e.type, happenTime: e.at });
  }
  return out;
}

/** The same reads and writes as prepared statements, for ingest's synchronous better-sqlite3 transaction. */
export class SqliteEventWrites {
  private readonly before: SQLite.Statement<[number]>;
  private readonly insert: SQLite.Statement<[number, number, number, string, string | null]>;

  constructor(sqlite: SQLite.Database) {
    this.before = sqlite.prepare(
      `select d.last_work_time, d.last_voltage, d.battery_type, d.type, w.settings,
              (select 1 from events e where e.device_id = d.id and e.dedup_key = '${SILENT_PREFIX}' || cast(d.last_work_time as text)) as silenced
       from devices d left join device_work_status w on w.device_id = d.id where d.id = ?`,
    );
    this.insert = sqlite.prepare('insert or ignore into events (device_id, type, happen_time, content, dedup_key) values (?, ?, ?, ?, ?)');
  }

  deviceBefore(deviceId: number): DeviceBefore | undefined {
    const r = this.before.get(deviceId) as Parameters<typeof toBefore>[0] | undefined;
    return r && toBefore(r);
  }

  record(deviceId: number, events: readonly DeviceEvent[], stored: StoredEvent[]): void {
    for (const e of events) {
      const r = this.insert.run(deviceId, e.type, e.at, JSON.stringify(e.content), e.key);
      if (r.changes > 0) stored.push({ eventId: Number(r.lastInsertRowid), deviceId, type: e.type, happenTime: e.at });
    }
  }
}

/**
 * Devices silent longer than their schedule allows, as of `now`: one Device event per silence (its key is
 * the time the device was last heard, so a later run, or another process, writes it again into nothing).
 * Only devices at work (status Working) are expected to report, and no phone (it has no schedule). The event's time is when the silence
 * passed what the schedule allows. Returns how many events were new.
 */
export async function recordSilences(db: Kysely<Database>, now: number, workingStatus: number): Promise<number> {
  const shortest = LINK_RULE.LATE_FACTOR * LINK_RULE.MIN_REPORT_GAP * 60_000;
  const rows = await db
    .selectFrom('devices as d')
    .leftJoin('device_work_status as w', 'w.device_id', 'd.id')
    .select(['d.id', 'd.last_work_time', 'w.settings'])
    .where('d.status', '=', workingStatus)
    .where('d.type', '!=', DeviceType.Phone)
    .where('d.last_work_time', 'is not', null)
    .where('d.last_work_time', '<', now - shortest)
    // a silence already recorded is not read again at each pass (long-dead devices would be, every 5 minutes)
    .where(sql<boolean>`not exists (select 1 from events e where e.device_id = d.id and e.dedup_key = cast(${SILENT_PREFIX} as text) || cast(d.last_work_time as text))`)
    .execute();
  let made = 0;
  for (const r of rows) {
    const since = Number(r.last_work_time);
    const allowed = silentAfterMs(r.settings);
    if (now - since <= allowed) continue;
    const key = `${SILENT_PREFIX}${since}`;
    const content = JSON.stringify({ kind: DetectedKind.silent, since, allowedMinutes: Math.round(allowed / 60_000) } satisfies EventContent);
    const res = await db
      .insertInto('events')
      .values({ device_id: Number(r.id), type: EventType.Device, happen_time: since + allowed, content, dedup_key: key })
      .onConflict(keyedEvent)
      .returning('id')
      .executeTakeFirst();
    if (res) {
      made += 1;
      announceEvents([{ eventId: Number(res.id), deviceId: Number(r.id), type: EventType.Device, happenTime: since + allowed }]);
    }
  }
  return made;
}

/** A device's status was set from `from` to `to` (a person's action: no key). */
export async function recordStatusEvent(db: Kysely<Database>, deviceId: number, from: number, to: number, at: number): Promise<void> {
  const content: EventContent = { kind: DetectedKind.status, from, to };
  const r = await db.insertInto('events').values({ device_id: deviceId, type: EventType.Device, happen_time: at, content: JSON.stringify(content) }).returning('id').executeTakeFirstOrThrow();
  announceEvents([{ eventId: Number(r.id), deviceId, type: EventType.Device, happenTime: at }]);
}
