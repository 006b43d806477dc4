import type { FastifyBaseLogger } from 'fastify';
import Flatbush from 'flatbush';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { Listeners } from '../../lib/listeners.js';
import { type FenceShape, type InOrOut, type InstructionParams, InstructionParamsSchema } from '@wildtrack/contract';
import type { InBatch } from '../../ingest/batch-repository.js';
import { type CompiledShape, compile, contains } from './geometry.js';
import type { FenceRepository, StateMove, StoredStates } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

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
  /** The fence's organisation: its rules act with the rights it holds on the device when they fire. */
  orgId: number;
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
  orgId: number;
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

/** Shape text the index parses before the event loop gets a turn while it is built. */
const PARSE_CHUNK_CHARS = 256 * 1024;
/** How often the index asks whether fences changed in another process (one cheap query). */
const REFRESH_MS = 5_000;
/** Above this many fences on one device, a batch's candidates come from the index; below, each fence's box is tested. */
const SEARCH_ABOVE = 16;

interface KnownState {
  inside: number;
  fix_time: number;
  db_time: number;
}

interface DeviceStates {
  /** The newest fix evaluated when the states were read (FenceRepository's NEWEST_EVALUATED): a fence without a state judges only newer ones. */
  evaluatedTo: number;
  fences: Map<number, KnownState>;
}

