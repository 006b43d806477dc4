import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { TokenService } from './service.js';

/** PersonalToken/Create, GetList, Revoke: the caller's own tokens (the direct-read API reads with them: modules/export/direct-read-routes.ts). */
export function tokenRoutes(app: FastifyInstance, hooks: CallHooks, tokens: TokenService): void {
  registerCall(app, hooks, calls.CreatePersonalToken, async ({ body, caller }) => tokens.create(caller, body));
  registerCall(app, hooks, calls.GetPersonalTokenList, async ({ caller }) => tokens.list(caller));
  registerCall(app, hooks, calls.RevokePersonalToken, async ({ body, caller }) => {
    await tokens.revoke(caller, body.id);
    return null;
  });
}
