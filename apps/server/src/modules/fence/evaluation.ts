import type { FastifyBaseLogger } from 'fastify';
import type { IngestService } from '../../ingest/service.js';
import type { InstructionService } from '../instruction/service.js';
import { FenceEvaluator } from './evaluator.js';
import type { FenceRepository } from './repository.js';
import type { FenceService } from './service.js';

/**
 * Fences at ingest: each stored device batch's fixes evaluated (FenceEvaluator), the index reloaded when
 * this process changes a fence, and a rule that fires with AllowSendInstr sending its instructions through
 * the instruction service (its rules and daily limit). A failure of the evaluation is logged: the batch is
 * stored already and its answer stays a success.
 */
export function attachFenceEvaluation(
  ingest: IngestService,
  repo: FenceRepository,
  deps: { fences?: FenceService; instructions?: InstructionService; log?: Pick<FastifyBaseLogger, 'warn' | 'error'> },
): FenceEvaluator {
  const evaluator = new FenceEvaluator(repo);
  deps.fences?.onChange(() => evaluator.invalidate());
  const instructions = deps.instructions;
  if (instructions) {
    evaluator.onCrossing(async (c) => {
      const refused = await instructions.sendForRule(c.deviceId, c.instrs, c.timeZone, 'en');
      if (refused.length > 0) deps.log?.warn({ deviceId: c.deviceId, fenceId: c.fenceId, refused }, 'fence rule fired: instructions not sent');
    });
  }
  ingest.onBatchFixes(async (deviceId, fixes, now) => {
    try {
      await evaluator.evaluate(deviceId, fixes, now);
    } catch (err) {
      deps.log?.error({ err, deviceId }, 'fence evaluation failed');
    }
  });
  return evaluator;
}
