import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { UploadService } from '../upload/service.js';
import type { UserService } from './service.js';

/** The signed-in user's account: profile, settings, language and the safety settings. */
export function userRoutes(app: FastifyInstance, hooks: CallHooks, users: UserService, uploads: UploadService): void {
  registerCall(app, hooks, calls.ModifyLcid, async ({ body, caller }) => {
    await users.setLcid(caller.session.userId, body.lcid);
    return null;
  });

  registerCall(app, hooks, calls.GetAccountSetting, async ({ caller }) => users.accountSetting(caller.session.userId));

  registerCall(app, hooks, calls.SetAccountSetting, async ({ body, caller }) => {
    await users.saveAccountSetting(caller.session.userId, body);
    return null;
  });

  // The avatar is a thumbnail of height 100 made from the caller's organisation's uploaded picture (§5),
  // made before anything is stored: a refused picture changes neither the nickname nor the avatar.
  registerCall(app, hooks, calls.ModifyInfo, async ({ body, caller }) => {
    const imgUrl = body.image === '' ? undefined : await uploads.avatarThumbnail(caller, body.image, ['image']);
    return users.modifyInfo(caller.session.userId, body.nickName, imgUrl);
  });

  registerCall(app, hooks, calls.GetUserInfo, async ({ caller }) => users.getUser(caller.session.userId));
  registerCall(app, hooks, calls.GetAccountSafeSetting, async ({ caller }) => users.safeSetting(caller.session.userId));
}
