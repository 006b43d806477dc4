import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DeviceStatus, DeviceType, type Fence, message, type ShareRecord, SpeciesType, type TreeData, type TreeFolder } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { contractCalls } from '../../test/contract-calls.js';
import { ZONE } from '../../test/fixed-time.js';
import { useFixedClock } from '../../test/clock.js';

/**
 * Issue 26 H2: shares belong to the organisation. Its primary user sees every share its accounts gave,
 * with who gave each, and revokes any; a member's shares end when the member is disabled, and so do the
 * rules a recipient made under them.
 */

/** 2026-11-20 10:00 in +08:00: the server's clock, held there (test/clock.ts). */
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);
const TODAY = '2026-11-20 10:00:00';
const IN_TEN_YEARS = '2036-11-20 10:00:00';

type List = { List: ShareRecord[]; Total: number; Organisation: boolean };

const imeisOf = (tree: TreeData): string[] => {
  const out: string[] = [];
  const walk = (f: TreeFolder) => {
    for (const d of f.Devices) out.push(d.IMEI);
    f.Folders.forEach(walk);
  };
  tree.Folders.forEach(walk);
  return out;
};

describe.each(DIALECTS)("the organisation's shares on %s", (dialect) => {
  useFixedClock(T0);
  let t: TestApp;
  let chief: string;
  let member: string;
  let other: string;
  let outsider: string;
  let outsiderName: string;
  let memberId: number;
  let memberNick: string;
  const { call, data } = contractCalls(() => t, () => chief);

  /** The member shares the device with the outside account for ten years with every right. */
  const memberShares = async (imei: string) => {
    const r = await call(calls.CreateShare, {
      imeis: [imei], account: outsiderName, effectiveTime: TODAY, failureTime: IN_TEN_YEARS, canEditDevice: true, canRemoteInstr: true, canDownloadData: true, timeZone: ZONE,
    }, { token: member });
    expect(r.Code, r.Msg).toBe(Code.Success);
    return (await data<List>(calls.GetSharedListByPage, { timeZone: ZONE }, { token: member })).List.find((s) => s.IMEI === imei)!;
  };
  const outsiderReads = async (imei: string) => (await call(calls.GetFixCount, { imei, startTime: TODAY, endTime: '2026-11-20 12:00:00', timeZone: ZONE }, { token: outsider })).Code;

  beforeAll(async () => {
    t = await createTestApp(dialect, { DOWNLOAD_TASKS: 'off' });
    const c = await t.userWithToken({ org: 'Heron Lab' });
    chief = c.token;
    const m = await t.userWithToken({ org: 'Heron Lab' });
    member = m.token;
    ({ token: other } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: outsider, userName: outsiderName } = await t.userWithToken({ org: 'Crane Lab' }));
    const db = t.database.db;
    await db.updateTable('users').set({ is_primary: 1 }).where('user_name', '=', c.userName).execute();
    const row = await db.selectFrom('users').select(['id', 'nick_name']).where('user_name', '=', m.userName).executeTakeFirstOrThrow();
    [memberId, memberNick] = [Number(row.id), row.nick_name];
    const heron = await t.services.devices.orgIdByName('Heron Lab');
    for (const imei of ['H-REVOKED', 'H-DISABLED']) {
      await t.services.devices.register({ orgId: heron, imei, caption: imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'], instrSupport: [] });
    }
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it("shows the primary user every share of the organisation's accounts with its sharer, and lets the primary user revoke it", async () => {
    const s = await memberShares('H-REVOKED');
    const seen = await data<List>(calls.GetSharedListByPage, { timeZone: ZONE });
    expect(seen.Organisation).toBe(true);
    expect(seen.List.map((x) => [x.IdStr, x.IMEI, x.SharerIdStr, x.SharerName, x.State])).toEqual([[s.IdStr, 'H-REVOKED', String(memberId), memberNick, 'ACTIVE']]);
    expect((await data<{ Count: number }>(calls.GetSharedCount, {})).Count).toBe(1);
    // another member sees their own shares only, and can't revoke the member's
    expect(await data<List>(calls.GetSharedListByPage, { timeZone: ZONE }, { token: other })).toEqual({ List: [], Total: 0, Organisation: false });
    const refused = await call(calls.RevokeShare, { shareIds: [s.IdStr] }, { token: other });
    expect([refused.Code, refused.Msg]).toEqual([Code.NotFound, message('en', 'share.notFound')]);
    // the member's own list is theirs only
    expect((await data<List>(calls.GetSharedListByPage, { timeZone: ZONE }, { token: member })).Organisation).toBe(false);
    // the primary user changes it, then revokes it
    const narrowed = await data<ShareRecord>(calls.UpdateShare, { shareId: s.IdStr, effectiveTime: TODAY, failureTime: '2026-11-21 10:00:00', canDownloadData: true, timeZone: ZONE });
    expect([narrowed.CanRemoteInstr, narrowed.FailureTime, narrowed.SharerName]).toEqual([false, '2026-11-21 10:00:00', memberNick]);
    expect(await outsiderReads('H-REVOKED')).toBe(Code.Success);
    expect(await data(calls.RevokeShare, { shareIds: [s.IdStr] })).toEqual({ Count: 1 });
    expect(await outsiderReads('H-REVOKED')).toBe(Code.NotFound);
    expect((await data<List>(calls.GetSharedListByPage, { timeZone: ZONE })).Total).toBe(0);
  });

  it("ends a disabled member's shares: the outside account reads nothing more, its rules are withdrawn, the primary user sees the share ended", async () => {
    const s = await memberShares('H-DISABLED');
    const fence = await data<Fence>(calls.CreateFence, {
      label: 'Outside rule', shape: { Type: 'Circle', Center: [121, 31], Radius: 500 }, inOrOut: 'BOTH', ruleType: 1, allowSendInstr: 1, imeis: ['H-DISABLED'],
      collection: { Mode: 'INTERVAL', IntervalMinutes: 5 }, postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512 }, timeZone: ZONE,
    }, { token: outsider });
    expect(await outsiderReads('H-DISABLED')).toBe(Code.Success);

    const off = await call(calls.SetMemberEnabled, { memberId: String(memberId), enabled: 0, timeZone: ZONE });
    expect(off.Code, off.Msg).toBe(Code.Success);

    expect(await outsiderReads('H-DISABLED')).toBe(Code.NotFound);
    expect(imeisOf(await data<TreeData>(calls.GetTree, { timeZone: ZONE }, { token: outsider }))).not.toContain('H-DISABLED');
    const instr = await call(calls.SendInstruction, { imeis: ['H-DISABLED'], params: { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: 5, PacketSize: 512 } } }, { token: outsider });
    expect(instr.Code).toBe(Code.NotFound);
    const outsiders = (await data<{ List: Fence[] }>(calls.GetFenceList, { timeZone: ZONE }, { token: outsider })).List.find((f) => f.Id === fence.Id)!;
    expect(outsiders.Devices).toEqual([]);
    // the share stays in the organisation's list, ended at the disabling, with who gave it
    const ended = (await data<List>(calls.GetSharedListByPage, { timeZone: ZONE })).List.find((x) => x.IdStr === s.IdStr)!;
    expect([ended.State, ended.FailureTime, ended.SharerName]).toEqual(['EXPIRED', TODAY, memberNick]);
    // enabling the member again brings none of it back
    expect((await call(calls.SetMemberEnabled, { memberId: String(memberId), enabled: 1, timeZone: ZONE })).Code).toBe(Code.Success);
    expect(await outsiderReads('H-DISABLED')).toBe(Code.NotFound);
  });
});
