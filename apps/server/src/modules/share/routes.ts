import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { ShareService } from './service.js';

/** Device sharing (§7.2 DeviceShare/*): thin routes over ShareService. */
export function shareRoutes(app: FastifyInstance, hooks: CallHooks, shares: ShareService): void {
  registerCall(app, hooks, calls.GetShareRecipient, async ({ body, caller, request }) => shares.recipient(caller, body.account, request.ip));
  registerCall(app, hooks, calls.CreateShare, async ({ body, caller, request }) => ({ Count: await shares.create(caller, body, request.ip) }));
  registerCall(app, hooks, calls.GetSharedCount, async ({ caller }) => ({ Count: await shares.count(caller) }));
  registerCall(app, hooks, calls.GetSharedListByPage, async ({ body, caller }) => shares.page(caller, 'owner', body));
  registerCall(app, hooks, calls.GetReceivedListByPage, async ({ body, caller }) => shares.page(caller, 'recipient', body));
  registerCall(app, hooks, calls.UpdateShare, async ({ body, caller }) => shares.update(caller, body));
  registerCall(app, hooks, calls.RevokeShare, async ({ body, caller }) => ({ Count: await shares.revoke(caller, body.shareIds) }));
}
