import type SQLite from 'better-sqlite3';
import { type Kysely, type OnConflictBuilder, sql } from 'kysely';
import { DeviceType, type EventContent, EventType, LINK_RULE } from '@wildtrack/contract';
import { announceEvents, type DeviceBefore, type DeviceEvent, DetectedKind, SILENT_PREFIX, silentAfterMs, type StoredEvent } from '../domain/device-events.js';
import type { Database } from './schema.js';

/**
 * The writes of the events the server detects about a device (the rules: domain/device-events.ts), on a
 * Kysely handle and as prepared statements for ingest's synchronous better-sqlite3 transaction.
 */

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

/** The upsert's target: the unique index of keyed events (device, key), which holds only rows with a key. */
const keyedEvent = (oc: OnConflictBuilder<Database, 'events'>) => oc.columns(['device_id', 'dedup_key']).where('dedup_key', 'is not', null).doNothing();

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
