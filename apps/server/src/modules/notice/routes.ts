import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { NoticeService } from './service.js';

/** Notices (§7.2 Notice/*): thin routes over NoticeService; every call reads or changes only the caller's own view. */
export function noticeRoutes(app: FastifyInstance, hooks: CallHooks, notices: NoticeService): void {
  registerCall(app, hooks, calls.GetNoticeUnReadCount, async ({ caller }) => ({ count: await notices.unreadCount(caller) }));
  registerCall(app, hooks, calls.GetNoticeList, async ({ caller }) => ({ list: await notices.list(caller) }));
  registerCall(app, hooks, calls.GetNotice, async ({ body, caller }) => notices.get(caller, body.Id));
  registerCall(app, hooks, calls.NoticeViewed, async ({ body, caller }) => {
    await notices.viewed(caller, body.Id);
    return null;
  });
  registerCall(app, hooks, calls.DeleteNotice, async ({ body, caller }) => {
    await notices.delete(caller, body.Id);
    return null;
  });
}
