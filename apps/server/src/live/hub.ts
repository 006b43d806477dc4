import type { ServerResponse } from 'node:http';
import { LIVE_HEARTBEAT_MS, type LiveMessage, type LiveQuery } from '@wildtrack/contract';
import type { SessionInfo } from '../http/caller.js';
import { type DeviceRef, mayReadRecord } from '../modules/device/access.js';
import type { BusEntry, FixEntry, LiveBus } from './bus.js';
import type { EventRow, LiveRepository, ReaderState } from './repository.js';
import { now as clockNow } from '../lib/clock.js';

/** How often (at least; on a heartbeat) a connected console's access (shares, experience switch, session) is read again. */
export const READER_REFRESH_MS = 30_000;
/** How often each process reads the events written since it last looked (by any writer, in any process). */
export const EVENT_POLL_MS = 1_000;
/** Bytes a slow console may have waiting; beyond, its stream is closed (it reconnects and catches up). */
export const MAX_BUFFERED_BYTES = 256 * 1024;
/** Most missed events replayed on a reconnect; more and the console reads its lists again (resync). */
export const CATCH_UP_MAX = 500;
/** How long an event id skipped over is looked for (PostgreSQL may commit a lower id after a higher one). */
const GAP_WAIT_MS = 30_000;

/** The device a message is about, for deciding its readers. */
type DeviceScope = DeviceRef;

/** When the record a message tells of was taken (an event's happen time, a fix's time): a share's window bounds it. */
function recordTime(msg: LiveMessage): number | null {
  return msg.type === 'event' ? msg.happenTime : msg.type === 'fix' ? msg.time : null;
}

/**
 * Whether an event of this type on this device is delivered to the user (EventSubscribe, §3): the event
 * list's owner (N1) supplies it; every event is delivered until then.
 */
export type EventFilter = (userId: number, deviceId: number, eventType: number) => boolean | Promise<boolean>;

/** One open stream of one signed-in console. */
class LiveConnection {
  private reader: ReaderState;
  private readonly recent = new Set<string>();
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;
  /** Messages that arrive while the catch-up is read; sent after it, without the ones it already sent. */
  private held: { msg: LiveMessage; scope: DeviceScope | null }[] | null = [];

