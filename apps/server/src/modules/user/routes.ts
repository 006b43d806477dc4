import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { AuthService } from '../auth/service.js';
import type { UserService } from './service.js';

export function userRoutes(app: FastifyInstance, hooks: CallHooks, users: UserService, auth: AuthService): void {
  registerCall(app, hooks, calls.Exit, async ({ session }) => {
    await auth.exit(session.sessionId);
    return null;
  });

  registerCall(app, hooks, calls.ModifyLcid, async ({ body, session }) => {
    await users.setLcid(session.userId, body.lcid);
    return null;
  });

  registerCall(app, hooks, calls.GetAccountSetting, async ({ session }) => users.accountSetting(session.userId));

  registerCall(app, hooks, calls.SetAccountSetting, async ({ body, session }) => {
    await users.saveAccountSetting(session.userId, body);
    return null;
  });

  registerCall(app, hooks, calls.GetUserInfo, async ({ session }) => users.getUser(session.userId));
}
