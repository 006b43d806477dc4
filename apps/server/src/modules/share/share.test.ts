import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DeviceStatus, DeviceType, message, type ShareRecord, SpeciesType, type TreeData, type TreeFolder } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { contractCalls } from '../../test/contract-calls.js';
import { DAY, HOUR, local, ZONE } from '../../test/fixed-time.js';
import { setClock, useFixedClock } from '../../test/clock.js';
import { LOOKUP_WINDOW_MS, LOOKUPS_PER_ADDRESS, LOOKUPS_PER_USER } from './service.js';

/** 2026-11-20 10:00 in +08:00: the server's clock is fixed here (test/clock.ts). */
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);
const TODAY = '2026-11-20 10:00:00';
const TOMORROW = '2026-11-21 10:00:00';

/** Every device of a tree with the permission it names, by IMEI, and the folder it sits in. */
function devicesOf(tree: TreeData): Map<string, { folder: string; rights: TreeData['Permissions'][number] }> {
  const out = new Map<string, { folder: string; rights: TreeData['Permissions'][number] }>();
  const walk = (f: TreeFolder) => {
    for (const d of f.Devices) out.set(d.IMEI, { folder: f.IdStr, rights: tree.Permissions[d.Permission]! });
    f.Folders.forEach(walk);
  };
  tree.Folders.forEach(walk);
  return out;
}

