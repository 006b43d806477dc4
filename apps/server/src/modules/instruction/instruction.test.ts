import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_BASE,
  DeviceDetailSchema,
  LanguageId,
  signedHeaders,
  calls,
  Code,
  DeviceStatus,
  DeviceType,
  EventType,
  type Exceed,
  INGEST_BASE,
  type IngestBatch,
  ingestHeaders,
  type Instruction,
  type InstructionParamsInput,
  SpeciesType,
  type WorkStatus,
} from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { contractCalls } from '../../test/contract-calls.js';
import { ZONE, MIN, HOUR, DAY } from '../../test/fixed-time.js';
import { workSettings } from '../../test/work-settings.js';
import { InstructionRepository } from './repository.js';
import { now as clockNow, setClock, useFixedClock } from '../../test/clock.js';

/** 2026-11-20 10:00 in +08:00 (02:00 UTC): the clock is set here, Date only (timers stay real). */
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0);

const FIX_10_ACC_25: InstructionParamsInput = {
  Type: 'ACQUISITION_FREQUENCY',
  GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 },
  ACC: { Mode: 'INTERVAL', FrequencyHz: 25, IntervalMinutes: 10 },
};
const POSTBACK_COUNT: InstructionParamsInput = { Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'DATA_CNT', PacketCount: 5, PacketSize: 512 } };

