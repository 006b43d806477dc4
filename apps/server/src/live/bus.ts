import { Listeners } from '../lib/listeners.js';
import { newClient } from '../shared-state/redis.js';

/**
 * Where live messages about fixes and sign-outs travel between server processes, and the bounded recent
 * log that a reconnecting console catches up from. In memory for one process; with REDIS_URL a Redis stream
 * (XADD … MAXLEN, the log every process reads) and a pub/sub channel (every process hears each entry once).
 *
 * Events and notices do not travel here: their tables are their log, and every process reads new rows
 * itself (hub.ts), so they survive a restart without Redis too.
 */

/** What a fix message is routed by, and what it says. */
export interface FixEntry {
  deviceId: number;
  orgId: number;
  samples: boolean;
  imei: string;
  time: number;
  lon: number | null;
  lat: number | null;
}

/** One entry of the bus: a fix (with its log id), a signed-out session whose streams close, or devices whose shares ended or changed. */
export type BusEntry = { kind: 'fix'; id: string; fix: FixEntry } | { kind: 'signOut'; sessionId: number } | { kind: 'access'; deviceIds: number[] };

/** Entries kept for catching up: a console away longer than this many batches reads its last positions again. */
export const FIX_LOG_SIZE = 1000;

export interface LiveBus {
  readonly kind: 'memory' | 'redis';
  /** Appends a fix to the log and hands it to every process (this one too). */
  publishFix(fix: FixEntry): Promise<void>;
  publishSignOut(sessionId: number): Promise<void>;
  /** Shares of these devices ended or changed: every process tells the streams of their recipients. */
  publishAccess(deviceIds: readonly number[]): Promise<void>;
  /** The id of the newest entry of the log (what a first connect starts after). */
  head(): Promise<string>;
  /** The fixes logged after `id`, oldest first; null when the log no longer holds `id` (what was missed is lost). */
  after(id: string): Promise<{ id: string; fix: FixEntry }[] | null>;
  /** Adds a handler told every entry as it arrives, in this process (one failing does not stop the others); returns its removal. */
  listen(handler: (entry: BusEntry) => void): () => void;
  close(): Promise<void>;
}

/** One process: a ring of the last FIX_LOG_SIZE fixes. Ids name this process's start, so ids of an earlier run are not found. */
export class MemoryBus implements LiveBus {
  readonly kind = 'memory';
  // Date.now() names this run (unique between starts), not a time: a fixed clock (lib/clock.ts) would repeat it.
  private readonly run = Date.now().toString(36);
  private seq = 0;
  private readonly log: { id: string; fix: FixEntry }[] = [];
  private readonly handlers = new Listeners<[BusEntry]>('a live bus entry');

  async publishFix(fix: FixEntry): Promise<void> {
    const entry = { id: `${this.run}-${++this.seq}`, fix };
    this.log.push(entry);
    if (this.log.length > FIX_LOG_SIZE) this.log.splice(0, this.log.length - FIX_LOG_SIZE);
    this.emit({ kind: 'fix', ...entry });
  }

  async publishSignOut(sessionId: number): Promise<void> {
    this.emit({ kind: 'signOut', sessionId });
  }

  async publishAccess(deviceIds: readonly number[]): Promise<void> {
    this.emit({ kind: 'access', deviceIds: [...deviceIds] });
  }

  async head(): Promise<string> {
    return `${this.run}-${this.seq}`;
  }

  async after(id: string): Promise<{ id: string; fix: FixEntry }[] | null> {
    const [run, seqText] = id.split('-');
    const seq = Number(seqText);
    if (run !== this.run || !Number.isSafeInteger(seq) || seq > this.seq) return null;
    const oldest = this.seq - this.log.length;
    if (seq < oldest) return null;
    return this.log.slice(seq - oldest);
  }

  listen(handler: (entry: BusEntry) => void): () => void {
    return this.handlers.add(handler);
  }

  private emit(entry: BusEntry): void {
    this.handlers.emit(entry);
  }

  async close(): Promise<void> {}
}

type Client = ReturnType<typeof newClient>;

/** Several processes: a Redis stream as the log, a channel to hear each new entry. */
export class RedisBus implements LiveBus {
  readonly kind = 'redis';
  private readonly handlers = new Listeners<[BusEntry]>('a live bus entry');

  private constructor(
    private readonly client: Client,
    private readonly sub: Client,
    private readonly stream: string,
    private readonly channel: string,
  ) {}

  static async connect(url: string, prefix: string): Promise<RedisBus> {
    const client = newClient(url, { connected: false });
    await client.connect();
    const sub = client.duplicate();
    sub.on('error', () => {});
    await sub.connect();
    const bus = new RedisBus(client, sub, `${prefix}live:fixes`, `${prefix}live:bus`);
    await sub.subscribe(bus.channel, (text) => {
      let entry: BusEntry;
      try {
        entry = JSON.parse(text) as BusEntry;
      } catch {
        return;
      }
      bus.handlers.emit(entry);
    });
    return bus;
  }

  async publishFix(fix: FixEntry): Promise<void> {
    const id = await this.client.xAdd(this.stream, '*', { f: JSON.stringify(fix) }, { TRIM: { strategy: 'MAXLEN', threshold: FIX_LOG_SIZE } });
    await this.client.publish(this.channel, JSON.stringify({ kind: 'fix', id, fix } satisfies BusEntry));
  }

  async publishSignOut(sessionId: number): Promise<void> {
    await this.client.publish(this.channel, JSON.stringify({ kind: 'signOut', sessionId } satisfies BusEntry));
  }

  async publishAccess(deviceIds: readonly number[]): Promise<void> {
    await this.client.publish(this.channel, JSON.stringify({ kind: 'access', deviceIds: [...deviceIds] } satisfies BusEntry));
  }

  async head(): Promise<string> {
    const last = await this.client.xRevRange(this.stream, '+', '-', { COUNT: 1 });
    return last?.[0]?.id ?? '0-0';
  }

  async after(id: string): Promise<{ id: string; fix: FixEntry }[] | null> {
    if (!/^\d+-\d+$/.test(id)) return null;
    if (id !== '0-0') {
      // The entry itself must still be there: otherwise entries after it may have been trimmed too.
      const self = await this.client.xRange(this.stream, id, id);
      if (!self || self.length === 0) return null;
    } else if ((await this.client.xLen(this.stream)) >= FIX_LOG_SIZE) return null;
    const rows = await this.client.xRange(this.stream, `(${id}`, '+');
    return (rows ?? []).map((r) => ({ id: r.id, fix: JSON.parse(String(r.message.f)) as FixEntry }));
  }

  listen(handler: (entry: BusEntry) => void): () => void {
    return this.handlers.add(handler);
  }

  async close(): Promise<void> {
    for (const c of [this.sub, this.client]) {
      if (c.isOpen) await c.close().catch(() => c.destroy());
      else c.destroy();
    }
  }
}

export async function openLiveBus(opts: { redisUrl?: string | undefined; redisPrefix: string }): Promise<LiveBus> {
  return opts.redisUrl ? RedisBus.connect(opts.redisUrl, opts.redisPrefix) : new MemoryBus();
}
