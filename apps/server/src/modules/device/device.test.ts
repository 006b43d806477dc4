import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  calls,
  Code,
  DeviceDetailSchema,
  DeviceType,
  EXPERIENCE_FOLDER_ID,
  LanguageId,
  SpeciesType,
  sessionCredential,
  signedHeaders,
  TreeDataSchema,
  type TreeFolder,
} from '@wildtrack/contract';
import { sql } from 'kysely';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { workSettings } from '../../test/work-settings.js';
import { NOW } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';
import { DeviceRepository } from './repository.js';
import { ensureSampleDevices } from './samples.js';

describe.each(DIALECTS)('device management on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let aliceOrg: number;
  let bobOrg: number;
  let bobId: number;
  const hour = 3600_000;
  // The shares' windows and the sample fleet's last day are the server's clock's: fixed at NOW.
  useFixedClock(NOW);

  const tree = async (token: string) => TreeDataSchema.parse((await t.call(calls.GetTree.path, { timeZone: '+08:00' }, { token })).body.Data);
  const find = (folders: TreeFolder[], id: string): TreeFolder | undefined => {
    for (const f of folders) {
      if (f.IdStr === id) return f;
      const inner = find(f.Folders, id);
      if (inner) return inner;
    }
    return undefined;
  };
  const register = async (orgId: number, imei: string, type: number = DeviceType.Tracker, species: number = SpeciesType.Bird, folderId: number | null = null) =>
    t.services.devices.register({ orgId, imei, type, speciesType: species, sensors: ['GNSS', 'Acceleration'], folderId });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const repo = new DeviceRepository(t.database.db);
    await ensureSampleDevices(repo, t.services.devices, t.services.ingest, { days: 1 });
    ({ token: alice } = await t.userWithToken({ org: 'Crane Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Otter Lab' }));
    aliceOrg = await t.services.devices.orgIdByName('Crane Lab');
    bobOrg = await t.services.devices.orgIdByName('Otter Lab');
    bobId = Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', bobOrg).executeTakeFirstOrThrow()).id);
    const aliceId = Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', aliceOrg).executeTakeFirstOrThrow()).id);
    const cranes = await repo.findOrCreateFolder(aliceOrg, 'Cranes', NOW);
    await register(aliceOrg, 'A-TRACKER-1', DeviceType.Tracker, SpeciesType.Bird, cranes);
    await register(aliceOrg, 'A-PHONE-1', DeviceType.Phone, SpeciesType.Unknown);
    await register(aliceOrg, 'A-VHF-1', DeviceType.VHFReceiver, SpeciesType.Unknown);
    await register(aliceOrg, 'A-DEER-1', DeviceType.Tracker, SpeciesType.Beast);
    const otters = await repo.findOrCreateFolder(bobOrg, 'Otters', NOW);
    const shared = await register(bobOrg, 'B-SHARED-1', DeviceType.Tracker, SpeciesType.Beast, otters);
    const expired = await register(bobOrg, 'B-EXPIRED-1');
    await register(bobOrg, 'B-PRIVATE-1');
    const now = NOW;
    await t.database.db
      .insertInto('device_shares')
      .values([
        { device_id: shared.id, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 0, remote_instr: 0, download_data: 1, effective_time: now - hour, failure_time: now + hour, created_at: now },
        { device_id: expired.id, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 1, remote_instr: 1, download_data: 1, effective_time: now - 3 * hour, failure_time: now - hour, created_at: now },
      ])
      .execute();
  });
  afterAll(async () => t.close());

  it('builds the tree: own folders with recursive counts, the experience folder, and devices shared with the caller', async () => {
    const data = await tree(alice);
    const [root, experience, shared] = data.Folders;
    expect(root!.IdStr).toBe('-1');
    expect(root!.DeviceCount).toBe(4);
    const cranes = root!.Folders.find((f) => f.Name === 'Cranes')!;
    expect(cranes.Devices.map((d) => d.IMEI)).toEqual(['A-TRACKER-1']);
    expect(root!.Devices.map((d) => d.IMEI).sort()).toEqual(['A-DEER-1', 'A-PHONE-1', 'A-VHF-1']);
    expect(experience).toMatchObject({ IdStr: EXPERIENCE_FOLDER_ID, Name: 'Experience devices', Example: true, DeviceCount: 6 });
    const perm = (i: number) => data.Permissions[i]!;
    expect(experience!.Devices.every((d) => d.Example && !perm(d.Permission).EditDevice && perm(d.Permission).DownloadData)).toBe(true);
    expect(root!.Devices.every((d) => perm(d.Permission).EditDevice && perm(d.Permission).EditFix)).toBe(true);
    expect(data.Permissions).toHaveLength(3); // own, example, the one share: each set once
    expect(shared!.IdStr).toBe(`share-${bobId}`);
    expect(shared!.SharedBy).toBeTruthy();
    expect(shared!.Devices.map((d) => d.IMEI)).toEqual(['B-SHARED-1']);
    expect(perm(shared!.Devices[0]!.Permission)).toMatchObject({ EditDevice: false, DownloadData: true, ShareDevice: false, EditFix: false });
    expect(perm(shared!.Devices[0]!.Permission).FailureTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(data.Total).toBe(11);
    expect(data.SensorCounts['0']).toBe(11);
    expect(data.SensorCounts['1']).toBeGreaterThanOrEqual(5);
    // bob sees none of alice's devices
    const bobs = await tree(bob);
    expect(JSON.stringify(bobs)).not.toContain('A-TRACKER-1');
    expect(bobs.Folders[0]!.DeviceCount).toBe(3);
  });

  it('shows and hides the experience devices with the switch, and refuses their details while hidden', async () => {
    const imei = (await tree(alice)).Folders[1]!.Devices[0]!.IMEI;
    expect((await t.call(calls.SetExperienceFuncEnable.path, { enabled: 0 }, { token: alice })).body.Code).toBe(Code.Success);
    expect((await tree(alice)).Folders.some((f) => f.IdStr === EXPERIENCE_FOLDER_ID)).toBe(false);
    expect((await t.call(calls.UpdateRemarkName.path, { imei, remarkName: 'x' }, { token: alice })).body.Code).toBe(Code.NotFound);
    await t.call(calls.SetExperienceFuncEnable.path, { enabled: 1 }, { token: alice });
    expect((await tree(alice)).Folders[1]!.IdStr).toBe(EXPERIENCE_FOLDER_ID);
  });

  it('creates, renames, moves and deletes folders by the rules', async () => {
    const create = async (name: string, parentId: string, token = alice) => t.call(calls.CreateFolder.path, { name, parentId }, { token });
    const a = (await create('Wetlands', '-1')).body.Data as { IdStr: string };
    const b = (await create('North', a.IdStr)).body.Data as { IdStr: string };
    expect((await t.call(calls.UpdateFolderName.path, { id: b.IdStr, name: 'North shore' }, { token: alice })).body.Code).toBe(Code.Success);
    // a move that would make a cycle
    const cycle = await t.call(calls.MoveFolder.path, { id: a.IdStr, parentId: b.IdStr }, { token: alice });
    expect(cycle.body).toEqual({ Code: Code.Forbidden, Msg: 'A folder cannot move into itself or a folder below it', Data: null });
    expect((await t.call(calls.MoveFolder.path, { id: a.IdStr, parentId: a.IdStr }, { token: alice })).body.Code).toBe(Code.Forbidden);
    // the experience folder is neither editable nor a target
    expect((await create('Mine', EXPERIENCE_FOLDER_ID)).body.Msg).toBe('The experience folder cannot be edited or chosen as a target');
    expect((await t.call(calls.UpdateFolderName.path, { id: EXPERIENCE_FOLDER_ID, name: 'x' }, { token: alice })).body.Code).toBe(Code.Forbidden);
    // a folder holding a device (below it) can't be deleted
    await t.call(calls.MoveDevice.path, { imei: 'A-DEER-1', folderId: b.IdStr }, { token: alice });
    const refused = await t.call(calls.DeleteFolder.path, { id: a.IdStr }, { token: alice, lang: 'zh' });
    expect(refused.body).toEqual({ Code: Code.Failed, Msg: '文件夹中有设备，不能删除', Data: null });
    await t.call(calls.MoveDevice.path, { imei: 'A-DEER-1', folderId: '-1' }, { token: alice });
    expect((await t.call(calls.DeleteFolder.path, { id: a.IdStr }, { token: alice })).body.Code).toBe(Code.Success);
    expect(find((await tree(alice)).Folders, b.IdStr)).toBeUndefined();
    // the name is required and not blank
    const blank = await create('   ', '-1');
    expect(blank.body).toEqual({ Code: Code.Invalid, Msg: 'Enter a folder name.', Data: { Field: 'name' } });
  });

  it('answers a stranger’s folder exactly like a folder that does not exist', async () => {
    const otters = (await tree(bob)).Folders[0]!.Folders[0]!.IdStr;
    for (const [path, body] of [
      [calls.UpdateFolderName.path, { id: otters, name: 'mine' }],
      [calls.DeleteFolder.path, { id: otters }],
      [calls.MoveFolder.path, { id: otters, parentId: '-1' }],
      [calls.CreateFolder.path, { name: 'x', parentId: otters }],
      [calls.GetDetailByFolder.path, { folderId: otters }],
    ] as const) {
      const stranger = await t.call(path, body, { token: alice });
      const missing = await t.call(path, { ...body, ...('id' in body ? { id: '999999' } : {}), ...('parentId' in body && !('id' in body) ? { parentId: '999999' } : {}), ...('folderId' in body ? { folderId: '999999' } : {}) }, { token: alice });
      expect(stranger.body, path).toEqual({ Code: Code.NotFound, Msg: 'No such folder', Data: null });
      expect(missing.body, path).toEqual(stranger.body);
    }
    expect(find((await tree(bob)).Folders, otters)!.Name).toBe('Otters');
  });

  it('answers a stranger’s device exactly like a device that does not exist, for every call that names one', async () => {
    const cases: [string, Record<string, unknown>][] = [
      [calls.MoveDevice.path, { folderId: '-1' }],
      [calls.UpdateRemarkName.path, { remarkName: 'mine' }],
      [calls.SetSecondLevelFixEnable.path, { enabled: 1 }],
      [calls.UpdateProperty.path, { caption: 'mine' }],
      [calls.GetBirdInfo.path, {}],
      [calls.GetWorkStatus.path, {}],
      [calls.GetWorkStatusList.path, {}],
    ];
    for (const [path, extra] of cases) {
      const body = (imei: string) => (path === calls.GetWorkStatusList.path ? { imeis: [imei] } : { imei, ...extra });
      for (const imei of ['B-PRIVATE-1', 'B-EXPIRED-1', 'NO-SUCH-DEVICE']) {
        const r = await t.call(path, body(imei), { token: alice });
        expect(r.body, `${path} ${imei}`).toEqual({ Code: Code.NotFound, Msg: 'No such device', Data: null });
      }
    }
    const getDetail = async (imei: string, token?: string) => {
      const url = `${calls.GetDetailByIMEI.path}?imei=${imei}&timeZone=%2B08:00`;
      const res = await t.app.inject({ method: 'GET', url: API_BASE + url, headers: signedHeaders({ token, method: 'GET', path: url, body: undefined, lcid: LanguageId.en, now: clockNow() }) });
      return res.json() as { Code: number; Msg: string; Data: unknown };
    };
    expect(await getDetail('B-PRIVATE-1', alice)).toEqual({ Code: Code.NotFound, Msg: 'No such device', Data: null });
    expect(await getDetail('B-EXPIRED-1', alice)).toEqual({ Code: Code.NotFound, Msg: 'No such device', Data: null });
    expect((await getDetail('A-TRACKER-1')).Code).toBe(Code.SessionExpired);
    const own = DeviceDetailSchema.parse((await getDetail('A-TRACKER-1', alice)).Data);
    expect(own).toMatchObject({ IMEI: 'A-TRACKER-1', FolderName: 'Cranes', CustomerName: 'Crane Lab', Example: false, Permission: { EditDevice: true } });
    // it never reported a work status: unknown, not a schedule made up for it
    expect(own).toMatchObject({ GNSSCollectionDesc: 'Unknown (the device has not reported it)', SamplingTimes: null });
    const shared = DeviceDetailSchema.parse((await getDetail('B-SHARED-1', alice)).Data);
    expect(shared.Permission.EditDevice).toBe(false);
    expect(shared.FolderName).toBe('');
  });

  it('lets a share recipient read but not edit without the right, and never move the owner’s device', async () => {
    expect((await t.call(calls.SetSecondLevelFixEnable.path, { imei: 'B-SHARED-1', enabled: 1 }, { token: alice })).body).toEqual({
      Code: Code.Forbidden, Msg: 'You do not have the right to edit this device', Data: null,
    });
    expect((await t.call(calls.MoveDevice.path, { imei: 'B-SHARED-1', folderId: '-1' }, { token: alice })).body.Code).toBe(Code.Forbidden);
    expect((await t.call(calls.GetBeastInfo.path, { imei: 'B-SHARED-1' }, { token: alice })).body.Code).toBe(Code.Success);
    expect((await t.call(calls.UpdateRemarkName.path, { imei: 'B-SHARED-1', remarkName: 'Bob’s otter' }, { token: alice })).body.Code).toBe(Code.Success);
  });

  it('allows only a remark-name change on example devices, kept per user', async () => {
    const imei = (await tree(alice)).Folders[1]!.Devices[0]!.IMEI;
    expect((await t.call(calls.UpdateRemarkName.path, { imei, remarkName: 'My stork' }, { token: alice })).body.Code).toBe(Code.Success);
    expect((await tree(alice)).Folders[1]!.Devices[0]!.RemarkName).toBe('My stork');
    expect((await tree(bob)).Folders[1]!.Devices[0]!.RemarkName).toBe('');
    for (const [path, body] of [
      [calls.SetSecondLevelFixEnable.path, { imei, enabled: 0 }],
      [calls.MoveDevice.path, { imei, folderId: '-1' }],
      [calls.UpdateProperty.path, { imei, caption: 'x' }],
    ] as const) {
      expect((await t.call(path, body, { token: alice })).body, path).toEqual({ Code: Code.Forbidden, Msg: 'Experience devices allow only a remark-name change', Data: null });
    }
  });

  it('keeps the tree right when its kept rows are changed in place, and when another writer came between', async () => {
    const where = async () => {
      const data = await tree(alice);
      const walk = (f: TreeFolder): string | undefined => (f.Devices.some((d) => d.IMEI === 'A-DEER-1') ? f.Name : f.Folders.map(walk).find(Boolean));
      return walk(data.Folders[0]!);
    };
    await where(); // rows kept
    await t.call(calls.MoveDevice.path, { imei: 'A-DEER-1', folderId: find((await tree(alice)).Folders, '-1')!.Folders.find((f) => f.Name === 'Cranes')!.IdStr }, { token: alice });
    expect(await where()).toBe('Cranes');
    // another process (the CLI, a second server) changes a device: its bump makes this one re-read
    await t.database.db.updateTable('devices').set({ caption: 'Renamed elsewhere' }).where('imei', '=', 'A-PHONE-1').execute();
    await t.database.db.updateTable('organisations').set({ tree_version: sql<number>`tree_version + 1` }).where('id', '=', aliceOrg).execute();
    await t.call(calls.MoveDevice.path, { imei: 'A-DEER-1', folderId: '-1' }, { token: alice });
    const data = await tree(alice);
    expect(data.Folders[0]!.Devices.map((d) => d.Caption)).toContain('Renamed elsewhere');
    expect(await where()).toBe('Crane Lab');
    await t.call(calls.UpdateProperty.path, { imei: 'A-PHONE-1', caption: 'A-PHONE-1' }, { token: alice });
    expect((await tree(alice)).Folders[0]!.Devices.map((d) => d.Caption)).toContain('A-PHONE-1');
  });

  it('refuses second-level fixes for phones, and sets them for trackers', async () => {
    expect((await t.call(calls.SetSecondLevelFixEnable.path, { imei: 'A-PHONE-1', enabled: 1 }, { token: alice, lang: 'zh' })).body.Msg).toBe('手机不支持秒级定位');
    expect((await t.call(calls.SetSecondLevelFixEnable.path, { imei: 'A-TRACKER-1', enabled: 1 }, { token: alice })).body.Code).toBe(Code.Success);
    const node = find((await tree(alice)).Folders, '-1')!.Folders.find((f) => f.Name === 'Cranes')!.Devices[0]!;
    expect(node.SecondLevelFix).toBe(1);
  });

  it('pages and sorts the devices of a folder, and counts them', async () => {
    const page = async (body: Record<string, unknown>) => (await t.call(calls.GetDetailByFolder.path, { folderId: '-1', ...body }, { token: alice })).body.Data as { List: { IMEI: string }[]; Total: number };
    const first = await page({ currentPage: 1, pageSize: 10, sortField: 'IMEI', sortOrder: 'descend' });
    expect(first.Total).toBe(4);
    expect(first.List.map((d) => d.IMEI)).toEqual(['A-VHF-1', 'A-TRACKER-1', 'A-PHONE-1', 'A-DEER-1']);
    expect((await page({ currentPage: 2, pageSize: 10 })).List).toEqual([]);
    expect((await page({ recursive: false })).Total).toBe(3);
    const badSize = await t.call(calls.GetDetailByFolder.path, { folderId: '-1', pageSize: 7 }, { token: alice });
    expect(badSize.body.Code).toBe(Code.Invalid);
    expect((await t.call(calls.GetCountByFolder.path, { folderId: EXPERIENCE_FOLDER_ID }, { token: alice })).body.Data).toEqual({ Count: 6 });
    expect((await t.call(calls.GetHandheldList.path, {}, { token: alice })).body.Data).toEqual(expect.arrayContaining([{ IMEI: 'A-PHONE-1', Caption: 'A-PHONE-1', RemarkName: '' }]));
  });

  it('saves and reads animal info per species, with custom fields whose names are neither empty nor repeated', async () => {
    const info = {
      IMEI: 'A-TRACKER-1',
      AnimalInfo: { Species: 'Red-crowned crane', ScientificName: 'Grus japonensis', Sex: 2, Age: 3, Weight: 8.5 },
      WorkInfo: { CaptureTime: '2026-05-01 06:30:00', MountTime: '2026-05-01 07:00:00', ReleaseTime: '', ReleaseLon: 124.1, ReleaseLat: 47.2, ReleaseSite: 'Zhalong', Images: [] },
      AdditionalInfo: [{ Name: 'Ring', Value: 'R-17' }],
      Measurements: { WingLength: 64.5, Tarsus: 270 },
    };
    expect((await t.call(calls.SaveBirdInfo.path, { ...info, timeZone: '+08:00' }, { token: alice })).body.Code).toBe(Code.Success);
    const back = (await t.call(calls.GetBirdInfo.path, { imei: 'A-TRACKER-1', timeZone: '+00:00' }, { token: alice })).body.Data as typeof info;
    expect(back.WorkInfo.CaptureTime).toBe('2026-04-30 22:30:00');
    expect(back.AdditionalInfo).toEqual([{ Name: 'Ring', Value: 'R-17' }]);
    expect(back.Measurements).toEqual({ WingLength: 64.5, Tarsus: 270 });
    const dup = await t.call(calls.SaveBirdInfo.path, { ...info, AdditionalInfo: [{ Name: 'Ring', Value: '1' }, { Name: ' ring', Value: '2' }] }, { token: alice });
    expect(dup.body).toEqual({ Code: Code.Invalid, Msg: 'The field name is used twice.', Data: { Field: 'AdditionalInfo[1].Name' } });
    const empty = await t.call(calls.SaveBirdInfo.path, { ...info, AdditionalInfo: [{ Name: ' ', Value: '2' }] }, { token: alice, lang: 'zh' });
    expect(empty.body.Msg).toBe('请输入字段名。');
    const beastMeasure = await t.call(calls.SaveBirdInfo.path, { ...info, Measurements: { HoofLength: 3 } }, { token: alice });
    expect(beastMeasure.body.Code).toBe(Code.Invalid);
    const wrongKind = await t.call(calls.GetBeastInfo.path, { imei: 'A-TRACKER-1' }, { token: alice });
    expect(wrongKind.body).toEqual({ Code: Code.Failed, Msg: 'This device is not fitted to a beast', Data: null });
    const badTime = await t.call(calls.SaveBirdInfo.path, { ...info, WorkInfo: { ...info.WorkInfo, ReleaseTime: '2026-02-30 10:00:00' } }, { token: alice });
    expect(badTime.body).toEqual({ Code: Code.Invalid, Msg: 'The release time must look like YYYY-MM-DD HH:mm:ss.', Data: { Field: 'WorkInfo.ReleaseTime' } });
    const example = (await tree(alice)).Folders[1]!.Devices.find((d) => d.SpeciesType === SpeciesType.Bird)!;
    expect((await t.call(calls.SaveBirdInfo.path, { ...info, IMEI: example.IMEI }, { token: alice })).body.Code).toBe(Code.Forbidden);
    expect((await t.call(calls.GetBirdInfo.path, { imei: example.IMEI }, { token: alice })).body.Code).toBe(Code.Success);
  });

  it('refuses every tree, folder, device, animal-info and work-status call without a session', async () => {
    const paths = [
      calls.GetTree, calls.GetFolderTree, calls.CreateFolder, calls.UpdateFolderName, calls.DeleteFolder, calls.MoveFolder, calls.MoveDevice,
      calls.UpdateRemarkName, calls.SetSecondLevelFixEnable, calls.UpdateProperty, calls.GetDetailByFolder, calls.GetCountByFolder,
      calls.GetHandheldList, calls.SetExperienceFuncEnable, calls.GetBirdInfo, calls.GetBeastInfo, calls.GetOtherSpeciesInfo,
      calls.SaveBirdInfo, calls.SaveBeastInfo, calls.SaveOtherSpeciesInfo, calls.GetWorkStatus, calls.GetWorkStatusList,
    ];
    for (const c of paths) {
      const { body } = await t.call(c.path, { imei: 'A-TRACKER-1', id: '1', folderId: '-1', name: 'x', parentId: '-1' }, { token: sessionCredential('A'.repeat(22), 'expired-or-stolen-token') });
      expect(body.Code, c.path).toBe(Code.SessionExpired);
    }
  });

  it('reads work status of visible devices', async () => {
    const tracker = Number((await t.database.db.selectFrom('devices').select('id').where('imei', '=', 'A-TRACKER-1').executeTakeFirstOrThrow()).id);
    await t.services.ingest.writeBatch(tracker, { workStatus: { at: NOW - 60_000, settings: workSettings({ GNSSCollectionMode: 128 }) } }, null);
    const r = await t.call(calls.GetWorkStatusList.path, { imeis: ['A-TRACKER-1', 'A-PHONE-1'] }, { token: alice });
    expect((r.body.Data as { IMEI: string; Known: boolean; GNSSCollectionMode?: number }[]).map((w) => [w.IMEI, w.Known, w.GNSSCollectionMode])).toEqual([
      ['A-TRACKER-1', true, 128],
      ['A-PHONE-1', false, undefined],
    ]);
  });
});