describe.each(DIALECTS)('remote instructions on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  const secrets = new Map<string, string>();
  const ids = new Map<string, number>();

  const { call, data } = contractCalls(() => t, () => alice, { timeZone: ZONE });
  const send = (imeis: string[], params: InstructionParamsInput, opts: { token?: string | null; lang?: 'en' | 'zh' } = {}) => call(calls.SendInstruction, { imeis, params }, opts);
  /** A device request, signed with its secret, through the ingest routes. */
  const device = async (imei: string, route: '/batch' | '/ack', payload: unknown) => {
    const body = JSON.stringify(payload);
    const headers = ingestHeaders({ imei, secret: secrets.get(imei)!, path: `${INGEST_BASE}${route}`, body, now: clockNow() });
    const res = await t.app.inject({ method: 'POST', url: `${INGEST_BASE}${route}`, headers: { ...headers, 'content-type': 'application/json' }, payload: body });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> & { instructions: { id: number; type: string; params: unknown; timeZone: string }[] } };
  };
  /** The one GET of the API (§7.2): the details of a device. */
  const detailOf = async (imei: string, lang: 'en' | 'zh' = 'en') => {
    const url = `${calls.GetDetailByIMEI.path}?imei=${imei}&timeZone=%2B08:00`;
    const res = await t.app.inject({ method: 'GET', url: API_BASE + url, headers: signedHeaders({ token: alice, method: 'GET', path: url, body: undefined, lcid: LanguageId[lang], now: clockNow() }) });
    const body = res.json() as { Code: number; Msg: string; Data: unknown };
    expect(body.Code, body.Msg).toBe(Code.Success);
    return DeviceDetailSchema.parse(body.Data);
  };
  const fix = (at: number): IngestBatch => ({ fixes: { t: [at], lon: [121], lat: [31] } });
  const rows = async () => Number((await t.database.db.selectFrom('instructions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const events = async (instructionId: number) =>
    (await t.database.db.selectFrom('events').select(['type', 'content']).where('instruction_id', '=', instructionId).orderBy('id').execute()).map((e) => ({ type: e.type, ...(JSON.parse(e.content) as object) }));
  const history = (imeis: string[], extra: Record<string, unknown> = {}, token = alice, lang: 'en' | 'zh' = 'en') =>
    data<{ List: Instruction[]; Total: number }>(calls.GetInstructionList, { imeis, startTime: '2026-11-01 00:00:00', endTime: '2026-12-31 00:00:00', ...extra }, { token, lang });

  // The server's clock (and the signatures) fixed at T0 for each test and the data made before them.
  useFixedClock(T0);
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Crane Lab' }));
    const aliceOrg = await t.services.devices.orgIdByName('Heron Lab');
    const bobOrg = await t.services.devices.orgIdByName('Crane Lab');
    const userOf = async (org: number) => Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', org).executeTakeFirstOrThrow()).id);
    const reg = async (orgId: number, imei: string, o: { type?: DeviceType; status?: number; acc?: boolean; support?: boolean } = {}) => {
      const r = await t.services.devices.register({
        orgId, imei, caption: imei, type: o.type ?? DeviceType.Tracker, speciesType: SpeciesType.Bird, status: o.status ?? DeviceStatus.Working,
        sensors: o.acc === false ? ['GNSS'] : ['GNSS', 'Acceleration'],
        instrSupport: o.support === false ? [] : ['AccCollectionSwitch', 'AccCollectionFrequency', 'GNSSCollectionAdaptiveHighFrequency', 'GNSSCollectionAdaptiveLowFrequency', 'DataPostbackHours'],
      });
      secrets.set(imei, r.secret);
      ids.set(imei, Number(r.id));
      // Each has reported (a fix an hour before T0): a device never heard from takes no instruction.
      expect((await device(imei, '/batch', fix(T0 - HOUR))).status).toBe(200);
      return Number(r.id);
    };
    await reg(aliceOrg, 'H-ONE');
    // H-ONE reports its schedule: a fix an hour, sent at 0, 6, 12 and 18 h UTC, acceleration at 20 Hz every 30 min.
    const reported = await device('H-ONE', '/batch', { workStatus: { at: T0 - DAY, settings: workSettings({ AccEnabled: true, AccFrequencyHz: 20, AccIntervalMinutes: 30 }) } });
    expect(reported.status).toBe(200);
    await reg(aliceOrg, 'H-BARE', { acc: false, support: false });
    await reg(aliceOrg, 'H-VHF', { type: DeviceType.VHFReceiver });
    await reg(aliceOrg, 'H-STOCK', { status: DeviceStatus.Stock });
    await reg(aliceOrg, 'H-RACE');
    await reg(aliceOrg, 'H-PHONE', { type: DeviceType.Phone });
    await reg(aliceOrg, 'H-FRESH');
    const [aliceId, bobId] = [await userOf(aliceOrg), await userOf(bobOrg)];
    const share = (device: number, remote: number, from: number, to: number) => ({
      device_id: device, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 0, remote_instr: remote, download_data: 0, effective_time: from, failure_time: to, created_at: T0,
    });
    await t.database.db
      .insertInto('device_shares')
      .values([
        share(await reg(bobOrg, 'B-NOINSTR'), 0, T0 - DAY, T0 + 30 * DAY),
        share(await reg(bobOrg, 'B-INSTR'), 1, T0 - DAY, T0 + 30 * DAY),
        share(await reg(bobOrg, 'B-EXPIRED'), 1, T0 - 3 * DAY, T0 - HOUR),
      ])
      .execute();
    await reg(bobOrg, 'B-PRIVATE');
    const samples = Number((await t.database.db.insertInto('organisations').values({ name: 'Samples', parent_unit: '', created_at: T0, is_samples: 1 }).returning('id').executeTakeFirstOrThrow()).id);
    await t.services.devices.register({ orgId: samples, imei: 'S-EXAMPLE', caption: 'S-EXAMPLE', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], example: true });
    expect((await t.call(calls.SetExperienceFuncEnable.path, { enabled: 1 }, { token: alice })).body.Code).toBe(Code.Success);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('sends, delivers with the next batch through a relay, and a SUCCESSFUL ack becomes the work status', async () => {
    const before = await data<WorkStatus>(calls.GetWorkStatus, { imei: 'H-ONE' });
    expect(before).toMatchObject({ Known: true, IntervalMinutes: 60, AccFrequencyHz: 20, PostbackHours: [2, 8, 14, 20] });
    const [sent] = (await data<{ List: Instruction[] }>(calls.SendInstruction, { imeis: ['H-ONE'], params: FIX_10_ACC_25 })).List;
    expect(sent).toMatchObject({
      IMEI: 'H-ONE', Status: 'SENT', InstrType: 'ACQUISITION_FREQUENCY', Desc: 'Collection schedule', CanWithdraw: true, TimeZone: ZONE,
      SendTime: '2026-11-20 10:00:00', SendAt: T0, ExecuteTime: '', RelayIMEI: '', ErrorMessage: '',
      // the next postback of its schedule: 06:00 UTC
      EstimateExecuteTime: '2026-11-20 14:00:00',
      Detail: 'A fix every 10 min; Acceleration at 25 Hz every 10 min',
    });
    expect(sent!.SenderName).not.toBe('');
    setClock(T0 + 4 * HOUR);
    const b = await device('H-ONE', '/batch', { ...fix(T0 + 3 * HOUR), relay: 'H-PHONE' });
    expect(b.status).toBe(200);
    expect(b.body.instructions).toEqual([{ id: sent!.Id, type: 'ACQUISITION_FREQUENCY', params: { ...FIX_10_ACC_25, ACC: { ...FIX_10_ACC_25.ACC } }, timeZone: ZONE, sentAt: T0 }]);
    const ack = await device('H-ONE', '/ack', { id: sent!.Id, outcome: 'SUCCESSFUL', executedAt: T0 + 4 * HOUR + MIN });
    expect(ack.status).toBe(200);
    const [done] = (await history(['H-ONE'])).List;
    expect(done).toMatchObject({ Id: sent!.Id, Status: 'SUCCESSFUL', ExecuteTime: '2026-11-20 14:01:00', RelayIMEI: 'H-PHONE', RelayCaption: 'H-PHONE', CanWithdraw: false });
    const after = await data<WorkStatus>(calls.GetWorkStatus, { imei: 'H-ONE' });
    expect(after).toMatchObject({ Known: true, GNSSCollectionMode: 0, NormalType: 'INTERVAL', IntervalMinutes: 10, AccEnabled: true, AccFrequencyHz: 25, AccIntervalMinutes: 10, ReportedTime: '2026-11-20 14:01:00' });
    const detail = await detailOf('H-ONE', 'zh');
    expect(detail).toMatchObject({ GNSSCollectionDesc: '每 10 分钟定位一次', AccCollectionDesc: '加速度 25 Hz，每 10 分钟采集一次', SamplingTimes: 144 });
    expect(await events(sent!.Id)).toEqual([{ type: 2, instrType: 'ACQUISITION_FREQUENCY', status: 'SENT' }, { type: 2, instrType: 'ACQUISITION_FREQUENCY', status: 'SUCCESSFUL' }]);
    // answered: not handed out again
    expect((await device('H-ONE', '/batch', fix(T0 + 4 * HOUR + 2 * MIN))).body.instructions).toEqual([]);
  });

  it('records a FAILED ack with its message, then refuses a third of the type today naming the device, in both languages, storing nothing', async () => {
    const [sent] = (await data<{ List: Instruction[] }>(calls.SendInstruction, { imeis: ['H-ONE'], params: { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 1 } } })).List;
    await device('H-ONE', '/batch', fix(T0 + MIN));
    await device('H-ONE', '/ack', { id: sent!.Id, outcome: 'FAILED', executedAt: T0 + 2 * MIN, message: 'interval below 5 min', reason: 'outOfRange' });
    // the history says the reason in the reader's language too, the device's own text after it
    expect((await history(['H-ONE'], { status: 'FAILED' })).List).toMatchObject([{ Id: sent!.Id, Status: 'FAILED', ErrorMessage: "A value is out of the device's range. The device said: interval below 5 min" }]);
    expect((await history(['H-ONE'], { status: 'FAILED' }, alice, 'zh')).List).toMatchObject([{ Id: sent!.Id, ErrorMessage: '设置值超出设备的范围。设备返回：interval below 5 min' }]);
    // the event list says the device's reason in the reader's language, its own text after it as it came
    const failure = async (lang: 'en' | 'zh') =>
      (await data<{ List: { Content: string }[] }>(calls.GetEventListByPage, { imei: 'H-ONE', eventType: EventType.Instr, currentPage: 1, pageSize: 20 }, { lang })).List.map((e) => e.Content).find((c) => c.includes('interval below'));
    expect(await failure('zh')).toBe('执行失败：设置值超出设备的范围。设备返回：interval below 5 min');
    expect(await failure('en')).toBe("Failed: a value is out of the device's range. The device said: interval below 5 min");
    expect(await data<WorkStatus>(calls.GetWorkStatus, { imei: 'H-ONE' })).toMatchObject({ IntervalMinutes: 10 });
    expect(await data<Exceed[]>(calls.Exceedrestrict, { imeis: ['H-ONE', 'H-FRESH'], type: 'ACQUISITION_FREQUENCY' })).toEqual([
      { IMEI: 'H-ONE', Caption: 'H-ONE', Count: 2, Exceeded: true },
      { IMEI: 'H-FRESH', Caption: 'H-FRESH', Count: 0, Exceeded: false },
    ]);
    const n = await rows();
    const en = await send(['H-FRESH', 'H-ONE'], FIX_10_ACC_25);
    expect(en).toMatchObject({ Code: Code.Failed, Msg: 'Nothing was sent: H-ONE (H-ONE) already got 2 instructions of this type today, the daily limit.' });
    const zh = await send(['H-ONE'], FIX_10_ACC_25, { lang: 'zh' });
    expect(zh.Msg).toBe('指令未发送：H-ONE (H-ONE)今天已收到 2 条此类指令，已达每日上限。');
    expect(await rows()).toBe(n);
    // another type still has its own two
    expect((await send(['H-ONE'], POSTBACK_COUNT)).Code).toBe(Code.Success);
    // the caller's next day: 00:00 +08:00 on the 21st
    setClock(Date.UTC(2026, 10, 20, 16, 0, 0));
    expect((await data<Exceed[]>(calls.Exceedrestrict, { imeis: ['H-ONE'], type: 'ACQUISITION_FREQUENCY' }))[0]!.Count).toBe(0);
    // ...while for a caller in UTC it is still the 20th, the day of the two
    expect((await data<Exceed[]>(calls.Exceedrestrict, { imeis: ['H-ONE'], type: 'ACQUISITION_FREQUENCY', timeZone: '+00:00' }))[0]!.Count).toBe(2);
  });

  it("refuses each device that can't take it, saying why, and stores nothing for any", async () => {
    const n = await rows();
    const r = await send(['H-FRESH', 'H-VHF', 'H-STOCK'], FIX_10_ACC_25);
    expect(r.Code).toBe(Code.Failed);
    expect(r.Msg).toBe(
      'Nothing was sent: H-VHF (H-VHF) is a VHF receiver, which takes no instructions; H-STOCK (H-STOCK) is in a work status that takes no instructions (only not mounted, working or under maintenance do).',
    );
    // ...and the same by device in Data, for a client to put each reason beside its device
    expect(r.Data).toEqual({
      Refused: [
        { IMEI: 'H-VHF', Caption: 'H-VHF', Reason: 'H-VHF (H-VHF) is a VHF receiver, which takes no instructions' },
        { IMEI: 'H-STOCK', Caption: 'H-STOCK', Reason: 'H-STOCK (H-STOCK) is in a work status that takes no instructions (only not mounted, working or under maintenance do)' },
      ],
    });
    const zh = await send(['H-STOCK'], FIX_10_ACC_25, { lang: 'zh' });
    expect(zh.Msg).toBe('指令未发送：H-STOCK (H-STOCK)的工作状态不允许远程指令（仅未佩戴、工作中、维护中可以）。');
    const cases: [InstructionParamsInput, string, string][] = [
      [{ Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'ADAPTIVE_HIGH', High: 10, Medium: 20, Low: 40 } }, 'does not support voltage-adaptive high-frequency fixes', '不支持电压自适应（高频）定位'],
      [{ Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'ADAPTIVE_LOW', High: [0], Medium: [0], Low: [0] } }, 'does not support voltage-adaptive low-frequency fixes', '不支持电压自适应（低频）定位'],
      [{ Type: 'ACQUISITION_FREQUENCY', ACC: { Mode: 'OFF' } }, 'has no acceleration sensor', '没有加速度传感器'],
      [{ Type: 'POSTBACK_FREQUENCY', Postback: { Mode: 'HOUR', Hours: [8, 20] } }, 'does not support postback at set hours', '不支持按时间点回传'],
    ];
    for (const [params, en, zhText] of cases) {
      expect(await send(['H-BARE'], params)).toMatchObject({ Code: Code.Failed, Msg: `Nothing was sent: H-BARE (H-BARE) ${en}.` });
      expect((await send(['H-BARE'], params, { lang: 'zh' })).Msg).toBe(`指令未发送：H-BARE (H-BARE)${zhText}。`);
    }
    expect(await rows()).toBe(n);
  });

  it('refuses bad params with the field and the message of §8, in both languages', async () => {
    const n = await rows();
    const empty = await send(['H-FRESH'], { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL' } } as unknown as InstructionParamsInput);
    expect(empty).toMatchObject({ Code: Code.Invalid, Msg: 'The collection interval cannot be empty.', Data: { Field: 'params.GNSS.IntervalMinutes' } });
    expect((await send(['H-FRESH'], { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL' } } as unknown as InstructionParamsInput, { lang: 'zh' })).Msg).toBe('采集间隔不能为空。');
    const seven = { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'ADAPTIVE_LOW', High: [0, 1], Medium: [0], Low: [0, 1, 2, 3, 4, 5, 6] } } as InstructionParamsInput;
    expect(await send(['H-FRESH'], seven)).toMatchObject({ Code: Code.Invalid, Msg: 'Too many time points in the low-battery setting: at most 6.' });
    expect((await send(['H-FRESH'], seven, { lang: 'zh' })).Msg).toBe('低电量设置的时间点过多，最多 6 个。');
    expect(await rows()).toBe(n);
  });

  it('gives a stranger, an expired share, a share without RemoteInstr, an experience device and no token nothing, changing nothing', async () => {
    const n = await rows();
    const ev = await t.database.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(await send(['B-NOINSTR'], FIX_10_ACC_25)).toMatchObject({ Code: Code.Forbidden, Msg: 'Nothing was sent: B-NOINSTR (B-NOINSTR) has no remote control permission for you.' });
    expect((await send(['B-NOINSTR'], FIX_10_ACC_25, { lang: 'zh' })).Msg).toBe('指令未发送：B-NOINSTR (B-NOINSTR)没有远程控制权限。');
    expect((await send(['S-EXAMPLE'], FIX_10_ACC_25)).Code).toBe(Code.Forbidden);
    expect((await call(calls.Exceedrestrict, { imeis: ['B-NOINSTR'], type: 'ACQUISITION_FREQUENCY' })).Code).toBe(Code.Forbidden);
    for (const imei of ['B-EXPIRED', 'B-PRIVATE']) {
      expect(await send([imei], FIX_10_ACC_25)).toMatchObject({ Code: Code.NotFound, Msg: 'No such device' });
      expect(await call(calls.GetInstructionList, { imeis: [imei], startTime: '2026-11-01 00:00:00', endTime: '2026-12-01 00:00:00' })).toMatchObject({ Code: Code.NotFound });
    }
    expect((await send(['H-FRESH'], FIX_10_ACC_25, { token: bob })).Code).toBe(Code.NotFound);
    expect((await send(['H-FRESH'], FIX_10_ACC_25, { token: null })).Code).toBe(Code.SessionExpired);
    expect(await rows()).toBe(n);
    expect((await t.database.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n).toEqual(ev.n);
    // a share with RemoteInstr may send: its owner's device has no reported schedule, so no estimate
    const [shared] = (await data<{ List: Instruction[] }>(calls.SendInstruction, { imeis: ['B-INSTR'], params: POSTBACK_COUNT })).List;
    expect(shared).toMatchObject({ IMEI: 'B-INSTR', Status: 'SENT', EstimateExecuteTime: '' });
    // the recipient sees the instructions sent inside the share's window; the owner all of them
    const before = await new InstructionRepository(t.database.db).insertHistory({
      deviceId: ids.get('B-INSTR')!, type: 'POSTBACK_FREQUENCY', params: JSON.stringify(POSTBACK_COUNT), timeZone: ZONE, senderUserId: null, estimate: null,
      commDeadline: T0 - DAY, status: 'SUCCESSFUL', sendTime: T0 - 2 * DAY, executeTime: T0 - 2 * DAY + MIN, error: null,
    });
    expect((await history(['B-INSTR'])).List.map((i) => i.Id)).toEqual([shared!.Id]);
    expect((await history(['B-INSTR'], {}, bob)).List.map((i) => i.Id)).toEqual([shared!.Id, before]);
  });

  it('withdraws a fresh instruction, which is then never delivered, and refuses an old or answered one', async () => {
    const [fresh] = (await data<{ List: Instruction[] }>(calls.SendInstruction, { imeis: ['H-FRESH'], params: POSTBACK_COUNT })).List;
    setClock(T0 + 119_000);
    const w = await data<Instruction>(calls.WithdrawInstruction, { imei: 'H-FRESH', instructionId: fresh!.IdStr });
    expect(w).toMatchObject({ Status: 'WITHDRAWN', CanWithdraw: false });
    expect((await device('H-FRESH', '/batch', fix(T0))).body.instructions).toEqual([]);
    expect((await events(fresh!.Id)).map((e) => (e as unknown as { status: string }).status)).toEqual(['SENT', 'WITHDRAWN']);
    // withdrawn ones don't count against the day
    expect((await data<Exceed[]>(calls.Exceedrestrict, { imeis: ['H-FRESH'], type: 'POSTBACK_FREQUENCY' }))[0]!.Count).toBe(0);

    setClock(T0);
    const [old] = (await data<{ List: Instruction[] }>(calls.SendInstruction, { imeis: ['H-FRESH'], params: POSTBACK_COUNT })).List;
    setClock(T0 + 2 * MIN);
    expect(await call(calls.WithdrawInstruction, { imei: 'H-FRESH', instructionId: old!.IdStr })).toMatchObject({ Code: Code.Failed, Msg: 'Instructions older than 2 minutes cannot be withdrawn.' });
    expect((await call(calls.WithdrawInstruction, { imei: 'H-FRESH', instructionId: old!.IdStr }, { lang: 'zh' })).Msg).toBe('超过 2 分钟的指令不能撤回。');
    setClock(T0 + MIN);
    await device('H-FRESH', '/batch', fix(T0));
    await device('H-FRESH', '/ack', { id: old!.Id, outcome: 'SUCCESSFUL', executedAt: T0 + MIN });
    expect(await call(calls.WithdrawInstruction, { imei: 'H-FRESH', instructionId: old!.IdStr })).toMatchObject({ Code: Code.Failed, Msg: 'This instruction is already Successful and cannot be withdrawn.' });
    expect(await call(calls.WithdrawInstruction, { imei: 'H-ONE', instructionId: old!.IdStr })).toMatchObject({ Code: Code.NotFound, Msg: 'There is no such instruction.' });
    expect((await call(calls.WithdrawInstruction, { imei: 'B-NOINSTR', instructionId: old!.IdStr })).Code).toBe(Code.Forbidden);
    expect((await history(['H-FRESH'])).List.find((i) => i.Id === old!.Id)!.Status).toBe('SUCCESSFUL');
  });

  it('marks an instruction its device did not fetch within its postback window plus the margin COMM_ERROR', async () => {
    // H-ONE now reports every 10 min, sent at 0/6/12/18 h: a window of 10 + 360 min, plus half of it
    const [sent] = (await data<{ List: Instruction[] }>(calls.SendInstruction, { imeis: ['H-ONE'], params: POSTBACK_COUNT })).List;
    setClock(T0 + 370 * MIN + 185 * MIN - 1);
    await t.services.instructions.markCommErrors();
    expect((await history(['H-ONE'])).List.find((i) => i.Id === sent!.Id)!.Status).toBe('SENT');
    setClock(T0 + 370 * MIN + 185 * MIN);
    await t.services.instructions.markCommErrors();
    expect((await history(['H-ONE'], { status: 'COMM_ERROR' })).List.map((i) => i.Id)).toContain(sent!.Id);
    expect((await events(sent!.Id)).map((e) => (e as unknown as { status: string }).status)).toEqual(['SENT', 'COMM_ERROR']);
    // too late for an acknowledgement
    expect((await device('H-ONE', '/ack', { id: sent!.Id, outcome: 'SUCCESSFUL', executedAt: clockNow() })).status).toBe(404);
  });

  it('stores one of two Sends racing for the last slot of the day', async () => {
    expect((await send(['H-RACE'], POSTBACK_COUNT)).Code).toBe(Code.Success);
    const n = await rows();
    const [a, b] = await Promise.all([send(['H-RACE'], POSTBACK_COUNT), send(['H-RACE'], POSTBACK_COUNT)]);
    expect([a.Code, b.Code].sort()).toEqual([Code.Success, Code.Failed].sort());
    expect(await rows()).toBe(n + 1);
    expect((await data<Exceed[]>(calls.Exceedrestrict, { imeis: ['H-RACE'], type: 'POSTBACK_FREQUENCY' }))[0]).toMatchObject({ Count: 2, Exceeded: true });
    // The transaction's own rule, without the service's check before it: of six at once, two are stored.
    const repo = new InstructionRepository(t.database.db);
    const row = { deviceId: ids.get('H-RACE')!, type: 'ACQUISITION_FREQUENCY', params: JSON.stringify(FIX_10_ACC_25), timeZone: ZONE, senderUserId: null, estimate: null, commDeadline: T0 + DAY };
    const results = await Promise.all(Array.from({ length: 6 }, () => repo.sendAll([row], 'ACQUISITION_FREQUENCY', T0 - HOUR, T0 + HOUR, 2, T0)));
    expect(results.filter((r) => 'ids' in r)).toHaveLength(2);
    expect((await repo.countsSince([row.deviceId], 'ACQUISITION_FREQUENCY', T0 - HOUR, T0 + HOUR)).get(row.deviceId)).toBe(2);
  });

  it('shows a device that never reported its work status as unknown, until its own report in a batch', async () => {
    expect(await data<WorkStatus>(calls.GetWorkStatus, { imei: 'H-BARE' })).toEqual({ Known: false, IMEI: 'H-BARE', LastWorkTime: '2026-11-20 09:00:00', BatteryType: 0 });
    const d = await detailOf('H-BARE');
    expect(d).toMatchObject({ GNSSCollectionDesc: 'Unknown (the device has not reported it)', SamplingTimes: null });
    expect((await detailOf('H-BARE', 'zh')).GNSSCollectionDesc).toBe('未知（设备尚未上报）');
    const report = workSettings({ NormalType: 'HOURS', CustomHours: [0, 12], PostbackHours: [1] });
    expect((await device('H-BARE', '/batch', { ...fix(T0 - HOUR), workStatus: { at: T0 - HOUR, settings: report } })).status).toBe(200);
    expect(await data<WorkStatus>(calls.GetWorkStatus, { imei: 'H-BARE' })).toMatchObject({ Known: true, NormalType: 'HOURS', CustomHours: [8, 20], PostbackHours: [9], ReportedTime: '2026-11-20 09:00:00' });
    // an older report arriving late does not undo it
    await device('H-BARE', '/batch', { workStatus: { at: T0 - 2 * HOUR, settings: workSettings() } });
    expect(await data<WorkStatus>(calls.GetWorkStatus, { imei: 'H-BARE' })).toMatchObject({ NormalType: 'HOURS' });
    // a relay that is not a device of the organisation refuses the batch
    expect((await device('H-BARE', '/batch', { ...fix(T0), relay: 'B-PRIVATE' })).status).toBe(400);
  });

  it('counts and pages the history by device, range, type and status, newest first', async () => {
    const all = await history(['H-ONE', 'H-FRESH']);
    expect(all.Total).toBe((await data<{ Count: number }>(calls.GetInstructionCount, { imeis: ['H-ONE', 'H-FRESH'], startTime: '2026-11-01 00:00:00', endTime: '2026-12-31 00:00:00' })).Count);
    const page = await history(['H-ONE', 'H-FRESH'], { pageSize: 10, currentPage: 1, type: 'POSTBACK_FREQUENCY' });
    expect(page.List.every((i) => i.InstrType === 'POSTBACK_FREQUENCY')).toBe(true);
    for (let i = 1; i < all.List.length; i++) expect(all.List[i - 1]!.SendAt).toBeGreaterThanOrEqual(all.List[i]!.SendAt);
    expect((await history(['H-ONE'], { startTime: '2026-11-21 00:00:00', endTime: '2026-11-22 00:00:00' })).Total).toBe(0);
    expect((await call(calls.GetInstructionCount, { imeis: ['H-ONE'], startTime: '2026-11-21 00:00:00', endTime: '2026-11-20 00:00:00' })).Code).toBe(Code.Invalid);
  });
});
