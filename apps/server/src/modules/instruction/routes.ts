import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { InstructionService } from './service.js';

/** Remote instructions (§7.2 Instruction/*): thin routes over InstructionService. */
export function instructionRoutes(app: FastifyInstance, hooks: CallHooks, instructions: InstructionService): void {
  registerCall(app, hooks, calls.GetInstructionCount, async ({ body, caller }) => ({ Count: await instructions.count(caller, body) }));
  registerCall(app, hooks, calls.GetInstructionList, async ({ body, caller }) => instructions.page(caller, body));
  registerCall(app, hooks, calls.Exceedrestrict, async ({ body, caller }) => instructions.exceed(caller, body.imeis, body.type));
  registerCall(app, hooks, calls.SendInstruction, async ({ body, caller }) => ({ List: await instructions.send(caller, body) }));
  registerCall(app, hooks, calls.WithdrawInstruction, async ({ body, caller }) => instructions.withdraw(caller, body.imei, body.instructionId));
}