describe.each(DIALECTS)('device sharing on %s', (dialect) => {
  useFixedClock(T0);
  let t: TestApp;
  let alice: string;
  let bob: string;
  let dave: string;
  let aliceName: string;
  let bobName: string;
  let carolName: string;
  let aliceId: number;
  let bobId: number;

  const { call, data } = contractCalls(() => t, () => alice);
  const shareBody = (extra: Record<string, unknown> = {}) => ({
    imeis: ['H-ONE'], account: bobName, effectiveTime: TODAY, failureTime: TOMORROW, canDownloadData: true, timeZone: ZONE, ...extra,
  });
  const rows = async () => (await t.database.db.selectFrom('device_shares').selectAll().orderBy('id').execute()).map((r) => ({ ...r, id: Number(r.id) }));
  const treeOf = async (token: string) => devicesOf(await data<TreeData>(calls.GetTree, { timeZone: ZONE }, { token }));
  const mine = (token = alice) => data<{ List: ShareRecord[]; Total: number }>(calls.GetSharedListByPage, { timeZone: ZONE }, { token });
  const received = (token = bob) => data<{ List: ShareRecord[]; Total: number }>(calls.GetReceivedListByPage, { timeZone: ZONE }, { token });
  /** A refusal that stores nothing: the code, and the message or the field named. */
  const refused = async (body: Record<string, unknown>, code: number, expect601Field?: string, opts: { token?: string | null; lang?: 'en' | 'zh' } = {}) => {
    const before = await rows();
    const r = await call(calls.CreateShare, body, opts);
    expect(r.Code, r.Msg).toBe(code);
    if (expect601Field) expect((r.Data as { Field?: string }).Field).toBe(expect601Field);
    expect(await rows()).toEqual(before);
    return r;
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice, userName: aliceName } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob, userName: bobName } = await t.userWithToken({ org: 'Crane Lab', email: 'bob.crane@example.org' }));
    ({ userName: carolName } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: dave } = await t.userWithToken({ org: 'Egret Lab' }));
    const idOf = async (name: string) => Number((await t.database.db.selectFrom('users').select('id').where('user_name', '=', name).executeTakeFirstOrThrow()).id);
    [aliceId, bobId] = [await idOf(aliceName), await idOf(bobName)];
    const heron = await t.services.devices.orgIdByName('Heron Lab');
    const egret = await t.services.devices.orgIdByName('Egret Lab');
    const reg = (orgId: number, imei: string, type: DeviceType = DeviceType.Tracker) =>
      t.services.devices.register({ orgId, imei, caption: `${imei} stork`, type, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'] });
    await reg(heron, 'H-ONE');
    await reg(heron, 'H-TWO');
    await reg(heron, 'H-VHF', DeviceType.VHFReceiver);
    await reg(egret, 'E-ONE');
    // An expired share of H-TWO with bob (ended an hour ago).
    const h2 = Number((await t.database.db.selectFrom('devices').select('id').where('imei', '=', 'H-TWO').executeTakeFirstOrThrow()).id);
    await t.database.db.insertInto('device_shares').values({
      device_id: h2, owner_user_id: aliceId, recipient_user_id: bobId, edit_device: 1, remote_instr: 1, download_data: 1, effective_time: T0 - 3 * DAY, failure_time: T0 - HOUR, created_at: T0 - 3 * DAY,
    }).execute();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('finds the recipient by user name or e-mail, answering only whether it exists and its nickname', async () => {
    const nick = (await t.database.db.selectFrom('users').select('nick_name').where('id', '=', bobId).executeTakeFirstOrThrow()).nick_name;
    const byName = await call(calls.GetShareRecipient, { account: bobName.toUpperCase() });
    expect(byName.Code).toBe(Code.Success);
    expect(byName.Data).toEqual({ Exists: true, NickName: nick });
    expect((await call(calls.GetShareRecipient, { account: 'Bob.Crane@example.org' })).Data).toEqual({ Exists: true, NickName: nick });
    expect((await call(calls.GetShareRecipient, { account: 'nobody-here' })).Data).toEqual({ Exists: false, NickName: '' });
    expect((await call(calls.GetShareRecipient, { account: bobName }, { token: null })).Code).toBe(Code.SessionExpired);
  });

  it('refuses a share that may not be made, storing nothing', async () => {
    // no token
    expect([Code.SessionExpired, Code.BadSignature]).toContain((await refused(shareBody(), Code.SessionExpired, undefined, { token: null })).Code);
    // a stranger does not see the device
    expect((await refused(shareBody({ account: aliceName }), Code.NotFound, undefined, { token: dave })).Msg).toBe(message('en', 'device.notFound'));
    // one device of another organisation among the caller's: nothing at all
    await refused(shareBody({ imeis: ['H-ONE', 'E-ONE'] }), Code.NotFound);
    // an expired share: the device is gone from bob's view
    await refused(shareBody({ imeis: ['H-TWO'], account: carolName }), Code.NotFound, undefined, { token: bob });
    // a VHF receiver
    expect((await refused(shareBody({ imeis: ['H-ONE', 'H-VHF'] }), Code.Failed, undefined, { lang: 'zh' })).Msg).toContain('H-VHF');
    // yourself, your own organisation, nobody
    expect((await refused(shareBody({ account: aliceName }), Code.Invalid, 'account')).Msg).toBe(message('en', 'share.self'));
    expect((await refused(shareBody({ account: carolName }), Code.Invalid, 'account')).Msg).toBe(message('en', 'share.sameOrg'));
    expect((await refused(shareBody({ account: 'nobody-here' }), Code.Invalid, 'account')).Msg).toBe(message('en', 'share.noAccount'));
    // a window that ends before (or when) it starts, or is not a time
    await refused(shareBody({ effectiveTime: TOMORROW, failureTime: TODAY }), Code.Invalid, 'failureTime');
    await refused(shareBody({ failureTime: TODAY }), Code.Invalid, 'failureTime');
    await refused(shareBody({ effectiveTime: '2026-02-30 10:00:00' }), Code.Invalid, 'effectiveTime');
    await refused(shareBody({ account: '' }), Code.Invalid, 'account');
  });

  it('shares a device for a day with DownloadData only: in the recipient\'s tree under the sharer\'s folder, rights enforced', async () => {
    const r = await call(calls.CreateShare, shareBody());
    expect(r.Code, r.Msg).toBe(Code.Success);
    expect(r.Data).toEqual({ Count: 1 });
    const seen = (await treeOf(bob)).get('H-ONE');
    expect(seen?.folder).toBe(`share-${aliceId}`);
    expect(seen?.rights).toMatchObject({ DownloadData: true, RemoteInstr: false, EditDevice: false, ShareDevice: false, EffectiveTime: TODAY, FailureTime: TOMORROW });
    expect((await treeOf(bob)).has('H-TWO')).toBe(false);
    // instructions refused, and the recipient may not pass it on
    const instr = await t.call(calls.SendInstruction.path, { imeis: ['H-ONE'], params: { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: 5, PacketSize: 512 } } }, { token: bob });
    expect(instr.body.Code).toBe(Code.Forbidden);
    expect((await refused(shareBody({ account: 'bob.crane@example.org' }), Code.Forbidden, undefined, { token: bob })).Msg).toContain('H-ONE');

    // both lists, and the count
    const given = await mine();
    expect(given.Total).toBe(2);
    expect(given.List[0]).toMatchObject({ IMEI: 'H-ONE', UserIdStr: String(bobId), EffectiveTime: TODAY, FailureTime: TOMORROW, CanDownloadData: true, CanRemoteInstr: false, CanEditDevice: false, State: 'ACTIVE' });
    expect(given.List[1]).toMatchObject({ IMEI: 'H-TWO', State: 'EXPIRED' });
    expect((await data<{ Count: number }>(calls.GetSharedCount, {})).Count).toBe(2);
    const got = await received();
    expect(got.List.map((s) => [s.IMEI, s.UserIdStr])).toEqual([['H-ONE', String(aliceId)], ['H-TWO', String(aliceId)]]);
    expect((await received(dave)).Total).toBe(0);
    expect((await mine(bob)).Total).toBe(0);

    // sharing again with the same account replaces the terms: still one row for the device
    const count = (await rows()).length;
    expect((await call(calls.CreateShare, shareBody({ account: 'bob.crane@example.org', canRemoteInstr: true }))).Code).toBe(Code.Success);
    expect((await rows()).length).toBe(count);
    expect((await treeOf(bob)).get('H-ONE')?.rights.RemoteInstr).toBe(true);
  });

  it('changes a share\'s window and rights only for its sharer', async () => {
    const id = (await mine()).List.find((s) => s.IMEI === 'H-ONE')!.IdStr;
    const before = await rows();
    const stranger = await call(calls.UpdateShare, { shareId: id, effectiveTime: TODAY, failureTime: '2026-12-20 10:00:00', canEditDevice: true, timeZone: ZONE }, { token: bob });
    expect(stranger.Code).toBe(Code.NotFound);
    expect(stranger.Msg).toBe(message('en', 'share.notFound'));
    const reversed = await call(calls.UpdateShare, { shareId: id, effectiveTime: TOMORROW, failureTime: TODAY, timeZone: ZONE });
    expect([reversed.Code, (reversed.Data as { Field: string }).Field]).toEqual([Code.Invalid, 'failureTime']);
    expect(await rows()).toEqual(before);

    const changed = await data<ShareRecord>(calls.UpdateShare, { shareId: id, effectiveTime: TODAY, failureTime: '2026-12-20 10:00:00', canEditDevice: true, timeZone: ZONE });
    expect(changed).toMatchObject({ FailureTime: '2026-12-20 10:00:00', CanEditDevice: true, CanRemoteInstr: false, CanDownloadData: false, State: 'ACTIVE' });
    expect((await treeOf(bob)).get('H-ONE')?.rights).toMatchObject({ EditDevice: true, DownloadData: false, RemoteInstr: false, FailureTime: '2026-12-20 10:00:00' });
    // a window that starts tomorrow: out of the tree until then
    await data(calls.UpdateShare, { shareId: id, effectiveTime: TOMORROW, failureTime: '2026-12-20 10:00:00', canDownloadData: true, timeZone: ZONE });
    expect((await treeOf(bob)).has('H-ONE')).toBe(false);
    expect((await mine()).List.find((s) => s.IdStr === id)?.State).toBe('PENDING');
    await data(calls.UpdateShare, { shareId: id, effectiveTime: TODAY, failureTime: TOMORROW, canDownloadData: true, timeZone: ZONE });
  });

  it('revokes only the sharer\'s shares, all or none, and the device leaves the recipient\'s tree', async () => {
    const ids = (await mine()).List.map((s) => s.IdStr);
    const before = await rows();
    expect((await call(calls.RevokeShare, { shareIds: ids }, { token: bob })).Code).toBe(Code.NotFound);
    expect((await call(calls.RevokeShare, { shareIds: [...ids, '999999'] })).Code).toBe(Code.NotFound);
    expect((await call(calls.RevokeShare, { shareIds: [] })).Code).toBe(Code.Invalid);
    expect(await rows()).toEqual(before);
    expect((await treeOf(bob)).has('H-ONE')).toBe(true);

    expect(await data(calls.RevokeShare, { shareIds: ids })).toEqual({ Count: ids.length });
    expect((await treeOf(bob)).has('H-ONE')).toBe(false);
    expect((await received()).Total).toBe(0);
    expect(await rows()).toEqual([]);
    // the device is the recipient's no more: its calls answer as for a device that does not exist
    expect((await t.call(calls.GetFixCount.path, { imei: 'H-ONE', startTime: TODAY, endTime: TOMORROW, timeZone: ZONE }, { token: bob })).body.Code).toBe(Code.NotFound);
  });
});

