import {
  type calls,
  Code,
  type Event,
  EventContentSchema,
  type EventSubscribe,
  EventType,
  formatTime,
  INSTRUCTION_FAILURE_REASONS,
  type Lang,
  message,
} from '@wildtrack/contract';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.js';
import { optionalRange } from '../../http/range.js';
import { AppError } from '../../http/errors.js';
import { ALL_TIME, clampToWindow, type WindowOfAccess } from '../device/access.js';
import type { DeviceGate } from '../device/gate.js';
import { captionFor } from '../device/samples.js';
import type { EventQuery, EventRepository, EventRow, SubscriptionRow } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

type CountBody = z.output<typeof calls.GetEventCount.body>;
type ListBody = z.output<typeof calls.GetEventListByPage.body>;
type SubscribeBody = z.output<typeof calls.SetEventSubscribe.body>;

interface Readable {
  id: number;
  imei: string;
  caption: string;
  access: WindowOfAccess;
}

/** A gap in words: "3 h 20 min" / "20 min". */
function gapText(ms: number, lang: Lang): string {
  const total = Math.max(0, Math.round(ms / 60_000));
  const hours = Math.floor(total / 60);
  const minutes = total % 60;
  return hours > 0 ? message(lang, 'event.gap.hours', { hours, minutes }) : message(lang, 'event.gap.minutes', { minutes });
}

/** An event's Title and Content in the reader's language and zone, from its stored content (the message's parameters). */
export function describeEvent(type: number, content: string, device: string, lang: Lang, zone: string): { Title: string; Content: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    raw = null;
  }
  if (type === EventType.Instr && raw && typeof raw === 'object' && 'status' in raw) {
    const c = raw as { instrType?: string; status?: string; error?: string; reason?: string };
    const status = message(lang, `instr.status.${c.status}`);
    // The device's error is its own free text (its firmware's language): the reason it gave is said in the
    // reader's language, and the text follows as the device said it.
    const reason = (INSTRUCTION_FAILURE_REASONS as readonly string[]).includes(c.reason ?? '') ? message(lang, `instr.failure.${c.reason}`) : undefined;
    return {
      Title: message(lang, 'instr.event.title', { device, type: message(lang, `instr.type.${c.instrType}`), status }),
      Content: reason
        ? message(lang, 'instr.event.failedReason', { detail: status, reason, error: c.error || '-' })
        : c.error
          ? message(lang, 'instr.event.failed', { detail: status, error: c.error })
          : status,
    };
  }
  const parsed = EventContentSchema.safeParse(raw);
  if (!parsed.success) return { Title: message(lang, 'event.unknown.title'), Content: '' };
  const c = parsed.data;
  const params: Record<string, string | number> = { device };
  if (c.kind === 'fenceEntered' || c.kind === 'fenceLeft') params.fence = c.fence;
  else if (c.kind === 'resumed') params.gap = gapText(c.first - c.since, lang);
  else if (c.kind === 'batteryLow') params.percent = Math.round(c.percent);
  else if (c.kind === 'silent') params.time = formatTime(c.since, zone);
  else if (c.kind === 'status') {
    params.from = message(lang, `deviceStatus.${c.from}`);
    params.to = message(lang, `deviceStatus.${c.to}`);
  }
  return { Title: message(lang, `event.${c.kind}.title`), Content: message(lang, `event.${c.kind}.content`, params) };
}

const ON = { fence_event: 1, instr_event: 1, fix_update_event: 1 };

/**
 * Events for their readers (§3 Event, EventSubscribe; §7.2 Event/*): the list and count over the devices the
 * caller can read now (a share's only inside its window; an expired share none), read state per user, and
 * each user's subscriptions (which events are delivered to them; the list shows all). Events are written by
 * others (instructions, ingest, detection, fences); this module only reads them.
 */
export class EventService {
  constructor(
    private readonly devices: DeviceGate,
    private readonly repo: EventRepository,
  ) {}

  /** The devices the call reads: the one named (refused like any device call when unseen) or all the caller can read. */
  private async scope(caller: Caller, imei: string | undefined): Promise<Readable[]> {
    if (imei === undefined) return this.devices.readable(caller);
    const d = await this.devices.resolve(caller, imei);
    return [{ id: Number(d.id), imei: d.imei, caption: captionFor(d.imei, d.caption, d.access.kind === 'example', caller.lang), access: d.access }];
  }

