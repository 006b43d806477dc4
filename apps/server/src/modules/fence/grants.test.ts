import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DeviceStatus, DeviceType, type Fence, type DeviceFence, type IngestAnswer, message, type ShareRecord, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { contractCalls } from '../../test/contract-calls.js';
import { deviceCalls } from '../../test/device-calls.js';
import { HOUR, MIN, ZONE } from '../../test/fixed-time.js';
import { setClock, useFixedClock } from '../../test/clock.js';

/**
 * Issue 26 H1: a share recipient's fences on the owner's device act only while the share grants
 * RemoteInstr. Each case ends the grant its own way (revoked, narrowed, expired) and then checks the three
 * things the probe saw go on: instructions sent by the server-side rule, the device-side rule handed to the
 * device, and the owner not seeing the fences.
 */

/** 2026-11-20 10:00 in +08:00: the clock (Date only). */
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);
const AT = (ms: number) => new Date(ms + 8 * HOUR).toISOString().slice(0, 19).replace('T', ' ');
const SQUARE = [[121, 31], [121.1, 31], [121.1, 31.1], [121, 31.1]];
const OUTSIDE = [120.9, 30.95] as const;
const INSIDE = [121.05, 31.05] as const;
const fenceBody = (label: string, imei: string, ruleType: 1 | 2) => ({
  label,
  shape: ruleType === 1 ? { Type: 'Polygon', Coordinates: SQUARE } : { Type: 'Circle', Center: [...INSIDE], Radius: 800 },
  inOrOut: 'BOTH',
  ruleType,
  allowSendInstr: 1,
  imeis: [imei],
  collection: { Mode: 'INTERVAL', IntervalMinutes: 5 },
  postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512 },
  timeZone: ZONE,
});

