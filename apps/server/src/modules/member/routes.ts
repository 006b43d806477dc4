import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { MemberService } from './service.js';

/** The organisation's members (primary user only) and the change of a temporary password (its owner). */
export function memberRoutes(app: FastifyInstance, hooks: CallHooks, members: MemberService): void {
  registerCall(app, hooks, calls.GetMemberList, async ({ caller }) => members.list(caller));
  registerCall(app, hooks, calls.CreateMember, async ({ body, caller }) => members.create(caller, body));
  registerCall(app, hooks, calls.SetMemberEnabled, async ({ body, caller }) => members.setEnabled(caller, body.memberId, body.enabled));
  registerCall(app, hooks, calls.ResetMemberPassword, async ({ body, caller }) => members.resetPassword(caller, body.memberId, body.tempPwd));
  registerCall(app, hooks, calls.ModifyTemporaryPassword, async ({ body, caller }) => {
    await members.changeTemporaryPassword(caller, body.originalPwd, body.newPwd);
    return null;
  });
}