describe.each(DIALECTS)('account look-ups of device sharing on %s', (dialect) => {
  useFixedClock(T0);
  let t: TestApp;
  let alice: string;
  let bob: string;
  let carol: string;
  let dave: string;
  let bobName: string;
  const { call } = contractCalls(() => t, () => alice);
  const lookUp = (account: string, token: string, lang: 'en' | 'zh' = 'en') => call(calls.GetShareRecipient, { account }, { token, lang });

  beforeAll(async () => {
    // an app of its own: the counters start at nought whatever the tests above did
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob, userName: bobName } = await t.userWithToken({ org: 'Crane Lab' }));
    ({ token: carol } = await t.userWithToken({ org: 'Egret Lab' }));
    ({ token: dave } = await t.userWithToken({ org: 'Ibis Lab' }));
    const heron = await t.services.devices.orgIdByName('Heron Lab');
    await t.services.devices.register({ orgId: heron, imei: 'H-ONE', caption: 'H-ONE stork', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'] });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('answers 1012 in the caller\'s language past the look-ups a user and an address may make in the window', async () => {
    // T0 is 02:00 UTC, the start of a 15-minute window: the refusal names its 15 minutes
    for (let i = 0; i < LOOKUPS_PER_USER; i++) expect((await lookUp(`probe-${i}`, alice)).Code).toBe(Code.Success);
    const en = await lookUp(bobName, alice);
    expect([en.Code, en.Msg, en.Data]).toEqual([Code.TooManyRequests, message('en', 'share.lookupLimit', { minutes: 15 }), null]);
    expect((await lookUp(bobName, alice, 'zh')).Msg).toBe(message('zh', 'share.lookupLimit', { minutes: 15 }));
    // a share names its recipient too: refused the same way, nothing stored
    const create = await call(calls.CreateShare, { imeis: ['H-ONE'], account: bobName, effectiveTime: TODAY, failureTime: TOMORROW, timeZone: ZONE });
    expect(create.Code).toBe(Code.TooManyRequests);
    expect(await t.database.db.selectFrom('device_shares').selectAll().execute()).toEqual([]);

    // another user from the same address goes on, until the address has made its look-ups (33 so far)
    for (let i = 0; i < LOOKUPS_PER_USER; i++) expect((await lookUp(`probe-${i}`, bob)).Code).toBe(Code.Success);
    for (let i = 0; i < LOOKUPS_PER_ADDRESS - 2 * LOOKUPS_PER_USER - 3; i++) expect((await lookUp(`probe-${i}`, carol)).Code).toBe(Code.Success);
    expect((await lookUp(bobName, dave)).Code).toBe(Code.TooManyRequests);

    // the next window starts afresh
    setClock(T0 + LOOKUP_WINDOW_MS);
    expect(await lookUp(bobName, alice)).toMatchObject({ Code: Code.Success, Data: { Exists: true } });
  });
});

describe.each(DIALECTS)("a share's window on the server's clock on %s", (dialect) => {
  // The window ends at END; the server reads its clock (lib/clock.ts), set here a second either side.
  const END = T0 + DAY;
  useFixedClock(T0);
  let t: TestApp;
  let alice: string;
  let bob: string;
  let bobName: string;
  const { call, data } = contractCalls(() => t, () => alice);
  const inBobsTree = async () => devicesOf(await data<TreeData>(calls.GetTree, { timeZone: ZONE }, { token: bob })).has('H-ONE');

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob, userName: bobName } = await t.userWithToken({ org: 'Crane Lab' }));
    const heron = await t.services.devices.orgIdByName('Heron Lab');
    await t.services.devices.register({ orgId: heron, imei: 'H-ONE', caption: 'H-ONE stork', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'] });
    const made = await call(calls.CreateShare, { imeis: ['H-ONE'], account: bobName, effectiveTime: local(T0), failureTime: local(END), canDownloadData: true, timeZone: ZONE });
    expect(made.Code, made.Msg).toBe(Code.Success);
  }, 60_000);
  afterAll(async () => t?.close());

  const fixCount = () => call(calls.GetFixCount, { imei: 'H-ONE', startTime: local(T0 - DAY), endTime: local(END), timeZone: ZONE }, { token: bob });

  it('lets the recipient read the device a second before the window ends, and refuses it a second after', async () => {
    setClock(END - 1_000);
    expect((await fixCount()).Code).toBe(Code.Success);
    expect(await inBobsTree()).toBe(true);
    setClock(END + 1_000);
    expect((await fixCount()).Code).toBe(Code.NotFound);
    expect(await inBobsTree()).toBe(false);
  });
});
