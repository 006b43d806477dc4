import type { FastifyBaseLogger } from 'fastify';
import Flatbush from 'flatbush';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type FenceShape, type InOrOut, type InstructionParams, InstructionParamsSchema } from '@wildtrack/contract';
import type { InBatch } from '../../ingest/batch-repository.js';
import { type CompiledShape, compile, contains } from './geometry.js';
import type { FenceRepository, StateMove } from './repository.js';

/** A fix as ingest decoded it. */
export interface FixPoint {
  pick_time: number;
  lon: number | null;
  lat: number | null;
  valid: number;
}

/** A rule fired: the device crossed the fence in a direction its rule names. */
export interface Crossing {
  deviceId: number;
  fenceId: number;
  label: string;
  entered: boolean;
  /** The time of the fix that crossed. */
  at: number;
  /** The rule sends its instructions (AllowSendInstr). */
  sendInstr: boolean;
  instrs: InstructionParams[];
  timeZone: string;
}

interface LiveFence {
  id: number;
  label: string;
  shape: CompiledShape;
  inOrOut: InOrOut;
  sendInstr: boolean;
  instrs: InstructionParams[];
  timeZone: string;
}

interface Index {
  tree: Flatbush | null;
  fences: LiveFence[];
  /** The fences' boxes, 4 numbers each (minLng, minLat, maxLng, maxLat), in `fences` order. */
  boxes: Float64Array;
  /** Device id → indexes into `fences` of its remote rules. */
  byDevice: Map<number, number[]>;
}

/** How often the index asks whether fences changed in another process (one cheap query). */
const REFRESH_MS = 5_000;
/** How often a device's newer times on unchanged sides are written (see FenceEvaluator.states). */
const FLUSH_MS = 60_000;

interface KnownState {
  inside: number;
  fix_time: number;
  db_time: number;
}

interface DeviceStates {
  /** When the device's unchanged sides' newer times were last written. */
  flushed: number;
  fences: Map<number, KnownState>;
}

/** The fence part of a batch (IngestService's FencePlanner). */
export type FencePlan = InBatch & {
  /** After the batch committed: the rules of the crossings it stored fire. */
  committed(): Promise<void>;
  /** The batch failed (rolled back): what this process knew of the device's states is dropped. */
  failed(): void;
};

function fires(rule: InOrOut, entered: boolean): boolean {
  return rule === 'BOTH' || (rule === 'ENTER') === entered;
}

/**
 * Evaluates each new batch of a device's fixes against its enabled remote fences (issue 15 item 2).
 *
 * The fences are held in memory: a Flatbush index over their bounding boxes (a fix's candidates are the
 * boxes holding it), then point-in-polygon or haversine for circles. The index is rebuilt when the fences'
 * generation moves (a change in this process invalidates it at once; another process's change is seen
 * within REFRESH_MS).
 *
 * State per device and fence (fence_states): inside or outside and the time of the newest fix evaluated.
 * Only valid fixes with a position count; a fix not newer than the state's time changes nothing (a batch
 * that arrives late, a fix sent again), and the state moves forward with a conditional write, so two
 * processes never both tell one crossing. The first fix a device has in a fence's life sets its side
 * without an event; each later change of side is a crossing, stored as a Fence event (type 1, content
 * fenceEntered/fenceLeft with the fence's name) when the rule's InOrOut names that direction, in the same
 * transaction as the state: the batch's own (IngestService.writeBatch asks `plan` before it, the writes run
 * at the end of its transaction, under a savepoint so that a failure of theirs is logged and the batch
 * still stored), so a batch and its crossings commit together. The rules fire once it committed.
 */
export class FenceEvaluator {
  private index: Index | null = null;
  private generation = '';
  private checkedAt = 0;
  private loading: Promise<Index> | null = null;
  private fire: (c: Crossing) => Promise<void> = async () => {};
  /**
   * The states this process knows, per device: `fix_time` the newest fix evaluated, `db_time` the time the
   * stored row holds (every compare-and-set is on it; a failed one drops the device's states). A side that
   * changes is written at once with its event; a newer time on an unchanged side is written at most every
   * FLUSH_MS per device (`flushed`): a late fix is judged by the newest time this process knows, and by
   * the stored one in another process or after a restart.
   */
  private readonly states = new Map<number, DeviceStates>();

