import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  type CallDef,
  FENCE_MAX_VERTICES,
  FENCE_SHP_MAX_RINGS,
  calls,
  Code,
  DeviceStatus,
  DeviceType,
  type Fence,
  type ImportedFence,
  FENCE_IMPORT_PATH,
  FENCE_SHP_MAX_BYTES,
  type FenceRule,
  INGEST_BASE,
  ingestHeaders,
  LanguageId,
  signedHeaders,
  SpeciesType,
} from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { contractCalls } from '../../test/contract-calls.js';
import { DAY, HOUR, MIN, ZONE } from '../../test/fixed-time.js';
import { createIngestService } from '../../ingest/service.js';
import { attachFenceEvaluation } from './evaluation.js';
import { FenceRepository } from './repository.js';
import { polygonShp } from './shp-writer.test-util.js';
import { readShpInWorker, shpReads } from './shp-import.js';
import { now as clockNow, setClock, useFixedClock } from '../../test/clock.js';

/** A star-shaped ring of n vertices (not crossing itself) around [lng, lat], closed, clockwise as a shapefile's outer ring. */
const star = (lng: number, lat: number, n: number): [number, number][] => {
  const ring = Array.from({ length: n }, (_, i): [number, number] => {
    const a = (-2 * Math.PI * i) / n;
    const r = 0.01 * (1 + 0.3 * Math.sin(i * 7));
    return [lng + r * Math.cos(a), lat + r * Math.sin(a)];
  });
  return [...ring, ring[0]!];
};
/** A file of `count` such rings of 5,000 vertices (~80 kB each): seconds of geometry to check. */
const heavyShp = (count: number) => polygonShp(Array.from({ length: count }, (_, i) => star(100 + (i % 10) * 0.05, 10 + Math.floor(i / 10) * 0.05, 5000)));

/** 2026-11-20 10:00 in +08:00: the clock (Date only). */
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);
const SQUARE = [[121, 31], [121.1, 31], [121.1, 31.1], [121, 31.1]];
const settings = (imeis: string[], over: Record<string, unknown> = {}) => ({
  inOrOut: 'BOTH',
  ruleType: 1,
  imeis,
  collection: { Mode: 'INTERVAL', IntervalMinutes: 5 },
  postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512 },
  ...over,
});

