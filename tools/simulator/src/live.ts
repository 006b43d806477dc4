import type { IngestAnswer, IngestBatch, InstructionFailureReason, PendingFenceRule, PendingInstruction } from '@wildtrack/contract';
import { createDevice, type DeviceSimulator, distance, getProfile, type LonLat, type MediaItem, seedFrom, splitBatch } from '@wildtrack/sample-fleet';
import { type ClientOptions, IngestClient, IngestRefused } from './client.js';

/** A device of devices.json: its credentials, profile and seed (derived from the IMEI when absent). */
export interface DeviceEntry {
  imei: string;
  secret: string;
  profile: string;
  seed?: number;
}

/**
 * A receiver station or phone of the same organisation that hears tags within `rangeKm` of where it is
 * and forwards their batches and acknowledgements (the protocol's `relay`).
 */
export interface Relay {
  imei: string;
  position: () => LonLat;
  rangeKm: number;
}

export interface LiveOptions {
  /** Relays that carry the device's batches and acks while it is out of coverage but within their range (no media). */
  relays?: readonly Relay[];
  /** Records per request, at most (default 1000). */
  maxRecords?: number;
  /** Upload photos, audio and video (default true). */
  media?: boolean;
  /** Follow the device's coverage outages: nothing sent nor fetched while out (default true). */
  coverage?: boolean;
  /** Time of an acknowledgement (default Date.now: the device's clock is the wall clock when live). */
  now?: () => number;
  log?: (msg: string) => void;
  client?: ClientOptions;
}

interface Handled {
  ok: boolean;
  message?: string;
  reason?: InstructionFailureReason;
  acked: boolean;
}

/** What one wake-up did. */
export interface WakeResult {
  covered: boolean;
  /** The relay that carried this wake-up's uploads (the device was out of coverage but in its range). */
  relay?: string;
  sent: number;
  /** Instructions applied (or refused) on this wake-up. */
  applied: { id: number; ok: boolean; message?: string; reason?: InstructionFailureReason }[];
  /** Device-side fence rules taken (or dropped) and acknowledged on this wake-up. */
  fences: { fenceId: number; version: number; removed: boolean }[];
}

/**
 * A simulated device on the ingest protocol, woken by its driver (the CLI every few seconds, a test over
 * simulated time). Each wake-up: the device takes its records up to `until`; when in coverage it sends
 * what waits, oldest first, with its work status when that changed (WorkStatusReport); every answer's
 * instructions are applied (or refused) by the device and acknowledged SUCCESSFUL or FAILED with its
 * message; device-side fence rules in an answer are taken (a removed one dropped) and acknowledged at
 * their version (POST /fence-ack), so the console shows them synchronized; through a relay they wait for
 * the device's own coverage. Out of coverage, records wait in the outbox and no instruction is fetched. What can't be sent
 * after the client's retries stays for the next wake-up (the server deduplicates what arrives twice); a
 * refused request is logged and dropped.
 */
export class LiveDevice {
  readonly sim: DeviceSimulator;
  readonly client: IngestClient;
  readonly handled = new Map<number, Handled>();
  /** The device-side fence rules the device holds, by fence (as the server last handed them). */
  readonly fences = new Map<number, PendingFenceRule>();
  private readonly outbox: { batch?: IngestBatch; media?: MediaItem }[] = [];
  /** The work status not yet reported, and when the device took it on. */
  private statusDue: number | null;
  private wasCovered = true;
  private relay: string | undefined;
  private readonly log: (msg: string) => void;

  constructor(
    readonly entry: DeviceEntry,
    server: string,
    start: number,
    private readonly opts: LiveOptions = {},
  ) {
    this.sim = createDevice(getProfile(entry.profile), { seed: entry.seed ?? seedFrom(entry.imei), start });
    this.client = new IngestClient(server, entry, opts.client);
    this.statusDue = this.sim.clock;
    this.log = opts.log ?? (() => {});
  }

  get label(): string {
    return `${this.entry.profile.padEnd(6)} ${this.entry.imei}`;
  }

  /** Records waiting to be sent (uploads the device made while out of coverage or while the server was away). */
  get queued(): number {
    return this.outbox.length;
  }