  constructor(
    private readonly repo: FenceRepository,
    private readonly refreshMs = REFRESH_MS,
    private readonly log?: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  /** What to do when a rule fires (send its instructions); its failure is logged by the caller, never thrown here. */
  onCrossing(fire: (c: Crossing) => Promise<void>): void {
    this.fire = fire;
  }

  /** Fences changed in this process: the next batch reloads the index. */
  invalidate(): void {
    this.checkedAt = 0;
    this.generation = '';
    this.states.clear();
  }

  private async current(now: number): Promise<Index> {
    if (this.index && now - this.checkedAt < this.refreshMs) return this.index;
    this.loading ??= (async () => {
      try {
        const gen = await this.repo.generation();
        if (!this.index || gen !== this.generation) {
          this.index = await this.build();
          this.generation = gen;
          // a fence changed (its states were cleared or rewritten): read them again
          this.states.clear();
        }
        this.checkedAt = Date.now();
        return this.index;
      } finally {
        this.loading = null;
      }
    })();
    return this.loading;
  }

  private async build(): Promise<Index> {
    const { fences, rules } = await this.repo.liveFences();
    const live: LiveFence[] = [];
    const at = new Map<number, number>();
    const boxes: [number, number, number, number][] = [];
    for (const f of fences) {
      // Stored by FenceService from checked shapes: read as they are (a schema check of 5,000 rings of 200
      // vertices took seconds); the instructions, read only when a rule sends them, are checked.
      const shape = JSON.parse(f.shape) as FenceShape;
      if (shape.Type !== 'Polygon' && shape.Type !== 'Circle') continue;
      const instrs = f.allow_send_instr === 1 ? InstructionParamsSchema.array().safeParse(JSON.parse(f.instrs)) : null;
      at.set(f.id, live.length);
      live.push({ id: f.id, label: f.label, shape: compile(shape), inOrOut: f.in_or_out as InOrOut, sendInstr: f.allow_send_instr === 1, instrs: instrs?.success ? instrs.data : [], timeZone: f.time_zone });
      boxes.push([f.min_lng, f.min_lat, f.max_lng, f.max_lat]);
    }
    let tree: Flatbush | null = null;
    const flat = new Float64Array(boxes.length * 4);
    boxes.forEach((b, i) => flat.set(b, i * 4));
    if (live.length > 0) {
      tree = new Flatbush(live.length);
      for (const b of boxes) tree.add(b[0], b[1], b[2], b[3]);
      tree.finish();
    }
    const byDevice = new Map<number, number[]>();
    for (const r of rules) {
      const i = at.get(r.fence_id);
      if (i === undefined) continue;
      const list = byDevice.get(r.device_id);
      if (list) list.push(i);
      else byDevice.set(r.device_id, [i]);
    }
    return { tree, fences: live, boxes: flat, byDevice };
  }

  /**
   * The fence part of a device's batch: null when the device has no remote rule or the batch no valid fix
   * with a position; else the writes to do in the batch's transaction (the states that move and their
   * events, compare-and-set), then `committed()` fires the rules of the crossings stored, or `failed()`
   * forgets what this process thought it knew of the device.
   */
  plan(deviceId: number, fixes: readonly FixPoint[], now = Date.now()): FencePlan | null | Promise<FencePlan | null> {
    // Synchronous while the index is current (every batch but one each REFRESH_MS): no promise per batch.
    if (this.index && now - this.checkedAt < this.refreshMs) return this.planOn(this.index, deviceId, fixes);
    return this.current(now).then((index) => this.planOn(index, deviceId, fixes));
  }

  private planOn(index: Index, deviceId: number, fixes: readonly FixPoint[]): FencePlan | null {
    const mine = index.byDevice.get(deviceId);
    if (!mine || !index.tree) return null;
    const valid = fixes.filter((f) => f.valid === 1 && f.lon !== null && f.lat !== null).sort((a, b) => a.pick_time - b.pick_time);
    if (valid.length === 0) return null;
    // The fences whose box meets the batch's box, by one search of the index; then each fix against a
    // candidate's own box before the exact test.
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const f of valid) {
      if (f.lon! < x0) x0 = f.lon!;
      if (f.lon! > x1) x1 = f.lon!;
      if (f.lat! < y0) y0 = f.lat!;
      if (f.lat! > y1) y1 = f.lat!;
    }
    return new BatchPlan(this, this.repo, deviceId, { index, mine, deviceId, valid, candidates: new Set(index.tree.search(x0, y0, x1, y1)) });
  }

