import type { FastifyInstance } from 'fastify';
import { calls } from '@wildtrack/contract';
import { type CallHooks, registerCall } from '../../http/calls.js';
import type { DeviceEnrolment } from './enrol.js';
import type { DeviceGate } from './gate.js';
import type { MountService } from './mount.js';

export function deviceRoutes(app: FastifyInstance, hooks: CallHooks, devices: DeviceGate, mount: MountService, enrolment: DeviceEnrolment): void {
  registerCall(app, hooks, calls.RegisterDevice, async ({ body, caller }) => enrolment.register(caller, body));
  registerCall(app, hooks, calls.GetTree, async ({ caller }) => devices.tree(caller));
  registerCall(app, hooks, calls.GetTreeState, async ({ caller }) => devices.treeState(caller));
  registerCall(app, hooks, calls.GetFolderTree, async ({ caller }) => ({ Folders: await devices.folderTree(caller) }));
  registerCall(app, hooks, calls.CreateFolder, async ({ body, caller }) => ({ IdStr: await devices.createFolder(caller, body.name, body.parentId) }));
  registerCall(app, hooks, calls.UpdateFolderName, async ({ body, caller }) => {
    await devices.renameFolder(caller, body.id, body.name);
    return null;
  });
  registerCall(app, hooks, calls.DeleteFolder, async ({ body, caller }) => {
    await devices.deleteFolder(caller, body.id);
    return null;
  });
  registerCall(app, hooks, calls.MoveFolder, async ({ body, caller }) => {
    await devices.moveFolder(caller, body.id, body.parentId);
    return null;
  });
  registerCall(app, hooks, calls.MoveDevice, async ({ body, caller }) => {
    await devices.moveDevice(caller, body.imei, body.folderId);
    return null;
  });
  registerCall(app, hooks, calls.UpdateRemarkName, async ({ body, caller }) => {
    await devices.setRemark(caller, body.imei, body.remarkName);
    return null;
  });
  registerCall(app, hooks, calls.SetSecondLevelFixEnable, async ({ body, caller }) => {
    await devices.setSecondLevelFix(caller, body.imei, body.enabled === 1);
    return null;
  });
  registerCall(app, hooks, calls.UpdateProperty, async ({ body, caller }) => {
    await devices.updateProperty(caller, body.imei, body);
    return null;
  });
  registerCall(app, hooks, calls.GetDetailByIMEI, async ({ body, caller }) => devices.detail(caller, body.imei));
  registerCall(app, hooks, calls.GetDetailByFolder, async ({ body, caller }) => devices.page(caller, body));
  registerCall(app, hooks, calls.GetCountByFolder, async ({ body, caller }) => ({ Count: await devices.count(caller, body.folderId, body.recursive) }));
  registerCall(app, hooks, calls.GetHandheldList, async ({ caller }) => devices.handhelds(caller));
  registerCall(app, hooks, calls.SetExperienceFuncEnable, async ({ body, caller }) => {
    await devices.setExperience(caller, body.enabled === 1);
    return null;
  });

  registerCall(app, hooks, calls.GetBirdInfo, async ({ body, caller }) => mount.get(caller, body.imei, 'bird'));
  registerCall(app, hooks, calls.GetBeastInfo, async ({ body, caller }) => mount.get(caller, body.imei, 'beast'));
  registerCall(app, hooks, calls.GetOtherSpeciesInfo, async ({ body, caller }) => ({ ...(await mount.get(caller, body.imei, 'other')), Measurements: {} }));
  registerCall(app, hooks, calls.SaveBirdInfo, async ({ body, caller }) => {
    await mount.save(caller, body, 'bird');
    return null;
  });
  registerCall(app, hooks, calls.SaveBeastInfo, async ({ body, caller }) => {
    await mount.save(caller, body, 'beast');
    return null;
  });
  registerCall(app, hooks, calls.SaveOtherSpeciesInfo, async ({ body, caller }) => {
    await mount.save(caller, body, 'other');
    return null;
  });

  registerCall(app, hooks, calls.GetWorkStatus, async ({ body, caller }) => (await devices.workStatus(caller, [body.imei]))[0]!);
  registerCall(app, hooks, calls.GetWorkStatusList, async ({ body, caller }) => devices.workStatus(caller, body.imeis));
  registerCall(app, hooks, calls.GetObservedWork, async ({ body, caller }) => devices.observedWork(caller, body.imei, body.days));
}