  constructor(
    readonly session: SessionInfo,
    private readonly res: ServerResponse,
    reader: ReaderState,
    private readonly hub: LiveHub,
    /** A message's `data:` text: its JSON, or (the field cipher) its JSON encrypted for the stream's request. */
    private readonly dataOf: (msg: LiveMessage) => string = (msg) => JSON.stringify(msg),
  ) {
    this.reader = reader;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  start(): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
    });
    // A comment first, so that proxies and the browser see the stream open at once.
    this.res.write(': open\n\n');
    // The beat and the refresh are intervals of elapsed time (performance.now), not the server's clock (lib/clock.ts).
    let refreshed = performance.now();
    let beat = performance.now();
    // A beat at least every LIVE_HEARTBEAT_MS; the access read again every READER_REFRESH_MS (10 s ticks).
    this.heartbeat = setInterval(() => {
      const now = performance.now();
      if (now - beat >= LIVE_HEARTBEAT_MS - 1_000) {
        beat = now;
        this.write(': beat\n\n');
      }
      if (now - refreshed >= READER_REFRESH_MS - 1_000) {
        refreshed = now;
        void this.refresh();
      }
    }, 10_000);
    this.heartbeat.unref();
    // The console went away: the connection is dropped, not kept alive for another request.
    this.res.on('close', () => this.close(true));
  }

  /** Whether the access last read holds a share of one of these devices. */
  holdsShareOf(deviceIds: ReadonlySet<number>): boolean {
    return this.reader.shares.some((s) => deviceIds.has(s.deviceId));
  }

  /** Reads the access again: a share revoked or a sign-out elsewhere is noticed within READER_REFRESH_MS. */
  async refresh(): Promise<void> {
    try {
      this.reader = await this.hub.readerOf(this.session);
      if (!this.reader.alive) this.close();
    } catch {
      // the database did not answer: keep the last known access until the next refresh
    }
  }

  /**
   * Whether the user may read a record of the device taken at `time` now: the read rule of every call
   * (modules/device/access.ts mayReadRecord) on the access last read (READER_REFRESH_MS).
   */
  mayRead(scope: DeviceScope, time: number, now = clockNow()): boolean {
    return mayReadRecord(scope, { orgId: this.session.orgId, experience: this.reader.experience, shares: this.reader.shares }, now, time);
  }

  offer(msg: LiveMessage, scope: DeviceScope | null): void {
    if (this.closed) return;
    if (this.held) {
      this.held.push({ msg, scope });
      return;
    }
    this.deliver(msg, scope);
  }

  deliver(msg: LiveMessage, scope: DeviceScope | null): void {
    if (scope && !this.mayRead(scope, recordTime(msg) ?? clockNow())) return;
    // An event or notice both replayed and read by the tail goes out once.
    if (msg.type === 'event' || msg.type === 'notice') {
      if (this.recent.has(msg.id)) return;
      this.recent.add(msg.id);
      if (this.recent.size > 2 * CATCH_UP_MAX) this.recent.delete(this.recent.values().next().value!);
    }
    this.write(`id: ${msg.id}\ndata: ${this.dataOf(msg)}\n\n`);
  }

  /** Sends what was held during the catch-up, then delivers directly. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const h of held) this.deliver(h.msg, h.scope);
  }

  private write(text: string): void {
    if (this.closed) return;
    if (this.res.writableLength > MAX_BUFFERED_BYTES) {
      this.close();
      return;
    }
    this.res.write(text);
  }

  /** Ends the stream; `destroy` (the server is stopping) also drops the connection, which a keep-alive would hold. */
  close(destroy = false): void {
    if (!this.closed) {
      this.closed = true;
      clearInterval(this.heartbeat);
      this.hub.drop(this);
      if (!this.res.writableEnded) this.res.end();
    }
    if (destroy) this.res.destroy();
  }
}

export function eventMessage(e: EventRow): LiveMessage {
  return { type: 'event', id: `e:${e.id}`, eventId: e.id, imei: e.imei, eventType: e.type, happenTime: e.happenTime };
}

/** A notice is for a session when it is to all, or to the session's organisation and to every user of it or to the session's user. */
function noticeFor(n: { orgId: number | null; userId: number | null }, session: SessionInfo): boolean {
  return (n.orgId === null || n.orgId === session.orgId) && (n.userId === null || n.userId === session.userId);
}

function noticeMessage(id: number): LiveMessage {
  return { type: 'notice', id: `n:${id}`, noticeId: id };
}

function fixMessage(id: string, f: FixEntry): LiveMessage {
  return { type: 'fix', id: `f:${id}`, imei: f.imei, time: f.time, lon: f.lon, lat: f.lat };
}

/**
 * Live delivery in one server process (issue 15 item 5): the open consoles' streams, fed with
 * - new notices (to the user's organisation, to all, or to the user alone), read from the notices table the same way;
 * - new events, read from the events table every EVENT_POLL_MS while a console is connected (whoever wrote
 *   them, in whichever process: instruction status, fences, device events), each checked against the
 *   reader's access and subscriptions;
 * - new fixes, published by ingest through the bus (this process's and the others' with Redis);
 * - sign-outs, which close the session's streams in every process.
 */
export class LiveHub {
  private readonly connections = new Set<LiveConnection>();
  private readonly devices = new Map<number, { info: DeviceScope & { imei: string }; until: number }>();
  private eventCursor: number | null = null;
  private noticeCursor = 0;
  /** Ids skipped over by the tail (not yet committed when it read past them), and since when. */
  private readonly gaps = new Map<number, number>();
  private poller: NodeJS.Timeout | undefined;
  private polling = false;
  private eventFilter: EventFilter | undefined;

  constructor(
    private readonly repo: LiveRepository,
    readonly bus: LiveBus,
    private readonly log: { warn(obj: object, msg: string): void },
  ) {
    bus.listen((entry) => this.onBus(entry));
  }

