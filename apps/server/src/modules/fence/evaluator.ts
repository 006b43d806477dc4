import Flatbush from 'flatbush';
import { FenceShapeSchema, type InOrOut, type InstructionParams, InstructionParamsSchema } from '@wildtrack/contract';
import { type CompiledShape, compile, contains } from './geometry.js';
import type { FenceRepository } from './repository.js';

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
  /** Device id → indexes into `fences` of its remote rules. */
  byDevice: Map<number, number[]>;
}

/** How often the index asks whether fences changed in another process (one cheap query). */
const REFRESH_MS = 5_000;

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
 * transaction as the state. The evaluation runs after the batch is stored, not inside its transaction: a
 * crash between the two loses that batch's crossings (the next fix decides the side again).
 */
export class FenceEvaluator {
  private index: Index | null = null;
  private generation = '';
  private checkedAt = 0;
  private loading: Promise<Index> | null = null;
  private fire: (c: Crossing) => Promise<void> = async () => {};

  constructor(
    private readonly repo: FenceRepository,
    private readonly refreshMs = REFRESH_MS,
  ) {}

  /** What to do when a rule fires (send its instructions); its failure is logged by the caller, never thrown here. */
  onCrossing(fire: (c: Crossing) => Promise<void>): void {
    this.fire = fire;
  }

  /** Fences changed in this process: the next batch reloads the index. */
  invalidate(): void {
    this.checkedAt = 0;
    this.generation = '';
  }

  private async current(now: number): Promise<Index> {
    if (this.index && now - this.checkedAt < this.refreshMs) return this.index;
    this.loading ??= (async () => {
      try {
        const gen = await this.repo.generation();
        if (!this.index || gen !== this.generation) {
          this.index = await this.build();
          this.generation = gen;
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
      const shape = FenceShapeSchema.safeParse(JSON.parse(f.shape));
      const instrs = InstructionParamsSchema.array().safeParse(JSON.parse(f.instrs));
      if (!shape.success) continue;
      at.set(f.id, live.length);
      live.push({ id: f.id, label: f.label, shape: compile(shape.data), inOrOut: f.in_or_out as InOrOut, sendInstr: f.allow_send_instr === 1, instrs: instrs.success ? instrs.data : [], timeZone: f.time_zone });
      boxes.push([f.min_lng, f.min_lat, f.max_lng, f.max_lat]);
    }
    let tree: Flatbush | null = null;
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
    return { tree, fences: live, byDevice };
  }

  /** Evaluates a stored batch's fixes for the device; answers the crossings stored (after their rules fired). */
  async evaluate(deviceId: number, fixes: readonly FixPoint[], now = Date.now()): Promise<Crossing[]> {
    const index = await this.current(now);
    const mine = index.byDevice.get(deviceId);
    if (!mine || !index.tree) return [];
    const valid = fixes.filter((f) => f.valid === 1 && f.lon !== null && f.lat !== null).sort((a, b) => a.pick_time - b.pick_time);
    if (valid.length === 0) return [];
    const states = await this.repo.states(deviceId);
    // Each fix's candidate fences, once, from the index.
    const candidates = valid.map((f) => new Set(index.tree!.search(f.lon!, f.lat!, f.lon!, f.lat!)));
    const updates: { fenceId: number; inside: number; fixTime: number; events: { at: number; content: string }[] }[] = [];
    const crossings = new Map<number, Crossing[]>();
    for (const i of mine) {
      const fence = index.fences[i]!;
      const st = states.get(fence.id);
      let side: number | null = st ? st.inside : null;
      let time = st ? st.fix_time : -Infinity;
      let moved = false;
      const events: { at: number; content: string }[] = [];
      const crossed: Crossing[] = [];
      valid.forEach((fix, k) => {
        if (fix.pick_time <= time) return;
        const inside = candidates[k]!.has(i) && contains(fence.shape, fix.lon!, fix.lat!) ? 1 : 0;
        if (side !== null && inside !== side) {
          const entered = inside === 1;
          if (fires(fence.inOrOut, entered)) {
            events.push({ at: fix.pick_time, content: JSON.stringify({ kind: entered ? 'fenceEntered' : 'fenceLeft', fence: fence.label, fenceId: fence.id }) });
            crossed.push({ deviceId, fenceId: fence.id, label: fence.label, entered, at: fix.pick_time, sendInstr: fence.sendInstr, instrs: fence.instrs, timeZone: fence.timeZone });
          }
        }
        side = inside;
        time = fix.pick_time;
        moved = true;
      });
      if (moved && side !== null) {
        updates.push({ fenceId: fence.id, inside: side, fixTime: time, events });
        crossings.set(fence.id, crossed);
      }
    }
    const stored = await this.repo.advance(deviceId, updates);
    const out = stored.flatMap((id) => crossings.get(id) ?? []);
    for (const c of out) if (c.sendInstr && c.instrs.length > 0) await this.fire(c);
    return out;
  }
}