  /** The states this process knows of the device, or none (read them). */
  known(deviceId: number): DeviceStates | undefined {
    return this.states.get(deviceId);
  }

  /** The device's states as read from the database, remembered. */
  remember(deviceId: number, read: Map<number, { inside: number; fix_time: number }>): DeviceStates {
    const known = { flushed: Date.now(), fences: new Map([...read].map(([id, st]) => [id, { ...st, db_time: st.fix_time }])) };
    if (this.states.size > 100_000) this.states.clear();
    this.states.set(deviceId, known);
    return known;
  }

  /** What this process knew of the device's states may be wrong: read them again next time. */
  forget(deviceId: number): void {
    this.states.delete(deviceId);
  }

  failure(err: unknown, deviceId: number): void {
    this.log?.error({ err, deviceId }, 'fence evaluation failed');
  }

  /** A rule fired: its instructions sent (a failure logged). */
  async fired(c: Crossing): Promise<void> {
    if (!c.sendInstr || c.instrs.length === 0) return;
    try {
      await this.fire(c);
    } catch (err) {
      this.log?.error({ err, deviceId: c.deviceId, fenceId: c.fenceId }, 'fence rule fired: sending its instructions failed');
    }
  }
}

/** A batch as `judge` reads it: the device's fences, its valid fixes in time order, the fences whose box meets the batch's. */
interface Judge {
  index: Index;
  mine: number[];
  deviceId: number;
  valid: FixPoint[];
  candidates: Set<number>;
}

/** The states' moves and the crossings a batch makes from the states known. */
function judge({ index, mine, deviceId, valid, candidates }: Judge, states: Map<number, KnownState>) {
  const updates: StateMove[] = [];
  const crossings = new Map<number, Crossing[]>();
  const b = index.boxes;
  const last = valid[valid.length - 1]!.pick_time;
  for (const i of mine) {
    const fence = index.fences[i]!;
    const st = states.get(fence.id);
    let side: number | null = st ? st.inside : null;
    let time = st ? st.fix_time : -Infinity;
    if (last <= time) continue;
    const events: { at: number; content: string }[] = [];
    const crossed: Crossing[] = [];
    // a fence whose box the batch's box does not meet: every fix is outside, only the first new one can cross
    const candidate = candidates.has(i);
    for (const fix of valid) {
      if (fix.pick_time <= time) continue;
      const lng = fix.lon!, lat = fix.lat!;
      const inBox = candidate && lng >= b[4 * i]! && lat >= b[4 * i + 1]! && lng <= b[4 * i + 2]! && lat <= b[4 * i + 3]!;
      const inside = inBox && contains(fence.shape, lng, lat) ? 1 : 0;
      if (side !== null && inside !== side) {
        const entered = inside === 1;
        if (fires(fence.inOrOut, entered)) {
          events.push({ at: fix.pick_time, content: JSON.stringify({ kind: entered ? 'fenceEntered' : 'fenceLeft', fence: fence.label, fenceId: fence.id }) });
          crossed.push({ deviceId, fenceId: fence.id, label: fence.label, entered, at: fix.pick_time, sendInstr: fence.sendInstr, instrs: fence.instrs, timeZone: fence.timeZone });
        }
      }
      side = inside;
      time = fix.pick_time;
      if (!candidate) break;
    }
    updates.push({ fenceId: fence.id, inside: side!, fixTime: last, prevTime: st ? st.db_time : null, events });
    crossings.set(fence.id, crossed);
  }
  return { updates, crossed: crossings };
}