describe.each(DIALECTS)('fence rules made under a share, after the share ends, on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let bobName: string;
  const secrets = new Map<string, string>();
  const ids = new Map<string, number>();
  const { call, data } = contractCalls(() => t, () => alice);
  const device = deviceCalls(() => t, secrets);

  const instructionsOf = async (imei: string) =>
    Number((await t.database.db.selectFrom('instructions').select((eb) => eb.fn.countAll<number>().as('n')).where('device_id', '=', ids.get(imei)!).executeTakeFirstOrThrow()).n);
  const handed = (a: IngestAnswer, fenceId: number) => (a.fenceRules ?? []).filter((r) => r.fenceId === fenceId);
  const aliceFences = async () => (await data<{ List: Fence[] }>(calls.GetFenceList, { timeZone: ZONE })).List;

  /** Alice shares the device with bob (remote instructions on), bob makes a server-side and a device-side fence on it, both sending instructions. */
  const arrange = async (imei: string, window: { from: number; to: number }) => {
    const shared = await call(calls.CreateShare, { imeis: [imei], account: bobName, effectiveTime: AT(window.from), failureTime: AT(window.to), canRemoteInstr: true, timeZone: ZONE });
    expect(shared.Code, shared.Msg).toBe(Code.Success);
    const remote = await data<Fence>(calls.CreateFence, fenceBody(`Bob remote ${imei}`, imei, 1), { token: bob });
    const onboard = await data<Fence>(calls.CreateFence, fenceBody(`Bob on-board ${imei}`, imei, 2), { token: bob });
    const shareId = (await data<{ List: ShareRecord[] }>(calls.GetSharedListByPage, { timeZone: ZONE })).List.find((s) => s.IMEI === imei)!.IdStr;
    return { remote, onboard, shareId };
  };

  /** While the share lasts: the device is handed bob's device rule, and crossing bob's fence sends its two instructions. */
  const actWhileGranted = async (imei: string, remote: Fence, onboard: Fence, at: number) => {
    const first = await device.batch(imei, [[at, ...OUTSIDE]]);
    expect(handed(first, onboard.Id)).toMatchObject([{ removed: false }]);
    await device.batch(imei, [[at + MIN, ...INSIDE]]);
    expect(await instructionsOf(imei)).toBe(2);
    void remote;
  };

  /** After the end: crossing sends nothing more, the device rule is not handed, and its removal is. */
  const expectStopped = async (imei: string, onboard: Fence, at: number) => {
    const before = await instructionsOf(imei);
    const a = await device.batch(imei, [[at, ...OUTSIDE]]);
    expect(await instructionsOf(imei), 'instructions sent by a rule whose grant ended').toBe(before);
    expect(handed(a, onboard.Id).filter((r) => !r.removed), 'the device rule still handed to the device').toEqual([]);
    expect(handed(a, onboard.Id).filter((r) => r.removed), 'the device rule not withdrawn from the device').toHaveLength(1);
    // bob's fences hold the device no more, and alice has nothing left of them to see
    const bobs = (await data<{ List: Fence[] }>(calls.GetFenceList, { timeZone: ZONE }, { token: bob })).List.filter((f) => f.Label.endsWith(imei));
    expect(bobs.map((f) => f.Devices.length)).toEqual([0, 0]);
    expect(await t.database.db.selectFrom('fence_rules').select('id').where('device_id', '=', ids.get(imei)!).execute()).toEqual([]);
  };

  // The server's clock (and the signatures) fixed at T0 for each test and the data made before them.
  useFixedClock(T0);
  beforeAll(async () => {
    t = await createTestApp(dialect, { DOWNLOAD_TASKS: 'off' });
    ({ token: alice } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob, userName: bobName } = await t.userWithToken({ org: 'Crane Lab' }));
    const heron = await t.services.devices.orgIdByName('Heron Lab');
    for (const imei of ['A-REVOKE', 'A-NARROW', 'A-EXPIRE', 'A-OWNER']) {
      const r = await t.services.devices.register({ orgId: heron, imei, caption: imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'], instrSupport: [] });
      secrets.set(imei, r.secret);
      ids.set(imei, Number(r.id));
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('shows the owner every fence with a rule on its devices, marked as whose it is; the owner takes its devices out of it', async () => {
    const { remote, onboard } = await arrange('A-OWNER', { from: T0 - HOUR, to: T0 + 30 * 24 * HOUR });
    const seen = (await aliceFences()).filter((f) => f.Label.endsWith('A-OWNER'));
    expect(seen.map((f) => [f.Label, f.Owner?.OrgName, f.Editable, f.Removable, f.Devices.map((d) => d.IMEI)])).toEqual([
      ['Bob on-board A-OWNER', 'Crane Lab', false, true, ['A-OWNER']],
      ['Bob remote A-OWNER', 'Crane Lab', false, true, ['A-OWNER']],
    ]);
    const onDevice = (await data<{ List: DeviceFence[] }>(calls.GetDeviceFenceList, { imei: 'A-OWNER', timeZone: ZONE })).List;
    expect(onDevice.map((x) => x.Fence.Label).sort()).toEqual(['Bob on-board A-OWNER', 'Bob remote A-OWNER']);
    // bob's own list shows them as his
    const bobs = (await data<{ List: Fence[] }>(calls.GetFenceList, { timeZone: ZONE }, { token: bob })).List.find((f) => f.Id === remote.Id)!;
    expect([bobs.Owner, bobs.Editable]).toEqual([null, true]);
    // seen, not changed: the owner may only take its devices out
    const changed = await call(calls.EnableFence, { fenceId: remote.IdStr, enabled: 0 });
    expect([changed.Code, changed.Msg]).toEqual([Code.Forbidden, message('en', 'fence.foreign', { org: 'Crane Lab' })]);
    const first = await device.batch('A-OWNER', [[T0 - 30 * MIN, ...OUTSIDE]]);
    expect(handed(first, onboard.Id)).toMatchObject([{ removed: false }]);
    expect((await call(calls.DeleteFence, { fenceId: remote.IdStr })).Code).toBe(Code.Success);
    expect((await call(calls.DeleteFence, { fenceId: onboard.IdStr })).Code).toBe(Code.Success);
    // bob's fences stay bob's, without alice's device; the device is told to drop the on-board one
    const after = (await data<{ List: Fence[] }>(calls.GetFenceList, { timeZone: ZONE }, { token: bob })).List.filter((f) => f.Label.endsWith('A-OWNER'));
    expect(after.map((f) => f.Devices.length)).toEqual([0, 0]);
    expect((await aliceFences()).filter((f) => f.Label.endsWith('A-OWNER'))).toEqual([]);
    const next = await device.batch('A-OWNER', [[T0 - 20 * MIN, ...INSIDE]]);
    expect(handed(next, onboard.Id).map((r) => r.removed)).toEqual([true]);
    expect(await instructionsOf('A-OWNER')).toBe(0);
  });

  it('a revoked share: the rules send nothing, the device rule is withdrawn, the rules are gone', async () => {
    const { remote, onboard, shareId } = await arrange('A-REVOKE', { from: T0 - HOUR, to: T0 + 30 * 24 * HOUR });
    await actWhileGranted('A-REVOKE', remote, onboard, T0 - 40 * MIN);
    expect((await call(calls.RevokeShare, { shareIds: [shareId] })).Code).toBe(Code.Success);
    await expectStopped('A-REVOKE', onboard, T0 - 30 * MIN);
  });

  it('a share narrowed to no remote instructions: likewise', async () => {
    const { remote, onboard, shareId } = await arrange('A-NARROW', { from: T0 - HOUR, to: T0 + 30 * 24 * HOUR });
    await actWhileGranted('A-NARROW', remote, onboard, T0 - 40 * MIN);
    const r = await call(calls.UpdateShare, { shareId, effectiveTime: AT(T0 - HOUR), failureTime: AT(T0 + 30 * 24 * HOUR), canDownloadData: true, timeZone: ZONE });
    expect(r.Code, r.Msg).toBe(Code.Success);
    await expectStopped('A-NARROW', onboard, T0 - 30 * MIN);
  });

  it('an expired share: the rules send nothing at once, and the minute\'s sweep withdraws them', async () => {
    const { remote, onboard } = await arrange('A-EXPIRE', { from: T0 - HOUR, to: T0 + HOUR });
    await actWhileGranted('A-EXPIRE', remote, onboard, T0 - 40 * MIN);
    setClock(T0 + 2 * HOUR);
    // before the sweep: the rule is still stored, but it asks for its right as it acts
    const before = await instructionsOf('A-EXPIRE');
    const a = await device.batch('A-EXPIRE', [[T0 + 90 * MIN, ...OUTSIDE]]);
    expect(await instructionsOf('A-EXPIRE')).toBe(before);
    expect(handed(a, onboard.Id).filter((r) => !r.removed)).toEqual([]);
    // the job's pass (jobs/index.ts 'fence rules past their grant')
    expect(await t.services.fences.withdrawUngranted()).toBe(2);
    await expectStopped('A-EXPIRE', onboard, T0 + 100 * MIN);
  });
});
