import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { AdviceService } from './service.js';

/** Feedback from the console (§7.2 /api/Advice/Submit). */
export function adviceRoutes(app: FastifyInstance, hooks: CallHooks, advice: AdviceService): void {
  registerCall(app, hooks, calls.SubmitAdvice, async ({ body, caller }) => {
    await advice.submit(caller, body);
    return null;
  });
}
