import type { FastifyInstance, FastifyRequest } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { SessionInfo } from '../auth/service.js';
import { type Caller, type DeviceManagement, zoneOr } from './management.js';
import type { MountService } from './mount.js';
import type { DeviceQueries } from './repository.js';
import { readWorkStatus, workStatusOf } from './work-status.js';

export function deviceRoutes(app: FastifyInstance, hooks: CallHooks, devices: DeviceManagement, mount: MountService, q: DeviceQueries): void {
  const caller = async (request: FastifyRequest, session: SessionInfo, zone?: string): Promise<Caller & { orgName: string }> => {
    const ctx = await q.callerContext(session.userId);
    return { session, lang: request.lang, zone: zoneOr(zone, ctx.time_zone), orgName: ctx.org_name };
  };

  registerCall(app, hooks, calls.GetTree, async ({ body, request, session }) => {
    const c = await caller(request, session, body?.timeZone);
    return devices.tree(c, c.orgName);
  });
  registerCall(app, hooks, calls.GetFolderTree, async ({ request, session }) => ({ Folders: await devices.folderTree(await caller(request, session)) }));
  registerCall(app, hooks, calls.CreateFolder, async ({ body, request, session }) => ({
    IdStr: await devices.createFolder(await caller(request, session), body.name, body.parentId),
  }));
  registerCall(app, hooks, calls.UpdateFolderName, async ({ body, request, session }) => {
    await devices.renameFolder(await caller(request, session), body.id, body.name);
    return null;
  });
  registerCall(app, hooks, calls.DeleteFolder, async ({ body, request, session }) => {
    await devices.deleteFolder(await caller(request, session), body.id);
    return null;
  });
  registerCall(app, hooks, calls.MoveFolder, async ({ body, request, session }) => {
    await devices.moveFolder(await caller(request, session), body.id, body.parentId);
    return null;
  });
  registerCall(app, hooks, calls.MoveDevice, async ({ body, request, session }) => {
    await devices.moveDevice(await caller(request, session), body.imei, body.folderId);
    return null;
  });
  registerCall(app, hooks, calls.UpdateRemarkName, async ({ body, request, session }) => {
    await devices.setRemark(await caller(request, session), body.imei, body.remarkName);
    return null;
  });
  registerCall(app, hooks, calls.SetSecondLevelFixEnable, async ({ body, request, session }) => {
    await devices.setSecondLevelFix(await caller(request, session), body.imei, body.enabled === 1);
    return null;
  });
  registerCall(app, hooks, calls.UpdateProperty, async ({ body, request, session }) => {
    await devices.updateProperty(await caller(request, session), body.imei, body);
    return null;
  });
  registerCall(app, hooks, calls.GetDetailByIMEI, async ({ body, request, session }) => devices.detail(await caller(request, session, body.timeZone), body.imei));
  registerCall(app, hooks, calls.GetDetailByFolder, async ({ body, request, session }) => devices.page(await caller(request, session, body.timeZone), body));
  registerCall(app, hooks, calls.GetCountByFolder, async ({ body, request, session }) => ({
    Count: await devices.count(await caller(request, session), body.folderId, body.recursive),
  }));
  registerCall(app, hooks, calls.GetHandheldList, async ({ request, session }) => devices.handhelds(await caller(request, session)));
  registerCall(app, hooks, calls.SetExperienceFuncEnable, async ({ body, request, session }) => {
    await devices.setExperience(await caller(request, session), body.enabled === 1);
    return null;
  });

  registerCall(app, hooks, calls.GetBirdInfo, async ({ body, request, session }) => mount.get(await caller(request, session, body.timeZone), body.imei, 'bird'));
  registerCall(app, hooks, calls.GetBeastInfo, async ({ body, request, session }) => mount.get(await caller(request, session, body.timeZone), body.imei, 'beast'));
  registerCall(app, hooks, calls.GetOtherSpeciesInfo, async ({ body, request, session }) => ({
    ...(await mount.get(await caller(request, session, body.timeZone), body.imei, 'other')),
    Measurements: {},
  }));
  registerCall(app, hooks, calls.SaveBirdInfo, async ({ body, request, session }) => {
    await mount.save(await caller(request, session, body.timeZone), body, 'bird');
    return null;
  });
  registerCall(app, hooks, calls.SaveBeastInfo, async ({ body, request, session }) => {
    await mount.save(await caller(request, session, body.timeZone), body, 'beast');
    return null;
  });
  registerCall(app, hooks, calls.SaveOtherSpeciesInfo, async ({ body, request, session }) => {
    await mount.save(await caller(request, session, body.timeZone), body, 'other');
    return null;
  });

  registerCall(app, hooks, calls.GetWorkStatus, async ({ body, request, session }) => {
    const c = await caller(request, session, body.timeZone);
    const d = await devices.resolve(c, body.imei);
    const docs = await q.workStatusDocs([Number(d.id)]);
    return workStatusOf(d.imei, d.last_work_time, d.battery_type, readWorkStatus(docs.get(Number(d.id)), d.sensors), c.zone);
  });
  registerCall(app, hooks, calls.GetWorkStatusList, async ({ body, request, session }) => {
    const c = await caller(request, session, body.timeZone);
    const resolved = [];
    for (const imei of body.imeis) resolved.push(await devices.resolve(c, imei));
    const docs = await q.workStatusDocs(resolved.map((d) => Number(d.id)));
    return resolved.map((d) => workStatusOf(d.imei, d.last_work_time, d.battery_type, readWorkStatus(docs.get(Number(d.id)), d.sensors), c.zone));
  });
}