  private query(caller: Caller, devices: Readable[], f: { eventType?: number | undefined; viewed?: 0 | 1 | undefined; startTime?: string | undefined; endTime?: string | undefined }): EventQuery {
    const { from, to } = optionalRange(caller, f);
    const shared = devices.filter((d) => d.access.kind === 'shared');
    return {
      userId: caller.session.userId,
      deviceIds: devices.filter((d) => d.access.kind !== 'shared').map((d) => d.id),
      windows: shared.map((d) => ({ deviceId: d.id, ...clampToWindow(ALL_TIME, d.access) })),
      type: f.eventType,
      from,
      to,
      viewed: f.viewed,
    };
  }

  async count(caller: Caller, body: CountBody): Promise<number> {
    return this.repo.count(this.query(caller, await this.scope(caller, body.imei), body));
  }

  async page(caller: Caller, body: ListBody): Promise<{ List: Event[]; Total: number }> {
    const devices = await this.scope(caller, body.imei);
    const q = this.query(caller, devices, body);
    const [rows, total] = await Promise.all([this.repo.page(q, (body.currentPage - 1) * body.pageSize, body.pageSize), this.repo.count(q)]);
    const byId = new Map(devices.map((d) => [d.id, d]));
    return { List: rows.map((r) => this.record(r, byId.get(r.device_id), caller)), Total: total };
  }

  private record(r: EventRow, d: Readable | undefined, caller: Caller): Event {
    const caption = d?.caption || d?.imei || '';
    return {
      Id: r.id,
      IdStr: String(r.id),
      IMEI: d?.imei ?? '',
      Caption: caption,
      Type: r.type,
      HappenTime: formatTime(r.happen_time, caller.zone),
      ...describeEvent(r.type, r.content, caption, caller.lang, caller.zone),
      Viewed: r.viewed === 0 ? 0 : 1,
    };
  }

  /** Marks these events read for the caller; any the caller can't read refuses the call (nothing marked). */
  async viewed(caller: Caller, idStrs: readonly string[], now = clockNow()): Promise<void> {
    const ids = [...new Set(idStrs.map(Number))];
    const q = this.query(caller, await this.devices.readable(caller), {});
    const readable = await this.repo.readableIds(q, ids);
    if (readable.length !== ids.length) throw new AppError(Code.NotFound, 'event.notFound');
    await this.repo.markViewed(caller.session.userId, ids, now);
  }

  async viewedAll(caller: Caller, body: { imei?: string | undefined; eventType?: number | undefined }, now = clockNow()): Promise<number> {
    return this.repo.markAllViewed(this.query(caller, await this.scope(caller, body.imei), { eventType: body.eventType }), now);
  }

  private subscribeRecord(d: Readable, s: SubscriptionRow | undefined): EventSubscribe {
    const v = s ?? { ...ON, device_id: d.id };
    return { IMEI: d.imei, Caption: d.caption || d.imei, FenceEvent: v.fence_event === 1, InstrEvent: v.instr_event === 1, FixUpdateEvent: v.fix_update_event === 1 };
  }

  async subscriptions(caller: Caller, imei: string | undefined): Promise<EventSubscribe[]> {
    const devices = await this.scope(caller, imei);
    const subs = await this.repo.subscriptions(caller.session.userId, devices.map((d) => d.id));
    return devices.map((d) => this.subscribeRecord(d, subs.get(d.id)));
  }

  /** Sets the caller's subscription of a device they can read (their own setting; examples included). */
  async subscribe(caller: Caller, body: SubscribeBody): Promise<EventSubscribe> {
    const [d] = await this.scope(caller, body.imei);
    const row: SubscriptionRow = { device_id: d!.id, fence_event: body.FenceEvent ? 1 : 0, instr_event: body.InstrEvent ? 1 : 0, fix_update_event: body.FixUpdateEvent ? 1 : 0 };
    await this.repo.subscribe(caller.session.userId, row);
    return this.subscribeRecord(d!, row);
  }

  /**
   * Whether a user wants an event of this type of this device delivered (live, e-mail): their subscription,
   * all on without one; Device and Unknown events have no switch and are always delivered. Whether the user
   * may read the device is the deliverer's check.
   */
  async wants(userId: number, deviceId: number, type: number): Promise<boolean> {
    if (type !== EventType.Fence && type !== EventType.Instr && type !== EventType.FixUpdate) return true;
    const s = (await this.repo.subscriptions(userId, [deviceId])).get(deviceId);
    if (!s) return true;
    return (type === EventType.Fence ? s.fence_event : type === EventType.Instr ? s.instr_event : s.fix_update_event) === 1;
  }
}