/**
 * One batch's part (FenceEvaluator.plan): judged against the states known, the writes done in the batch's
 * transaction as compare-and-sets; a state another process moved meanwhile is read again (the transaction
 * sees it) and what is still new judged anew, at most three tries. A class, not closures: made per batch.
 */
class BatchPlan implements FencePlan {
  private crossings: Crossing[] = [];

  constructor(
    private readonly evaluator: FenceEvaluator,
    private readonly repo: FenceRepository,
    private readonly deviceId: number,
    private readonly batch: Judge,
  ) {}

  /** What the states known call for: every move, and the writes to do now. */
  private decide(known: DeviceStates) {
    const { updates, crossed } = judge(this.batch, known.fences);
    const wall = Date.now();
    const flush = wall - known.flushed >= FLUSH_MS;
    // Written now: a side that changed (with its events) or a first side; the rest only moves the time.
    const writes = updates.filter((u) => flush || u.prevTime === null || u.events.length > 0 || known.fences.get(u.fenceId)!.inside !== u.inside);
    return { updates, crossed, writes, flush, wall };
  }

  /** The writes done (`moved`: those whose compare-and-set held) remembered; false when one did not hold. */
  private record(known: DeviceStates, d: ReturnType<BatchPlan['decide']>, moved: number[]): boolean {
    if (d.flush) known.flushed = d.wall;
    for (const u of d.updates) {
      const written = moved.includes(u.fenceId);
      const before = known.fences.get(u.fenceId);
      known.fences.set(u.fenceId, { inside: u.inside, fix_time: u.fixTime, db_time: written ? u.fixTime : (before?.db_time ?? -1) });
    }
    for (const id of moved) this.crossings.push(...(d.crossed.get(id) ?? []));
    if (moved.length === d.writes.length) return true;
    this.evaluator.forget(this.deviceId);
    return false;
  }

  sqlite(): void {
    const { evaluator, repo, deviceId } = this;
    try {
      for (let i = 0; i < 3; i++) {
        const known = evaluator.known(deviceId) ?? evaluator.remember(deviceId, repo.statesSqlite(deviceId));
        const d = this.decide(known);
        // under a savepoint: a failure leaves the batch's records and answer as they are (logged)
        if (this.record(known, d, d.writes.length > 0 ? repo.advanceSqlite(deviceId, d.writes) : [])) return;
      }
    } catch (err) {
      this.failed();
      evaluator.failure(err, deviceId);
    }
  }

  async postgres(trx: Kysely<Database>): Promise<void> {
    const { evaluator, repo, deviceId } = this;
    for (let i = 0; i < 3; i++) {
      const known = evaluator.known(deviceId) ?? evaluator.remember(deviceId, await repo.statesIn(trx, deviceId));
      const d = this.decide(known);
      let moved: number[] = [];
      if (d.writes.length > 0) {
        // a savepoint: a failure here leaves the batch's records and answer as they are (logged)
        await sql`savepoint fence_states`.execute(trx);
        try {
          moved = await repo.advanceIn(trx, deviceId, d.writes);
          await sql`release savepoint fence_states`.execute(trx);
        } catch (err) {
          await sql`rollback to savepoint fence_states`.execute(trx);
          this.failed();
          evaluator.failure(err, deviceId);
          return;
        }
      }
      if (this.record(known, d, moved)) return;
    }
  }

  async committed(): Promise<void> {
    for (const c of this.crossings) await this.evaluator.fired(c);
  }

  failed(): void {
    this.evaluator.forget(this.deviceId);
    this.crossings = [];
  }
}
