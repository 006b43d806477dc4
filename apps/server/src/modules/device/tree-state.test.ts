import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DeviceType, SpeciesType, TreeDataSchema, type TreeState, TreeStateSchema, UNKNOWN_SCHEDULE_REPORT_GAP_MINUTES as DAY } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { DeviceRepository } from './repository.js';
import { ensureSampleDevices } from './samples.js';
import { workSettings } from '../../test/work-settings.js';
import { NOW } from '../../test/fixed-time.js';
import { useFixedClock } from '../../test/clock.js';

/**
 * GetTreeState (issue 12 item 1, the tree's marks): for every device of the caller's tree, each once, when
 * its last fix was taken and its schedule's expected report gap; fresh after each fix and each reported
 * configuration, while GetTree stays as it was.
 */
describe.each(DIALECTS)('tree state on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  const MIN = 60_000;
  // fixed instants, never "now": the last fix is data, the marks are judged by the client's clock
  const T0 = Date.UTC(2026, 9, 1, 0, 0, 0);
  const ids: Record<string, number> = {};
  // The share's window and the sample fleet's last day are the server's clock's: fixed at NOW.
  useFixedClock(NOW);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    const repo = new DeviceRepository(t.database.db);
    await ensureSampleDevices(repo, t.services.devices, t.services.ingest, { days: 1 });
    ({ token: alice } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Lynx Lab' }));
    const heron = await t.services.devices.orgIdByName('Heron Lab');
    const lynx = await t.services.devices.orgIdByName('Lynx Lab');
    const reg = async (orgId: number, imei: string, sensors: ('GNSS' | 'Acceleration')[] = ['GNSS']) =>
      (ids[imei] = (await t.services.devices.register({ orgId, imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors, folderId: null })).id);
    await reg(heron, 'H-NEVER-1');
    await reg(heron, 'H-HERON-1');
    await reg(heron, 'H-REALTIME-1', ['GNSS', 'Acceleration']);
    await reg(lynx, 'L-SHARED-1');
    await reg(lynx, 'L-PRIVATE-1');
    await t.services.ingest.writeBatch(ids['H-HERON-1']!, { fixes: { t: [T0, T0 + 60 * MIN], lon: [121, 121.1], lat: [40, 40.1], voltage: [4.1, 4.1] } }, null, T0 + 61 * MIN);
    await repo.setWorkStatus(ids['H-REALTIME-1']!, JSON.stringify(workSettings({ IntervalMinutes: 30, Realtime: true })), T0);
    const aliceId = Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', heron).executeTakeFirstOrThrow()).id);
    const bobId = Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', lynx).executeTakeFirstOrThrow()).id);
    const now = NOW;
    await t.database.db
      .insertInto('device_shares')
      .values({ device_id: ids['L-SHARED-1']!, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 0, remote_instr: 0, download_data: 1, effective_time: now - 60 * MIN, failure_time: now + 60 * MIN, created_at: now })
      .execute();
  });
  afterAll(async () => t.close());

  const state = async (token: string) => {
    const { body } = await t.call(calls.GetTreeState.path, {}, { token });
    expect(body.Code).toBe(Code.Success);
    return TreeStateSchema.parse(body.Data);
  };
  /** IMEI -> [LastWorkAt, ReportGapMinutes] */
  const byImei = (s: TreeState) => new Map(s.IMEI.map((imei, i) => [imei, [s.LastWorkAt[i], s.ReportGapMinutes[i]] as const]));
  const treeImeis = async (token: string) => {
    const tree = TreeDataSchema.parse((await t.call(calls.GetTree.path, { timeZone: '+08:00' }, { token })).body.Data);
    const out: string[] = [];
    const walk = (f: (typeof tree.Folders)[number]) => (f.Devices.forEach((d) => out.push(d.IMEI)), f.Folders.forEach(walk));
    tree.Folders.forEach(walk);
    return out;
  };

  it('gives every device of the tree once, in columns of one length: own, experience and shared devices', async () => {
    const s = await state(alice);
    expect(s.LastWorkAt).toHaveLength(s.IMEI.length);
    expect(s.ReportGapMinutes).toHaveLength(s.IMEI.length);
    expect(new Set(s.IMEI).size).toBe(s.IMEI.length);
    expect([...s.IMEI].sort()).toEqual([...new Set(await treeImeis(alice))].sort());
    expect(s.IMEI).toEqual(expect.arrayContaining(['H-NEVER-1', 'H-HERON-1', 'H-REALTIME-1', 'L-SHARED-1']));
    expect(s.IMEI).not.toContain('L-PRIVATE-1');
    // the experience folder's devices reported (their fleet ends now)
    const samples = s.IMEI.filter((i) => !i.startsWith('H-') && !i.startsWith('L-'));
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.every((i) => typeof byImei(s).get(i)![0] === 'number')).toBe(true);
    // bob's tree: his two devices, nothing of alice's
    expect((await state(bob)).IMEI.filter((i) => i.startsWith('H-') || i.startsWith('L-')).sort()).toEqual(['L-PRIVATE-1', 'L-SHARED-1']);
  });

  it("gives the last fix as an instant (null when never) and the expected gap of each device's configured schedule", async () => {
    const m = byImei(await state(alice));
    expect(m.get('H-NEVER-1')).toEqual([null, DAY]); // never reported a work status: unknown, judged against a day
    expect(m.get('H-HERON-1')).toEqual([T0 + 60 * MIN, DAY]);
    expect(m.get('H-REALTIME-1')).toEqual([null, 30]); // a fix every 30 min, sent at once
    expect(m.get('L-SHARED-1')).toEqual([null, DAY]);
  });

  it('moves on with new fixes and a newly reported configuration, without any tree change', async () => {
    const tree = await t.call(calls.GetTree.path, { timeZone: '+08:00' }, { token: alice });
    await t.services.ingest.writeBatch(ids['H-NEVER-1']!, { fixes: { t: [T0 + 90 * MIN], lon: [121], lat: [40], voltage: [4.0] } }, null, T0 + 91 * MIN);
    await new DeviceRepository(t.database.db).setWorkStatus(ids['H-HERON-1']!, JSON.stringify(workSettings({ IntervalMinutes: 15, Realtime: true })), T0 + 2 * MIN);
    const m = byImei(await state(alice));
    expect(m.get('H-NEVER-1')).toEqual([T0 + 90 * MIN, DAY]);
    expect(m.get('H-HERON-1')).toEqual([T0 + 60 * MIN, 15]);
    expect(m.get('H-REALTIME-1')).toEqual([null, 30]);
    // the tree itself is the same answer (compared opened: each answer's Data is encrypted with a nonce of its own)
    expect((await t.call(calls.GetTree.path, { timeZone: '+08:00' }, { token: alice })).body).toEqual(tree.body);
  });

  it('refuses a caller without a session', async () => {
    const { body } = await t.call(calls.GetTreeState.path, {});
    expect(body.Code).not.toBe(Code.Success);
  });
});