describe.each(DIALECTS)('geofences on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  const secrets = new Map<string, string>();
  const ids = new Map<string, number>();

  const { call, data } = contractCalls(() => t, () => alice);
  const create = (label: string, shape: unknown, s: Record<string, unknown>, opts: { token?: string | null; lang?: 'en' | 'zh' } = {}) =>
    call(calls.CreateFence, { label, shape, ...s, timeZone: ZONE }, opts);
  const count = async (table: 'fences' | 'fence_rules' | 'events' | 'instructions' | 'fence_states') =>
    Number((await t.database.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const snapshot = async () => ({ fences: await count('fences'), rules: await count('fence_rules'), states: await count('fence_states') });
  const batch = async (imei: string, fixes: [number, number | null, number | null][]) => {
    const body = JSON.stringify({ fixes: { t: fixes.map((f) => f[0]), lon: fixes.map((f) => f[1]), lat: fixes.map((f) => f[2]) } });
    const path = `${INGEST_BASE}/batch`;
    const res = await t.app.inject({ method: 'POST', url: path, headers: { ...ingestHeaders({ imei, secret: secrets.get(imei)!, path, body, now: clockNow() }), 'content-type': 'application/json' }, payload: body });
    expect(res.statusCode, res.body).toBe(200);
  };
  const deviceCall = async (imei: string, route: '/batch' | '/fence-ack', payload: unknown) => {
    const body = JSON.stringify(payload);
    const path = `${INGEST_BASE}${route}`;
    const res = await t.app.inject({ method: 'POST', url: path, headers: { ...ingestHeaders({ imei, secret: secrets.get(imei)!, path, body, now: clockNow() }), 'content-type': 'application/json' }, payload: body });
    return { status: res.statusCode, body: res.json() as { fenceRules?: { fenceId: number; version: number; removed: boolean; inOrOut: string; instrs: { Type: string }[] }[] } };
  };
  const fenceEvents = async (imei: string) =>
    (await t.database.db.selectFrom('events').select(['type', 'happen_time', 'content']).where('device_id', '=', ids.get(imei)!).where('type', '=', 1).orderBy('id').execute()).map((e) => ({
      at: Number(e.happen_time),
      ...(JSON.parse(e.content) as { kind: string; fence: string }),
    }));
  const upload = async (file: { name: string; bytes: Buffer } | null, fields: Record<string, string>, opts: { token?: string; lang?: 'en' | 'zh' } = {}) => {
    const boundary = '----wildtrack-fence';
    const chunks: Buffer[] = [];
    for (const [k, v] of Object.entries(fields)) chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
    if (file) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`), file.bytes, Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    const res = await t.app.inject({
      method: 'POST',
      url: API_BASE + FENCE_IMPORT_PATH,
      headers: { ...signedHeaders({ token: opts.token ?? alice, path: FENCE_IMPORT_PATH, body: undefined, lcid: LanguageId[opts.lang ?? 'en'], now: clockNow() }), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat(chunks),
    });
    return res.json() as { Code: number; Msg: string; Data: { List: ImportedFence[] } | null };
  };

  // The server's clock (and the signatures) fixed at T0 for each test and the data made before them.
  useFixedClock(T0);
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Crane Lab' }));
    const aliceOrg = await t.services.devices.orgIdByName('Heron Lab');
    const bobOrg = await t.services.devices.orgIdByName('Crane Lab');
    const userOf = async (org: number) => Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', org).executeTakeFirstOrThrow()).id);
    const reg = async (orgId: number, imei: string, example = false) => {
      const r = await t.services.devices.register({ orgId, imei, caption: imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'], instrSupport: [], ...(example ? { example: true } : {}) });
      secrets.set(imei, r.secret);
      ids.set(imei, Number(r.id));
      return Number(r.id);
    };
    await reg(aliceOrg, 'H-ONE');
    await reg(aliceOrg, 'H-TWO');
    await reg(aliceOrg, 'H-MOVE');
    const [aliceId, bobId] = [await userOf(aliceOrg), await userOf(bobOrg)];
    const share = (device: number, remote: number, from: number, to: number) => ({
      device_id: device, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 0, remote_instr: remote, download_data: 0, effective_time: from, failure_time: to, created_at: T0,
    });
    await t.database.db
      .insertInto('device_shares')
      .values([share(await reg(bobOrg, 'B-NOINSTR'), 0, T0 - DAY, T0 + 30 * DAY), share(await reg(bobOrg, 'B-INSTR'), 1, T0 - DAY, T0 + 30 * DAY), share(await reg(bobOrg, 'B-EXPIRED'), 1, T0 - 3 * DAY, T0 - HOUR)])
      .execute();
    await reg(bobOrg, 'B-PRIVATE');
    const samples = Number((await t.database.db.insertInto('organisations').values({ name: 'Samples', parent_unit: '', created_at: T0, is_samples: 1 }).returning('id').executeTakeFirstOrThrow()).id);
    await reg(samples, 'S-EXAMPLE', true);
    expect((await t.call(calls.SetExperienceFuncEnable.path, { enabled: 1 }, { token: alice })).body.Code).toBe(Code.Success);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('creates, lists, updates, switches off and deletes a fence; the tree and the detail count it', async () => {
    const r = await create('Reserve', { Type: 'Polygon', Coordinates: SQUARE }, settings(['H-ONE', 'H-TWO']));
    expect(r.Code, r.Msg).toBe(Code.Success);
    const f = calls.CreateFence.data.parse(r.Data);
    expect(f).toMatchObject({ Label: 'Reserve', Type: 1, Enabled: 1, InOrOut: 'BOTH', RuleType: 1, Example: false, Editable: true, detail: { RemoteRule: 2, DeviceRule: 0, Synchronized: 1 } });
    expect(f.Shape).toEqual({ Type: 'Polygon', Coordinates: [...SQUARE, SQUARE[0]] });
    // ~9.5 km x 11.1 km at 31° N (@turf/area)
    expect(f.Area).toBeGreaterThan(1.05e8);
    expect(f.Area).toBeLessThan(1.07e8);
    expect(f.Devices.map((d) => d.IMEI)).toEqual(['H-ONE', 'H-TWO']);
    const list = await data<{ List: Fence[]; Total: number }>(calls.GetFenceList, { keyword: 'reser', timeZone: ZONE });
    expect(list.Total).toBe(1);
    expect(list.List[0]!.CreateTime).toBe('2026-11-20 10:00:00');
    const rules = await data<{ List: FenceRule[] }>(calls.GetRuleListByType, { fenceId: f.IdStr, type: 1 });
    expect(rules.List.map((x) => [x.IMEI, x.InOrOut, x.Synchronized, x.Inside])).toEqual([['H-ONE', 'BOTH', 1, null], ['H-TWO', 'BOTH', 1, null]]);
    expect(rules.List[0]!.Instrs.map((i) => [i.Type, i.Detail, i.HighFrequency])).toEqual([
      ['ACQUISITION_FREQUENCY', 'A fix every 5 min', true],
      ['POSTBACK_FREQUENCY', 'Sends data every 10 records, packets of at most 512 bytes', false],
    ]);
    expect((await data<{ List: FenceRule[] }>(calls.GetRuleListByType, { fenceId: f.IdStr, type: 2 })).List).toEqual([]);
    const mine = await data<{ List: { Fence: Fence; Rule: FenceRule }[] }>(calls.GetDeviceFenceList, { imei: 'H-TWO' });
    expect(mine.List.map((x) => [x.Fence.Label, x.Rule.IMEI])).toEqual([['Reserve', 'H-TWO']]);
    // the tree's DeviceFence and the detail's FenceCount
    const tree = (await call(calls.GetTree, { timeZone: ZONE })).Data as { Folders: { Devices: { IMEI: string; DeviceFence: number }[] }[] };
    const inTree = Object.fromEntries(tree.Folders.flatMap((x) => x.Devices).map((d) => [d.IMEI, d.DeviceFence]));
    expect(inTree).toMatchObject({ 'H-ONE': 1, 'H-TWO': 1, 'H-MOVE': 0 });
    // the detail's FenceCount (the one GET of the API)
    const url = `${calls.GetDetailByIMEI.path}?imei=H-ONE&timeZone=%2B08:00`;
    const res = await t.app.inject({ method: 'GET', url: API_BASE + url, headers: signedHeaders({ token: alice, method: 'GET', path: url, body: undefined, lcid: LanguageId.en, now: clockNow() }) });
    expect((res.json() as { Data: { FenceCount: number } }).Data.FenceCount).toBe(1);

    // update: a circle, only H-TWO, device-side (synchronizing until the device acknowledges)
    const u = await call(calls.UpdateFence, { fenceId: f.IdStr, label: 'Nest', shape: { Type: 'Circle', Center: [121.05, 31.05], Radius: 500 }, ...settings(['H-TWO'], { ruleType: 2, inOrOut: 'ENTER' }) });
    expect(u.Code, u.Msg).toBe(Code.Success);
    const g = calls.UpdateFence.data.parse(u.Data);
    expect(g).toMatchObject({ Label: 'Nest', Type: 2, RuleType: 2, detail: { RemoteRule: 0, DeviceRule: 1, Synchronized: 0 } });
    expect(g.Area).toBeCloseTo(Math.PI * 500 * 500, 0);
    expect(g.Devices.map((d) => d.IMEI)).toEqual(['H-TWO']);
    const off = await data<Fence>(calls.EnableFence, { fenceId: f.IdStr, enabled: 0 });
    expect(off.Enabled).toBe(0);
    expect((await data<{ List: { Fence: Fence }[] }>(calls.GetDeviceFenceList, { imei: 'H-ONE' })).List).toEqual([]);
    expect((await call(calls.DeleteFence, { fenceId: f.IdStr })).Code).toBe(Code.Success);
    expect(await snapshot()).toEqual({ fences: 0, rules: 0, states: 0 });
    expect((await call(calls.GetRuleListByType, { fenceId: f.IdStr })).Code).toBe(Code.NotFound);
  });

  it.each([
    ['a self-intersecting polygon', { Type: 'Polygon', Coordinates: [[121, 31], [121.1, 31.1], [121.1, 31], [121, 31.1]] }, 'The geofence shape crosses itself.'],
    ['a circle of radius 0', { Type: 'Circle', Center: [121, 31], Radius: 0 }, 'The radius must be more than 0 metres.'],
    ['a circle of negative radius', { Type: 'Circle', Center: [121, 31], Radius: -10 }, 'The radius must be more than 0 metres.'],
    ['a longitude over 180', { Type: 'Polygon', Coordinates: [[181, 31], [121.1, 31], [121.1, 31.1]] }, 'longitude outside -180 to 180'],
    ['a latitude over 90', { Type: 'Circle', Center: [121, 91], Radius: 10 }, 'latitude outside -90 to 90'],
    ['an unfinished polygon', { Type: 'Polygon', Coordinates: [[121, 31], [121.1, 31]] }, 'at least 3 different vertices'],
  ])('refuses %s naming the field, storing nothing', async (_name, shape, text) => {
    const before = await snapshot();
    const r = await create('Bad', shape, settings(['H-ONE']));
    expect(r.Code).toBe(Code.Invalid);
    expect(r.Msg).toContain(text);
    expect(await snapshot()).toEqual(before);
  });

  it('needs a name, a device, a collection time and a transmission frequency', async () => {
    const circle = { Type: 'Circle', Center: [121, 31], Radius: 100 };
    expect((await create(' ', circle, settings(['H-ONE']))).Msg).toBe('Enter the geofence name.');
    expect((await create('A', circle, settings([]))).Msg).toBe('Choose at least one device.');
    const { collection: _c, ...noCollection } = settings(['H-ONE']);
    expect((await create('A', circle, noCollection)).Msg).toContain('collection time');
    const { postback: _p, ...noPostback } = settings(['H-ONE']);
    expect((await create('A', circle, noPostback)).Msg).toContain('transmission frequency');
    expect((await create('A', circle, settings(['H-ONE']), { lang: 'zh' })).Code).toBe(Code.Success);
    const zh = await create(' ', circle, settings(['H-ONE']), { lang: 'zh' });
    expect(zh.Msg).toBe('请输入围栏名称。');
    await t.database.db.deleteFrom('fence_rules').execute();
    await t.database.db.deleteFrom('fences').execute();
  });

  it('gives a stranger, an expired share, a share without RemoteInstr, an experience device and no token nothing, changing nothing', async () => {
    const circle = { Type: 'Circle', Center: [121, 31], Radius: 100 };
    const before = await snapshot();
    expect((await create('X', circle, settings(['B-PRIVATE']))).Code).toBe(Code.NotFound);
    expect((await create('X', circle, settings(['B-EXPIRED']))).Code).toBe(Code.NotFound);
    expect((await create('X', circle, settings(['B-NOINSTR']))).Code).toBe(Code.Forbidden);
    expect((await create('X', circle, settings(['S-EXAMPLE']))).Code).toBe(Code.Forbidden);
    expect((await create('X', circle, settings(['H-ONE']), { token: null })).Code).toBe(Code.SessionExpired);
    expect((await create('X', circle, settings(['H-ONE']), { token: bob })).Code).toBe(Code.NotFound);
    expect(await snapshot()).toEqual(before);
    // alice's fence: a stranger to it neither sees nor changes it
    const f = calls.CreateFence.data.parse((await create('Mine', circle, settings(['H-ONE']))).Data);
    expect(f.Devices.map((d) => d.IMEI)).toEqual(['H-ONE']);
    const after = await snapshot();
    for (const [def, body] of [
      [calls.GetRuleListByType, { fenceId: f.IdStr }],
      [calls.EnableFence, { fenceId: f.IdStr, enabled: 0 }],
      [calls.DeleteFence, { fenceId: f.IdStr }],
    ] as [CallDef, Record<string, unknown>][]) {
      const r = await call(def, body, { token: bob });
      expect([r.Code, r.Msg]).toEqual([Code.NotFound, 'There is no such geofence.']);
      expect((await call(def, body, { token: null })).Code).toBe(Code.SessionExpired);
    }
    expect((await data<{ List: Fence[] }>(calls.GetFenceList, {}, { token: bob })).List).toEqual([]);
    const u = await call(calls.UpdateFence, { fenceId: f.IdStr, label: 'Mine', shape: circle, ...settings(['H-ONE']) }, { token: bob });
    expect(u.Code).toBe(Code.NotFound);
    expect(await snapshot()).toEqual(after);
    // with a rule on bob's B-INSTR (shared with alice) too, bob, its owner, sees the fence with his device only
    // (issue 26 H1), may not change it, and may take his device out of it
    await data(calls.UpdateFence, { fenceId: f.IdStr, label: 'Mine', shape: circle, ...settings(['H-ONE', 'B-INSTR']), timeZone: ZONE });
    const seen = (await data<{ List: Fence[] }>(calls.GetFenceList, {}, { token: bob })).List;
    expect(seen.map((x) => [x.Label, x.Owner?.OrgName, x.Editable, x.Removable, x.Devices.map((d) => d.IMEI)])).toEqual([['Mine', 'Heron Lab', false, true, ['B-INSTR']]]);
    expect((await data<{ List: FenceRule[] }>(calls.GetRuleListByType, { fenceId: f.IdStr }, { token: bob })).List.map((r) => r.IMEI)).toEqual(['B-INSTR']);
    expect((await data<{ List: unknown[] }>(calls.GetDeviceFenceList, { imei: 'B-INSTR' }, { token: bob })).List).toHaveLength(1);
    expect((await call(calls.EnableFence, { fenceId: f.IdStr, enabled: 0 }, { token: bob })).Code).toBe(Code.Forbidden);
    expect((await call(calls.UpdateFence, { fenceId: f.IdStr, label: 'Mine', shape: circle, ...settings(['B-INSTR']) }, { token: bob })).Code).toBe(Code.Forbidden);
    expect((await call(calls.DeleteFence, { fenceId: f.IdStr }, { token: bob })).Code).toBe(Code.Success);
    expect((await data<{ List: Fence[] }>(calls.GetFenceList, {}, { token: bob })).List).toEqual([]);
    expect((await data<{ List: Fence[] }>(calls.GetFenceList, {})).List.find((x) => x.Id === f.Id)?.Devices.map((d) => d.IMEI)).toEqual(['H-ONE']);
    await call(calls.DeleteFence, { fenceId: f.IdStr });
  });

  it('shows a sample fence read-only', async () => {
    const samples = Number((await t.database.db.selectFrom('organisations').select('id').where('is_samples', '=', 1).executeTakeFirstOrThrow()).id);
    const id = Number(
      (await t.database.db
        .insertInto('fences')
        .values({ org_id: samples, label: 'Sample', type: 2, shape: JSON.stringify({ Type: 'Circle', Center: [121, 31], Radius: 100 }), min_lng: 120, min_lat: 30, max_lng: 122, max_lat: 32, area: 31415.9, enabled: 1, in_or_out: 'BOTH', rule_type: 1, allow_send_instr: 0, instrs: JSON.stringify([{ Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 5 } }, { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512, Realtime: false } }]), time_zone: ZONE, created_by: null, created_at: T0, updated_at: T0 })
        .returning('id')
        .executeTakeFirstOrThrow()).id,
    );
    await t.database.db.insertInto('fence_rules').values({ fence_id: id, device_id: ids.get('S-EXAMPLE')!, synchronized: 1, created_at: T0 }).execute();
    const list = await data<{ List: Fence[] }>(calls.GetFenceList, {});
    expect(list.List.map((f) => [f.Label, f.Example, f.Editable])).toEqual([['Sample', true, false]]);
    expect((await data<{ List: unknown[] }>(calls.GetDeviceFenceList, { imei: 'S-EXAMPLE' })).List).toHaveLength(1);
    expect((await call(calls.EnableFence, { fenceId: String(id), enabled: 0 })).Code).toBe(Code.Forbidden);
    expect((await call(calls.DeleteFence, { fenceId: String(id) })).Code).toBe(Code.Forbidden);
    expect((await data<{ List: Fence[] }>(calls.GetFenceList, {}, { token: bob })).List.map((f) => [f.Label, f.Editable])).toEqual([['Sample', false]]);
    await t.database.db.deleteFrom('fence_rules').where('fence_id', '=', id).execute();
    await t.database.db.deleteFrom('fences').where('id', '=', id).execute();
  });

  it('makes a Fence event when a new valid fix crosses, ignoring late and invalid fixes, and sends the rule\'s instructions', async () => {
    const r = await create('Wetland', { Type: 'Polygon', Coordinates: SQUARE }, settings(['H-MOVE'], { inOrOut: 'BOTH', allowSendInstr: 1 }));
    expect(r.Code, r.Msg).toBe(Code.Success);
    const instrBefore = await count('instructions');
    await batch('H-MOVE', [[T0 - 60 * MIN, 120.9, 30.95]]); // outside: the first side, no event
    expect(await fenceEvents('H-MOVE')).toEqual([]);
    await batch('H-MOVE', [[T0 - 50 * MIN, null, null], [T0 - 40 * MIN, 121.05, 31.05]]); // an invalid fix, then inside
    expect(await fenceEvents('H-MOVE')).toMatchObject([{ at: T0 - 40 * MIN, kind: 'fenceEntered', fence: 'Wetland' }]);
    // the rule sent its two instructions (collection and postback), through the instruction rules
    expect(await count('instructions')).toBe(instrBefore + 2);
    await batch('H-MOVE', [[T0 - 55 * MIN, 120.9, 30.95]]); // late: older than the state, changes nothing
    await batch('H-MOVE', [[T0 - 30 * MIN, 121.06, 31.06]]); // still inside
    expect(await fenceEvents('H-MOVE')).toHaveLength(1);
    await batch('H-MOVE', [[T0 - 20 * MIN, 121.5, 31.5], [T0 - 10 * MIN, 121.05, 31.05]]); // out and back in, one batch
    expect((await fenceEvents('H-MOVE')).map((e) => [e.kind, e.at])).toEqual([
      ['fenceEntered', T0 - 40 * MIN],
      ['fenceLeft', T0 - 20 * MIN],
      ['fenceEntered', T0 - 10 * MIN],
    ]);
    const rules = await data<{ List: FenceRule[] }>(calls.GetRuleListByType, { fenceId: calls.CreateFence.data.parse(r.Data).IdStr });
    expect(rules.List[0]).toMatchObject({ Inside: true, StateTime: '2026-11-20 09:50:00' });
  });

  it('tells every subscriber of crossings (added, not replacing the instruction sender), a failing one not stopping the rest', async () => {
    const orgId = await t.services.devices.orgIdByName('Heron Lab');
    const dev = Number((await t.services.devices.register({ orgId: orgId!, imei: 'H-HOOK', caption: 'H-HOOK', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'], instrSupport: [] })).id);
    const r = await create('Heronry', { Type: 'Polygon', Coordinates: SQUARE }, settings(['H-HOOK'], { inOrOut: 'ENTER', allowSendInstr: 1 }));
    expect(r.Code, r.Msg).toBe(Code.Success);
    const fenceId = Number(calls.CreateFence.data.parse(r.Data).Id);
    // an ingest service with its evaluation wired as the app wires it (the instruction sender first), then two subscribers more
    const ingest = createIngestService(t.database, os.tmpdir());
    const logged: string[] = [];
    const log = { warn: () => {}, error: (...args: unknown[]) => void logged.push(String(args[1])) };
    const evaluator = attachFenceEvaluation(ingest, new FenceRepository(t.database.db, t.database.sqlite), { fences: t.services.fences, instructions: t.services.instructions, log });
    const webhook: [number, boolean, number][] = [];
    const audit: [number, boolean, number][] = [];
    evaluator.onCrossing(async (c) => void webhook.push([c.fenceId, c.entered, c.at]));
    evaluator.onCrossing(async () => {
      throw new Error('a subscriber failed');
    });
    evaluator.onCrossing(async (c) => void audit.push([c.fenceId, c.entered, c.at]));
    const sent = async () => Number((await t.database.db.selectFrom('instructions').select((eb) => eb.fn.countAll<number>().as('n')).where('device_id', '=', dev).executeTakeFirstOrThrow()).n);
    const send = (at: number, lng: number, lat: number) => ingest.writeBatch(dev, { fixes: { t: [at], lon: [lng], lat: [lat] } }, null);
    await send(T0 - 60 * MIN, 120.9, 30.95); // outside: the first side
    await send(T0 - 50 * MIN, 121.05, 31.05); // entered
    expect(webhook).toEqual([[fenceId, true, T0 - 50 * MIN]]);
    expect(audit).toEqual([[fenceId, true, T0 - 50 * MIN]]);
    // the rule's two instructions (collection and postback) were still sent
    expect(await sent()).toBe(2);
    expect(logged).toEqual(['fence rule fired: a subscriber of the crossing failed']);
  });

  it('tells a crossing once when two processes judge one device: each move is a compare-and-set on the stored state', async () => {
    const orgId = await t.services.devices.orgIdByName('Heron Lab');
    const dev = Number((await t.services.devices.register({ orgId: orgId!, imei: 'H-TWIN', caption: 'H-TWIN', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'], instrSupport: [] })).id);
    ids.set('H-TWIN', dev);
    const r = await create('Twin marsh', { Type: 'Polygon', Coordinates: SQUARE }, settings(['H-TWIN'], { inOrOut: 'BOTH' }));
    expect(r.Code, r.Msg).toBe(Code.Success);
    // a second process on the same database: its own ingest service and evaluator (its own index and known states)
    const other = createIngestService(t.database, os.tmpdir());
    attachFenceEvaluation(other, new FenceRepository(t.database.db, t.database.sqlite), {});
    const fix = (at: number, lng: number, lat: number) => ({ fixes: { t: [at], lon: [lng], lat: [lat] } });
    const a = (at: number, lng: number, lat: number) => t.services.ingest.writeBatch(dev, fix(at, lng, lat), null);
    const b = (at: number, lng: number, lat: number) => other.writeBatch(dev, fix(at, lng, lat), null);
    const told = async () => (await fenceEvents('H-TWIN')).map((e) => [e.kind, e.at]);
    await a(T0 - 60 * MIN, 120.9, 30.95); // outside: the first side
    await b(T0 - 58 * MIN, 120.91, 30.95); // B reads the state: outside
    await a(T0 - 50 * MIN, 121.05, 31.05); // A: entered
    await b(T0 - 40 * MIN, 121.06, 31.06); // B still believes outside: its move fails, it reads again, no crossing
    await b(T0 - 55 * MIN, 120.9, 30.95); // late
    expect(await told()).toEqual([['fenceEntered', T0 - 50 * MIN]]);
    await b(T0 - 30 * MIN, 121.5, 31.5); // B: left
    await a(T0 - 20 * MIN, 121.6, 31.6); // A believed inside: reads again, no second event
    expect(await told()).toEqual([['fenceEntered', T0 - 50 * MIN], ['fenceLeft', T0 - 30 * MIN]]);
  });

  it('writes a state only when its side changes, and after a restart judges a late fix by the newest fix stored', async () => {
    const orgId = await t.services.devices.orgIdByName('Heron Lab');
    const dev = Number((await t.services.devices.register({ orgId: orgId!, imei: 'H-REST', caption: 'H-REST', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, status: DeviceStatus.Working, sensors: ['GNSS'], instrSupport: [] })).id);
    ids.set('H-REST', dev);
    const r = await create('Reed bed', { Type: 'Polygon', Coordinates: SQUARE }, settings(['H-REST'], { inOrOut: 'BOTH' }));
    expect(r.Code, r.Msg).toBe(Code.Success);
    // the server's clock moves `step` a batch (each batch's fixes are stored with it as received_at)
    let clock = T0;
    const send = (ingest: typeof t.services.ingest, at: number, lng: number, lat: number, step = 1000) => {
      setClock((clock += step));
      return ingest.writeBatch(dev, { fixes: { t: [at], lon: [lng], lat: [lat] } }, null, clock);
    };
    const stored = async () => {
      const s = await t.database.db.selectFrom('fence_states').select(['inside', 'fix_time']).where('device_id', '=', dev).executeTakeFirstOrThrow();
      return [Number(s.inside), Number(s.fix_time)];
    };
    const told = async () => (await fenceEvents('H-REST')).map((e) => [e.kind, e.at]);
    await send(t.services.ingest, T0 - 60 * MIN, 120.9, 30.95); // outside: the first side
    await send(t.services.ingest, T0 - 50 * MIN, 120.91, 30.95);
    await send(t.services.ingest, T0 - 40 * MIN, 120.92, 30.95); // still outside
    // a restart: a new process's ingest service and evaluator on the same database, knowing nothing
    const again = createIngestService(t.database, os.tmpdir());
    attachFenceEvaluation(again, new FenceRepository(t.database.db, t.database.sqlite), {});
    await send(again, T0 - 45 * MIN, 121.05, 31.05); // late: newer than the stored state's time, older than the newest fix stored
    expect(await told()).toEqual([]);
    await send(again, T0 - 30 * MIN, 121.05, 31.05); // inside: the stored side survived the restart, so this is a crossing
    expect(await told()).toEqual([['fenceEntered', T0 - 30 * MIN]]);
    expect(await stored()).toEqual([1, T0 - 30 * MIN]);
    // minutes apart, as a device's batches come: a side that holds is not written again
    await send(again, T0 - 20 * MIN, 121.06, 31.06, 5 * MIN);
    await send(again, T0 - 10 * MIN, 121.05, 31.06, 5 * MIN);
    expect(await stored()).toEqual([1, T0 - 30 * MIN]);
    expect(await told()).toHaveLength(1);
  });

  it('hands a device rule to the device with each answer until it acknowledges the version (synchronizing → synchronized), and its removal likewise', async () => {
    const r = await create('On-board', { Type: 'Circle', Center: [121.05, 31.05], Radius: 800 }, settings(['H-TWO'], { ruleType: 2, inOrOut: 'ENTER' }));
    const f = calls.CreateFence.data.parse(r.Data);
    expect(f.detail).toEqual({ RemoteRule: 0, DeviceRule: 1, Synchronized: 0 });
    const first = await deviceCall('H-TWO', '/batch', { fixes: { t: [T0 - 5 * MIN], lon: [121], lat: [31] } });
    // the first test's device fence (switched off, then deleted) waits as a removal for H-TWO
    expect(first.body.fenceRules!.filter((x) => x.removed).map((x) => x.fenceId)).toHaveLength(1);
    for (const x of first.body.fenceRules!.filter((y) => y.removed)) expect((await deviceCall('H-TWO', '/fence-ack', { fenceId: x.fenceId, version: x.version })).status).toBe(200);
    expect(first.body.fenceRules!.filter((x) => !x.removed)).toMatchObject([{ fenceId: f.Id, version: 1, removed: false, inOrOut: 'ENTER', instrs: [{ Type: 'ACQUISITION_FREQUENCY' }, { Type: 'POSTBACK_FREQUENCY' }] }]);
    // a device rule is not evaluated by the server: no state, no event
    expect(await fenceEvents('H-TWO')).toEqual([]);
    expect((await deviceCall('H-TWO', '/fence-ack', { fenceId: f.Id, version: 7 })).status).toBe(404);
    const ack = await deviceCall('H-TWO', '/fence-ack', { fenceId: f.Id, version: 1 });
    expect(ack.status).toBe(200);
    expect(ack.body.fenceRules).toBeUndefined();
    const rules = await data<{ List: FenceRule[] }>(calls.GetRuleListByType, { fenceId: f.IdStr, type: 2 });
    expect(rules.List.map((x) => [x.IMEI, x.RuleType, x.Synchronized])).toEqual([['H-TWO', 2, 1]]);
    expect((await call(calls.DeleteFence, { fenceId: f.IdStr })).Code).toBe(Code.Success);
    const next = await deviceCall('H-TWO', '/batch', { fixes: { t: [T0 - 4 * MIN], lon: [121], lat: [31] } });
    expect(next.body.fenceRules).toMatchObject([{ fenceId: f.Id, removed: true }]);
    expect((await deviceCall('H-TWO', '/fence-ack', { fenceId: f.Id, version: next.body.fenceRules![0]!.version })).status).toBe(200);
    expect((await deviceCall('H-TWO', '/batch', { fixes: { t: [T0 - 3 * MIN], lon: [121], lat: [31] } })).body.fenceRules).toBeUndefined();
  });

  it('imports the polygons of a .shp as fences, and refuses a bad file whole, storing nothing', async () => {
    const s = JSON.stringify(settings(['H-ONE']));
    const good = polygonShp([
      [[100, 10], [100.1, 10], [100.1, 10.1], [100, 10.1], [100, 10]],
      [[101, 11], [101.1, 11], [101.1, 11.1], [101, 11]],
    ]);
    const ok = await upload({ name: 'parks.shp', bytes: good }, { settings: s });
    expect(ok.Code, ok.Msg).toBe(Code.Success);
    expect(ok.Data!.List.map((f) => f.Label).sort()).toEqual(['parks 1', 'parks 2']);
    // the answer names what it made (the contract's ImportedFence), not each shape: GetFenceList has those
    expect(calls.ImportShp.data.safeParse(ok.Data).success).toBe(true);
    expect(ok.Data!.List.map((f) => [f.Label, f.Vertices, Object.keys(f).includes('Shape')])).toEqual([['parks 1', 4, false], ['parks 2', 3, false]]);
    const listed = (await data<{ List: Fence[] }>(calls.GetFenceList, { keyword: 'parks' })).List;
    expect(ok.Data!.List.map((f) => [f.IdStr, f.Area])).toEqual(ok.Data!.List.map((f) => [f.IdStr, listed.find((l) => l.IdStr === f.IdStr)!.Area]));
    const before = await snapshot();
    const failed = async (file: { name: string; bytes: Buffer }, reason: string, lang: 'en' | 'zh' = 'en') => {
      const r = await upload(file, { settings: s }, { lang });
      expect(r.Code).not.toBe(Code.Success);
      expect(r.Msg).toContain(lang === 'en' ? 'Geofence file import failed' : '围栏文件导入失败');
      expect(r.Msg).toContain(reason);
    };
    await failed({ name: 'parks.zip', bytes: good }, 'only .shp files');
    await failed({ name: 'notes.shp', bytes: Buffer.from('this is not a shapefile at all, just some text that is long enough to have a header'.repeat(3)) }, 'not a valid shapefile');
    await failed({ name: 'cut.shp', bytes: good.subarray(0, good.length - 20) }, 'not a valid shapefile');
    await failed({ name: 'cross.shp', bytes: polygonShp([[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]) }, 'crosses itself');
    await failed({ name: 'over.shp', bytes: polygonShp([[[100, 10], [100.1, 10], [100.1, 10.1], [100, 10]], [[190, 10], [191, 10], [191, 11], [190, 10]]]) }, 'polygon 2');
    const big = Buffer.alloc(FENCE_SHP_MAX_BYTES + 1);
    await failed({ name: 'big.shp', bytes: big }, 'under 10 MB');
    await failed({ name: 'big.shp', bytes: big }, '文件须小于 10 MB', 'zh');
    expect(await snapshot()).toEqual(before);
    // settings are checked like a form's
    const bad = await upload({ name: 'parks.shp', bytes: good }, { settings: JSON.stringify(settings([])) });
    expect([bad.Code, bad.Msg]).toEqual([Code.Invalid, 'Choose at least one device.']);
    const stranger = await upload({ name: 'parks.shp', bytes: good }, { settings: JSON.stringify(settings(['B-PRIVATE'])) });
    expect(stranger.Code).toBe(Code.NotFound);
    expect(await snapshot()).toEqual(before);
  });

  it('answers an import without a multipart boundary with the envelope naming what is missing (was HTTP 500)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: API_BASE + FENCE_IMPORT_PATH,
      headers: { ...signedHeaders({ token: alice, path: FENCE_IMPORT_PATH, body: undefined, lcid: LanguageId.zh, now: clockNow() }), 'content-type': 'multipart/form-data' },
      payload: 'settings=1',
    });
    expect([res.statusCode, res.json()]).toEqual([200, { Code: Code.Invalid, Msg: '请以 multipart/form-data 上传文件：Content-Type 缺少 boundary 参数。', Data: null }]);
  });

  it('checks the devices of an import before its file is read: a device the caller may not see or instruct is refused, the file never parsed', async () => {
    const file = { name: 'parks.shp', bytes: heavyShp(20) };
    const started = shpReads.started;
    for (const [imei, code] of [['B-PRIVATE', Code.NotFound], ['B-NOINSTR', Code.Forbidden], ['B-EXPIRED', Code.NotFound]] as const) {
      const r = await upload(file, { settings: JSON.stringify(settings(['H-ONE', imei])) });
      expect([imei, r.Code]).toEqual([imei, code]);
    }
    expect(shpReads.started).toBe(started);
  });

  it('refuses a file with more rings, larger rings or longer geometry work than an import takes, naming the limit in both languages', async () => {
    const s = JSON.stringify(settings(['H-ONE']));
    const before = await snapshot();
    const started = shpReads.started;
    const tri = (i: number): [number, number][] => [[100 + i * 0.001, 10], [100 + i * 0.001, 10.0005], [100.0005 + i * 0.001, 10], [100 + i * 0.001, 10]];
    const rings = polygonShp(Array.from({ length: FENCE_SHP_MAX_RINGS + 1 }, (_, i) => tri(i)));
    const large = polygonShp([tri(0), star(101, 11, FENCE_MAX_VERTICES + 1)]);
    for (const [file, lang, text] of [
      [rings, 'en', `Geofence file import failed: the file holds more than ${FENCE_SHP_MAX_RINGS} rings`],
      [rings, 'zh', `围栏文件导入失败：文件中的环超过 ${FENCE_SHP_MAX_RINGS} 个`],
      [large, 'en', `Geofence file import failed: record 2 has a ring of more than ${FENCE_MAX_VERTICES} vertices`],
      [large, 'zh', `围栏文件导入失败：第 2 个要素有一个环超过 ${FENCE_MAX_VERTICES} 个顶点`],
    ] as const) {
      const r = await upload({ name: 'many.shp', bytes: file }, { settings: s }, { lang });
      expect([r.Code, r.Msg]).toEqual([Code.Failed, text]);
    }
    // refused from the headers: no geometry read was started
    expect(shpReads.started).toBe(started);
    // the time limit: the worker is stopped and the import refused naming it; the next import is read
    const lang = 'zh';
    const slow = await readShpInWorker(new Uint8Array(heavyShp(100)), lang, { timeoutMs: 200 }).then(() => null, (e: Error & { params?: { reason: string } }) => e.params?.reason);
    expect(slow).toBe('文件处理超过 0.2 秒，请拆分成几个文件再导入');
    const ok = await upload({ name: 'parks.shp', bytes: polygonShp([star(102, 12, 50)]) }, { settings: s });
    expect(ok.Code, ok.Msg).toBe(Code.Success);
    expect((await snapshot()).fences).toBe(before.fences + 1);
  });

  it("answers another user's call while an import's geometry is read (a worker thread, not the event loop)", async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const path = calls.GetFenceList.path;
    const listOverSocket = async () => {
      const body = JSON.stringify({});
      const res = await fetch(address + API_BASE + path, { method: 'POST', headers: { ...signedHeaders({ token: bob, path, body, lcid: LanguageId.en, now: clockNow() }), 'content-type': 'application/json' }, body });
      const answer = (await res.json()) as { Code: number; Msg: string };
      return `${answer.Code} ${answer.Msg}`;
    };
    const importing = upload({ name: 'heavy.shp', bytes: heavyShp(10) }, { settings: JSON.stringify(settings(['H-ONE'])) });
    await expect.poll(() => shpReads.running).toBeGreaterThan(0);
    // a call over a real socket needs the event loop: answered while the import is still being read
    expect(await listOverSocket()).toBe(`${Code.Success} Operation successful`);
    expect(shpReads.running).toBeGreaterThan(0);
    const done = await importing;
    expect(done.Code, done.Msg).toBe(Code.Success);
    expect(done.Data!.List).toHaveLength(10);
  }, 120_000);
});