  /**
   * Sets who gets which event types (EventSubscribe). One slot, set, not a subscriber: a filter answers
   * for each reader, and two would have to be combined by whoever sets them.
   */
  setEventFilter(filter: EventFilter): void {
    this.eventFilter = filter;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  readerOf(session: SessionInfo): Promise<ReaderState> {
    return this.repo.reader(session.sessionId, session.userId, clockNow());
  }

  /**
   * Ingest stored fixes of a device: its newest one goes to the consoles that may read it. No query but the
   * device's routing, read once per device and kept (publishing adds no query per fix, nor per batch).
   */
  fixesStored(deviceId: number, newest: { time: number; lon: number | null; lat: number | null }): void {
    void this.publishFix(deviceId, newest).catch((err: unknown) => this.log.warn({ err, deviceId }, 'live fix not published'));
  }

  private async publishFix(deviceId: number, newest: { time: number; lon: number | null; lat: number | null }): Promise<void> {
    // The routing kept 10 minutes in this process: elapsed time (performance.now), not the server's clock.
    const now = performance.now();
    let cached = this.devices.get(deviceId);
    if (!cached || cached.until < now) {
      const info = await this.repo.device(deviceId);
      if (!info) return;
      if (this.devices.size > 20_000) this.devices.clear();
      cached = { info: { deviceId, ...info }, until: now + 10 * 60_000 };
      this.devices.set(deviceId, cached);
    }
    await this.bus.publishFix({ ...cached.info, ...newest });
  }

  /**
   * Shares of these devices ended or changed (modules/share onChanged): in every process, each stream whose
   * access held one reads its access again at once and tells its console to read the tree again ('access'),
   * so a revoked device leaves an open console within a moment, not at the next refresh or navigation.
   */
  async sharesChanged(deviceIds: readonly number[]): Promise<void> {
    await this.bus.publishAccess(deviceIds);
  }

  private async accessChanged(deviceIds: readonly number[]): Promise<void> {
    const ids = new Set(deviceIds);
    for (const c of [...this.connections]) {
      if (!c.holdsShareOf(ids)) continue;
      await c.refresh();
      c.offer({ type: 'access', id: 'a:0' }, null);
    }
  }

  /** A session signed out: its streams close in every process. */
  signedOut(sessionId: number): void {
    void this.bus.publishSignOut(sessionId).catch(() => this.closeSession(sessionId));
  }

  private closeSession(sessionId: number): void {
    for (const c of [...this.connections]) if (c.session.sessionId === sessionId) c.close();
  }

  private onBus(entry: BusEntry): void {
    if (entry.kind === 'signOut') {
      this.closeSession(entry.sessionId);
      return;
    }
    if (entry.kind === 'access') {
      void this.accessChanged(entry.deviceIds).catch((err: unknown) => this.log.warn({ err }, 'live access change not told'));
      return;
    }
    const msg = fixMessage(entry.id, entry.fix);
    for (const c of this.connections) c.offer(msg, entry.fix);
  }

  /**
   * Opens a console's stream on `res` (already authenticated): replays what `query` says it missed, then
   * delivers live. Resolves once the stream is open. `dataOf` writes a message's data (encrypted by the route).
   */
  async open(session: SessionInfo, res: ServerResponse, query: LiveQuery, dataOf?: (msg: LiveMessage) => string): Promise<void> {
    const reader = await this.readerOf(session);
    const conn = new LiveConnection(session, res, reader, this, dataOf);
    this.connections.add(conn);
    await this.ensureTail();
    conn.start();
    try {
      const cursor = { event: this.eventCursor ?? 0, notice: this.noticeCursor, fix: await this.bus.head() };
      conn.deliver({ type: 'ready', id: 'r:0', cursor }, null);
      if (query.event !== undefined) await this.replayEvents(conn, query.event);
      if (query.notice !== undefined) {
        const rows = await this.repo.noticesAfter(query.notice, CATCH_UP_MAX + 1);
        if (rows.length > CATCH_UP_MAX) conn.deliver({ type: 'resync', id: 's:notice', what: 'notice' }, null);
        else for (const n of rows) if (noticeFor(n, session)) conn.deliver(noticeMessage(n.id), null);
      }
      if (query.fix !== undefined) {
        const missed = await this.bus.after(query.fix);
        if (missed === null) conn.deliver({ type: 'resync', id: 's:fix', what: 'fix' }, null);
        else for (const m of missed) conn.deliver(fixMessage(m.id, m.fix), m.fix);
      }
    } catch (err) {
      this.log.warn({ err }, 'live catch-up failed');
      conn.deliver({ type: 'resync', id: 's:event', what: 'event' }, null);
      conn.deliver({ type: 'resync', id: 's:fix', what: 'fix' }, null);
    }
    conn.release();
  }

  private async replayEvents(conn: LiveConnection, after: number): Promise<void> {
    const rows = await this.repo.eventsAfter(after, CATCH_UP_MAX + 1);
    if (rows.length > CATCH_UP_MAX) {
      conn.deliver({ type: 'resync', id: 's:event', what: 'event' }, null);
      return;
    }
    for (const e of rows) if (await this.wants(conn, e)) conn.deliver(eventMessage(e), e);
  }

  private async wants(conn: LiveConnection, e: EventRow): Promise<boolean> {
    if (!conn.mayRead(e, e.happenTime)) return false;
    return this.eventFilter ? this.eventFilter(conn.session.userId, e.deviceId, e.type) : true;
  }

  drop(conn: LiveConnection): void {
    this.connections.delete(conn);
    if (this.connections.size === 0) this.stopTail();
  }

  private async ensureTail(): Promise<void> {
    if (this.eventCursor === null) {
      this.noticeCursor = await this.repo.maxNoticeId();
      this.eventCursor = await this.repo.maxEventId();
    }
    if (this.poller) return;
    this.poller = setInterval(() => void this.pollEvents(), EVENT_POLL_MS);
    this.poller.unref();
  }

  private stopTail(): void {
    clearInterval(this.poller);
    this.poller = undefined;
    // The next console starts from then: it replays what it missed itself, from its own cursor.
    this.eventCursor = null;
    this.gaps.clear();
  }

  /** Reads the events written since the last look and offers each to the consoles (tests call it to skip the wait). */
  async pollEvents(): Promise<void> {
    if (this.polling || this.eventCursor === null) return;
    this.polling = true;
    try {
      // How long an id gap is waited for: elapsed time (performance.now), not the server's clock.
      const now = performance.now();
      const found: EventRow[] = [];
      if (this.gaps.size > 0) {
        const late = await this.repo.eventsByIds([...this.gaps.keys()]);
        for (const e of late) this.gaps.delete(e.id);
        found.push(...late);
        for (const [id, since] of this.gaps) if (now - since > GAP_WAIT_MS) this.gaps.delete(id);
      }
      const rows = await this.repo.eventsAfter(this.eventCursor, 1000);
      for (const e of rows) {
        for (let id = this.eventCursor + 1; id < e.id && this.gaps.size < 10_000; id++) this.gaps.set(id, now);
        this.eventCursor = e.id;
        found.push(e);
      }
      for (const n of await this.repo.noticesAfter(this.noticeCursor, 1000)) {
        this.noticeCursor = n.id;
        for (const c of this.connections) if (noticeFor(n, c.session)) c.offer(noticeMessage(n.id), null);
      }
      for (const e of found) {
        const msg = eventMessage(e);
        for (const c of this.connections) {
          if (c.isClosed || !c.mayRead(e, e.happenTime)) continue;
          if (this.eventFilter && !(await this.eventFilter(c.session.userId, e.deviceId, e.type))) continue;
          c.offer(msg, e);
        }
      }
    } catch (err) {
      this.log.warn({ err }, 'live event poll failed');
    } finally {
      this.polling = false;
    }
  }

  /** Closes every stream (the server is stopping) and the bus. */
  async close(): Promise<void> {
    for (const c of [...this.connections]) c.close(true);
    this.stopTail();
    await this.bus.close();
  }
}