  async wake(until: number): Promise<WakeResult> {
    const { batch, media } = this.sim.advance(until);
    for (const part of splitBatch(batch, this.opts.maxRecords ?? 1000)) this.outbox.push({ batch: part });
    if (this.opts.media !== false) for (const m of media) this.outbox.push({ media: m });
    const result: WakeResult = { covered: true, sent: 0, applied: [], fences: [] };
    let relay: string | undefined;
    if (this.opts.coverage !== false && !this.sim.covered(this.sim.clock)) {
      const here = this.sim.position;
      relay = this.opts.relays?.find((r) => r.imei !== this.entry.imei && distance(here, r.position()) <= r.rangeKm * 1000)?.imei;
      if (this.wasCovered || relay !== this.relay) {
        const until = new Date(this.sim.outageEnd(this.sim.clock)!).toISOString().slice(0, 16).replace('T', ' ');
        this.log(`${this.label} out of coverage until ${until} UTC: ${relay ? `uploads and acks through ${relay} (media wait)` : 'keeping uploads, fetching no instructions'}`);
      }
      this.wasCovered = false;
      this.relay = relay;
      if (!relay) return { ...result, covered: false };
      result.covered = false;
      result.relay = relay;
    } else {
      if (!this.wasCovered) this.log(`${this.label} back in coverage with ${this.outbox.length} upload(s) waiting`);
      this.wasCovered = true;
      this.relay = undefined;
    }
    // A relay carries batches only: media wait in the outbox for the device's own coverage.
    const waiting = relay ? this.outbox.filter((o) => o.media) : [];
    if (relay) this.outbox.splice(0, this.outbox.length, ...this.outbox.filter((o) => o.batch));
    // What waits, oldest first; then, if the status changed and no batch carried it (nothing waited, or an
    // instruction was applied on the way), a batch with the status alone, in the same wake-up.
    for (let statusOnly = 0; ; ) {
      if (this.outbox.length === 0) {
        if (this.statusDue === null || statusOnly++ >= 3) break;
        this.outbox.push({ batch: {} });
      }
      const item = this.outbox[0]!;
      try {
        let answer: IngestAnswer;
        if (item.batch) {
          const report = this.statusDue === null ? {} : { workStatus: { at: this.statusDue, settings: this.sim.workStatus } };
          answer = await this.client.sendBatch({ ...item.batch, ...report, ...(relay ? { relay } : {}) });
          this.statusDue = null;
          const p = item.batch;
          const k = answer.accepted;
          const field = (p.pois?.length ?? 0) + (p.behaviors?.length ?? 0);
          this.log(
            `${this.label} +${p.fixes?.t.length ?? 0} fixes +${(p.sensors ?? []).reduce((n, s) => n + s.t.length, 0)} sensor +${p.bursts?.length ?? 0} bursts${field ? ` +${field} field records` : ''}${'workStatus' in report ? ' +work status' : ''} -> accepted ${k.fixes}/${k.sensors}/${k.bursts}${field ? `/${(k.pois ?? 0) + (k.behaviors ?? 0)}` : ''}, ${answer.duplicates} duplicates`,
          );
        } else {
          answer = await this.client.sendMedia(item.media!);
          this.log(`${this.label} +${item.media!.kind} ${item.media!.body.length} B -> accepted ${answer.accepted.media}`);
        }
        this.outbox.shift();
        result.sent++;
        result.applied.push(...(await this.obey(answer.instructions, relay)));
        if (answer.fenceRules && !relay) result.fences.push(...(await this.takeFences(answer.fenceRules)));
      } catch (e) {
        if (!(e instanceof IngestRefused)) {
          this.log(`${this.label} ${(e as Error).message}; ${this.outbox.length} upload(s) kept for the next wake-up`);
          this.outbox.push(...waiting);
          return result;
        }
        this.log(`${this.label} refused, dropped: ${e.message}`);
        this.outbox.shift();
        if (item.batch && Object.keys(item.batch).length === 0) this.statusDue = null;
      }
    }
    this.outbox.push(...waiting);
    return result;
  }

  /** Applies each new instruction once (at the device's clock) and acknowledges it until the server has the answer. */
  private async obey(instructions: PendingInstruction[], relay: string | undefined): Promise<WakeResult['applied']> {
    const applied: WakeResult['applied'] = [];
    for (const ins of instructions) {
      let h = this.handled.get(ins.id);
      if (!h) {
        const r = this.sim.applyInstruction(ins);
        h = { ...r, acked: false };
        this.handled.set(ins.id, h);
        applied.push({ id: ins.id, ...r });
        if (r.ok) this.statusDue = this.sim.clock;
        const sch = this.sim.schedule.describe;
        this.log(`${this.label} instruction ${ins.id} ${ins.type} ${JSON.stringify(ins.params)} (${ins.timeZone}): ${r.ok ? 'applied' : 'failed'}${r.message ? ` (${r.message})` : ''}; fixes ${sch.fix}, upload ${sch.postback}, acc ${sch.acc}`);
      }
      if (h.acked) continue;
      try {
        await this.client.ack({ id: ins.id, outcome: h.ok ? 'SUCCESSFUL' : 'FAILED', executedAt: (this.opts.now ?? Date.now)(), ...(h.message ? { message: h.message } : {}), ...(h.reason ? { reason: h.reason } : {}), ...(relay ? { relay } : {}) });
        h.acked = true;
      } catch (e) {
        if (e instanceof IngestRefused) {
          h.acked = true;
          this.log(`${this.label} ack of ${ins.id} refused: ${e.message}`);
        } else this.log(`${this.label} ack of ${ins.id} failed, will retry: ${(e as Error).message}`);
      }
    }
    return applied;
  }

  /**
   * Takes each device-side fence rule of an answer (a removed one is dropped) and acknowledges its version.
   * A version the server no longer waits for (the fence changed again) is refused: the next answer carries
   * the newer one. A network failure leaves it for the next answer, which carries it again.
   */
  private async takeFences(rules: PendingFenceRule[]): Promise<WakeResult['fences']> {
    const taken: WakeResult['fences'] = [];
    for (const rule of rules) {
      if (rule.removed) this.fences.delete(rule.fenceId);
      else this.fences.set(rule.fenceId, rule);
      try {
        await this.client.ackFence({ fenceId: rule.fenceId, version: rule.version });
        taken.push({ fenceId: rule.fenceId, version: rule.version, removed: rule.removed });
        this.log(`${this.label} fence ${rule.fenceId} v${rule.version} ${rule.removed ? 'dropped' : `taken (${rule.inOrOut}, ${rule.instrs.length} instruction(s))`}, acknowledged`);
      } catch (e) {
        this.log(`${this.label} fence ${rule.fenceId} v${rule.version} acknowledgement ${e instanceof IngestRefused ? 'refused' : 'failed'}: ${(e as Error).message}`);
      }
    }
    return taken;
  }
}
