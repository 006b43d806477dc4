import type { FastifyBaseLogger } from 'fastify';
import { FenceShapeSchema, type InOrOut, InstructionParamsSchema, type PendingFenceRule } from '@wildtrack/contract';
import type { IngestService } from '../../ingest/service.js';
import type { InstructionService } from '../instruction/service.js';
import { FenceEvaluator } from './evaluator.js';
import type { FenceRepository } from './repository.js';
import type { FenceService } from './service.js';

/**
 * Fences at ingest: each stored device batch's fixes evaluated (FenceEvaluator), the index reloaded when
 * this process changes a fence, and a rule that fires with AllowSendInstr sending its instructions through
 * the instruction service (its rules and daily limit) with the rights the fence's organisation holds on the
 * device as it fires. A device rule is handed to the device only while the fence's organisation holds
 * RemoteInstr on it (FenceService.ruleMayAct); one whose grant ended is withdrawn (a removal) by
 * FenceService.withdrawUngranted. A failure of the evaluation is logged: the batch is stored and its
 * answer stays a success.
 */
export function attachFenceEvaluation(
  ingest: IngestService,
  repo: FenceRepository,
  deps: { fences?: FenceService; instructions?: InstructionService; log?: Pick<FastifyBaseLogger, 'warn' | 'error'> },
): FenceEvaluator {
  const evaluator = new FenceEvaluator(repo, undefined, deps.log);
  deps.fences?.onChange(() => evaluator.invalidate());
  const instructions = deps.instructions;
  if (instructions) {
    evaluator.onCrossing(async (c) => {
      if (!c.sendInstr || c.instrs.length === 0) return;
      try {
        const refused = await instructions.sendForRule({ orgId: c.orgId, deviceId: c.deviceId }, c.instrs, c.timeZone, 'en');
        if (refused.length > 0) deps.log?.warn({ deviceId: c.deviceId, fenceId: c.fenceId, refused }, 'fence rule fired: instructions not sent');
      } catch (err) {
        deps.log?.error({ err, deviceId: c.deviceId, fenceId: c.fenceId }, 'fence rule fired: sending its instructions failed');
      }
    });
  }
  // Device rules: handed to the device with each answer until it acknowledges the fence's version.
  ingest.setFenceChannel({
    async pending(deviceId) {
      const { rules, removals } = await repo.pendingForDevice(deviceId);
      const out: PendingFenceRule[] = [];
      for (const r of removals) {
        const shape = FenceShapeSchema.safeParse(JSON.parse(r.shape));
        if (shape.success) out.push({ fenceId: r.fence_id, version: r.version, removed: true, shape: shape.data, inOrOut: 'BOTH', instrs: [], timeZone: '+00:00' });
      }
      const granted = deps.fences ? await deps.fences.rulesMayAct(deviceId, rules.map((f) => f.org_id)) : null;
      for (const f of rules) {
        // a rule made under a share that has ended since: not handed (its removal follows with the sweep)
        if (granted && !granted.has(f.org_id)) continue;
        const shape = FenceShapeSchema.safeParse(JSON.parse(f.shape));
        const instrs = InstructionParamsSchema.array().safeParse(JSON.parse(f.instrs));
        if (shape.success && instrs.success) out.push({ fenceId: f.id, version: f.version, removed: false, shape: shape.data, inOrOut: f.in_or_out as InOrOut, instrs: instrs.data, timeZone: f.time_zone });
      }
      return out;
    },
    acknowledge: (deviceId, ack) => repo.acknowledge(deviceId, ack.fenceId, ack.version),
  });
  ingest.setFencePlanner((deviceId, fixes, now) => {
    const plan = evaluator.plan(deviceId, fixes, now);
    if (!(plan instanceof Promise)) return plan;
    return plan.catch((err: unknown) => {
      // the index could not be read: the batch is stored without its fence evaluation
      deps.log?.error({ err, deviceId }, 'fence evaluation failed');
      return null;
    });
  });
  return evaluator;
}