const NO_EVENTS: StateMove['events'] = [];

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
 * boxes holding it), then point-in-polygon or the great-circle distance for circles. The index is rebuilt when the fences'
 * generation moves (a change in this process invalidates it at once; another process's change is seen
 * within REFRESH_MS).
 *
 * State per device and fence (fence_states): inside or outside and the time of the fix it was last written
 * with. Only valid fixes with a position count; a fix not newer than the newest one evaluated changes nothing
 * (a batch that arrives late, a fix sent again): that time is the state's in this process, and after a
 * restart or in another process the newer of the stored time and the device's newest fix stored before the
 * batch (every one was evaluated with its batch). So a state's row is written only when its side changes
 * (or is first known), with a conditional write, so two processes never both tell one crossing. The first
 * fix a device has in a fence's life sets its side without an event; each later change of side is a crossing, stored as a Fence event (type 1, content
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
  /** Told each rule that fires, in turn (the instruction sender: evaluation.ts; any channel more is one more). */
  private readonly crossings = new Listeners<[Crossing]>('a fence crossing');
  /**
   * The states this process knows, per device: `fix_time` the newest fix evaluated, `db_time` the time the
   * stored row holds (every compare-and-set is on it; a failed one drops the device's states). A side that
   * changes is written at once with its event; a newer time on an unchanged side only moves `fix_time`.
   */
  private readonly states = new Map<number, DeviceStates>();

  constructor(
    private readonly repo: FenceRepository,
    private readonly refreshMs = REFRESH_MS,
    private readonly log?: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  /**
   * Adds a subscriber told each rule that fires, once its batch committed (the instruction sender is one:
   * evaluation.ts); returns its removal. Subscribers are awaited in the order added, and a failure is logged,
   * never thrown to ingest, nor stopping the subscribers after it.
   */
  onCrossing(listener: (c: Crossing) => Promise<void> | void): () => void {
    return this.crossings.add(listener);
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
        this.checkedAt = clockNow();
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
    let parsed = 0;
    for (const f of fences) {
      // A shapefile import brings up to 200 rings of 5,000 vertices (~20 MB of JSON): parsed and compiled
      // a few at a time with a turn of the event loop between, not in one block at the next batch (issue 26 H4).
      if (parsed >= PARSE_CHUNK_CHARS) {
        parsed = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      parsed += f.shape.length;
      // Stored by FenceService from checked shapes: read as they are (a schema check of 5,000 rings of 200
      // vertices took seconds); the instructions, read only when a rule sends them, are checked.
      const shape = JSON.parse(f.shape) as FenceShape;
      if (shape.Type !== 'Polygon' && shape.Type !== 'Circle') continue;
      const instrs = f.allow_send_instr === 1 ? InstructionParamsSchema.array().safeParse(JSON.parse(f.instrs)) : null;
      at.set(f.id, live.length);
      live.push({ id: f.id, orgId: f.org_id, label: f.label, shape: compile(shape), inOrOut: f.in_or_out as InOrOut, sendInstr: f.allow_send_instr === 1, instrs: instrs?.success ? instrs.data : [], timeZone: f.time_zone });
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
  plan(deviceId: number, fixes: readonly FixPoint[], now = clockNow()): FencePlan | null | Promise<FencePlan | null> {
    // Synchronous while the index is current (every batch but one each REFRESH_MS): no promise per batch.
    if (this.index && now - this.checkedAt < this.refreshMs) return this.planOn(this.index, deviceId, fixes, now);
    return this.current(now).then((index) => this.planOn(index, deviceId, fixes, now));
  }

  private planOn(index: Index, deviceId: number, fixes: readonly FixPoint[], now: number): FencePlan | null {
    const mine = index.byDevice.get(deviceId);
    if (!mine || !index.tree) return null;
    const valid = fixes.filter((f) => f.valid === 1 && f.lon !== null && f.lat !== null);
    if (valid.length === 0) return null;
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    let sorted = true;
    for (let i = 0; i < valid.length; i++) {
      const f = valid[i]!;
      if (i > 0 && f.pick_time < valid[i - 1]!.pick_time) sorted = false;
      if (f.lon! < x0) x0 = f.lon!;
      if (f.lon! > x1) x1 = f.lon!;
      if (f.lat! < y0) y0 = f.lat!;
      if (f.lat! > y1) y1 = f.lat!;
    }
    if (!sorted) valid.sort((a, b) => a.pick_time - b.pick_time);
    // The fences whose box meets the batch's box: by one search of the index when the device has many, else
    // each box tested (judge); then each fix against a candidate's own box before the exact test.
    const candidates = mine.length > SEARCH_ABOVE ? new Set(index.tree.search(x0, y0, x1, y1)) : null;
    return new BatchPlan(this, this.repo, deviceId, now, { index, mine, deviceId, valid, candidates, box: [x0, y0, x1, y1] });
  }

  /** The states this process knows of the device, or none (read them). */
  known(deviceId: number): DeviceStates | undefined {
    return this.states.get(deviceId);
  }

  /** The device's states as read from the database, remembered. */
  remember(deviceId: number, read: StoredStates): DeviceStates {
    const evaluatedTo = read.evaluatedTo ?? -Infinity;
    const fences = new Map<number, KnownState>();
    for (const [id, st] of read.states) fences.set(id, { inside: st.inside, fix_time: Math.max(st.fix_time, evaluatedTo), db_time: st.fix_time });
    const known = { evaluatedTo, fences };
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

  /** A rule fired: each subscriber told in turn (a failure logged). */
  async fired(c: Crossing): Promise<void> {
    try {
      await this.crossings.emitInTurn(c);
    } catch (err) {
      this.log?.error({ err, deviceId: c.deviceId, fenceId: c.fenceId }, 'fence rule fired: a subscriber of the crossing failed');
    }
  }
}

/** A batch as `judge` reads it: the device's fences, its valid fixes in time order, the fences whose box meets the batch's (null: test each). */
interface Judge {
  index: Index;
  mine: number[];
  deviceId: number;
  valid: FixPoint[];
  candidates: Set<number> | null;
  /** The batch's box: minLng, minLat, maxLng, maxLat. */
  box: [number, number, number, number];
}

/**
 * The state moves and crossings a batch makes from the states known: a move for each fence whose side
 * changed, was first known, or that was crossed (out and back within the batch); a fence whose side held
 * only moves its time in `states` (nothing written).
 */
function judge({ index, mine, deviceId, valid, candidates, box }: Judge, known: DeviceStates): { moves: StateMove[]; crossed: Crossing[] } {
  const moves: StateMove[] = [];
  let crossed: Crossing[] | null = null;
  const b = index.boxes;
  const last = valid[valid.length - 1]!.pick_time;
  for (const i of mine) {
    const fence = index.fences[i]!;
    const st = known.fences.get(fence.id);
    let side: number | null = st ? st.inside : null;
    let time = st ? st.fix_time : known.evaluatedTo;
    if (last <= time) continue;
    let events: { at: number; content: string }[] | null = null;
    // a fence whose box the batch's box does not meet: every fix is outside, only the first new one can cross
    const candidate = candidates ? candidates.has(i) : box[0] <= b[4 * i + 2]! && box[2] >= b[4 * i]! && box[1] <= b[4 * i + 3]! && box[3] >= b[4 * i + 1]!;
    for (const fix of valid) {
      if (fix.pick_time <= time) continue;
      const lng = fix.lon!, lat = fix.lat!;
      const inBox = candidate && lng >= b[4 * i]! && lat >= b[4 * i + 1]! && lng <= b[4 * i + 2]! && lat <= b[4 * i + 3]!;
      const inside = inBox && contains(fence.shape, lng, lat) ? 1 : 0;
      if (side !== null && inside !== side) {
        const entered = inside === 1;
        if (fires(fence.inOrOut, entered)) {
          (events ??= []).push({ at: fix.pick_time, content: JSON.stringify({ kind: entered ? 'fenceEntered' : 'fenceLeft', fence: fence.label, fenceId: fence.id }) });
          (crossed ??= []).push({ deviceId, fenceId: fence.id, orgId: fence.orgId, label: fence.label, entered, at: fix.pick_time, sendInstr: fence.sendInstr, instrs: fence.instrs, timeZone: fence.timeZone });
        }
      }
      side = inside;
      time = fix.pick_time;
      if (!candidate) break;
    }
    if (st && st.inside === side && !events) st.fix_time = last;
    else moves.push({ fenceId: fence.id, inside: side!, fixTime: last, prevTime: st ? st.db_time : null, events: events ?? NO_EVENTS });
  }
  return { moves, crossed: crossed ?? [] };
}

/**
 * One batch's part (FenceEvaluator.plan): judged against the states known, the moves written in the batch's
 * transaction as compare-and-sets; a state another process moved meanwhile is read again (the transaction
 * sees it) and what is still new judged anew, at most three tries. A class, not closures: made per batch.
 */
class BatchPlan implements FencePlan {
  private crossings: Crossing[] = [];

  constructor(
    private readonly evaluator: FenceEvaluator,
    private readonly repo: FenceRepository,
    private readonly deviceId: number,
    private readonly now: number,
    private readonly batch: Judge,
  ) {}

  /** The moves written (`moved`: those whose compare-and-set held) remembered; false when one did not hold. */
  private record(known: DeviceStates, moves: StateMove[], crossed: Crossing[], moved: number[]): boolean {
    for (const u of moves) {
      if (moved.includes(u.fenceId)) known.fences.set(u.fenceId, { inside: u.inside, fix_time: u.fixTime, db_time: u.fixTime });
    }
    for (const c of crossed) if (moved.includes(c.fenceId)) this.crossings.push(c);
    if (moved.length === moves.length) return true;
    this.evaluator.forget(this.deviceId);
    return false;
  }

  sqlite(): void {
    const { evaluator, repo, deviceId } = this;
    try {
      for (let i = 0; i < 3; i++) {
        const known = evaluator.known(deviceId) ?? evaluator.remember(deviceId, repo.statesSqlite(deviceId, this.now));
        const { moves, crossed } = judge(this.batch, known);
        // under a savepoint: a failure leaves the batch's records and answer as they are (logged)
        if (this.record(known, moves, crossed, moves.length > 0 ? repo.advanceSqlite(deviceId, moves) : [])) return;
      }
    } catch (err) {
      this.failed();
      evaluator.failure(err, deviceId);
    }
  }

  async postgres(trx: Kysely<Database>): Promise<void> {
    const { evaluator, repo, deviceId } = this;
    for (let i = 0; i < 3; i++) {
      const known = evaluator.known(deviceId) ?? evaluator.remember(deviceId, await repo.statesIn(trx, deviceId, this.now));
      const { moves, crossed } = judge(this.batch, known);
      let moved: number[] = [];
      if (moves.length > 0) {
        // a savepoint: a failure here leaves the batch's records and answer as they are (logged)
        await sql`savepoint fence_states`.execute(trx);
        try {
          moved = await repo.advanceIn(trx, deviceId, moves);
          await sql`release savepoint fence_states`.execute(trx);
        } catch (err) {
          await sql`rollback to savepoint fence_states`.execute(trx);
          this.failed();
          evaluator.failure(err, deviceId);
          return;
        }
      }
      if (this.record(known, moves, crossed, moved)) return;
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
