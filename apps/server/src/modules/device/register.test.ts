import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BatteryType, calls, Code, DeviceType, type InstructionParamsInput, InstrSupportFlag, type RegisteredDevice, SensorFlag } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { NOW } from '../../test/fixed-time.js';
import { useFixedClock } from '../../test/clock.js';

/** 15-digit IMEIs with their Luhn check digit (and one with the wrong one). */
const IMEI_ABLE = '864512041234567';
const IMEI_PLAIN = '864512041234575';
const IMEI_BAD_CHECK = '864512041234566';

const ADAPTIVE_HIGH: InstructionParamsInput = { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'ADAPTIVE_HIGH', High: 10, Medium: 20, Low: 40 } };
const ACC_OFF: InstructionParamsInput = { Type: 'ACQUISITION_FREQUENCY', ACC: { Mode: 'OFF' } };

describe.each(DIALECTS)('registering a device from the console on %s', (dialect) => {
  let t: TestApp;
  let chief: string;
  let ranger: string;
  let folderId: string;
  const password = 'Field-Station-1';

  useFixedClock(NOW);
  beforeAll(async () => {
    t = await createTestApp(dialect);
    const tag = randomBytes(3).toString('hex');
    await t.services.users.createUser({ orgName: `Wetland ${tag}`, userName: `chief${tag}`, password, isPrimary: true });
    await t.services.users.createUser({ orgName: `Wetland ${tag}`, userName: `ranger${tag}`, password });
    chief = (await t.login(`chief${tag}`, password)).credential!;
    ranger = (await t.login(`ranger${tag}`, password)).credential!;
    const created = await t.call(calls.CreateFolder.path, { name: 'Cranes', parentId: '-1' }, { token: chief });
    folderId = (created.body.Data as { IdStr: string }).IdStr;
  }, 60_000);
  afterAll(async () => t?.close());

  const devices = async () => Number((await t.database.db.selectFrom('devices').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const register = (body: Record<string, unknown>, opts: { token?: string; lang?: 'en' | 'zh' } = {}) => t.call(calls.RegisterDevice.path, body, { token: chief, ...opts });

  /** The example request of the answer, sent as it reads: its headers and its body to the ingest route. */
  async function sendExample(example: string) {
    const url = /"\$WILDTRACK_URL([^"]+)"/.exec(example)![1]!;
    const headers = Object.fromEntries([...example.matchAll(/-H '([^:]+): ([^']*)'/g)].map((m) => [m[1]!, m[2]!]));
    const payload = /--data '([^']*)'/.exec(example)![1]!;
    return t.app.inject({ method: 'POST', url, headers, payload });
  }
  const send = (imei: string, params: InstructionParamsInput) => t.call(calls.SendInstruction.path, { imeis: [imei], params, timeZone: '+08:00' }, { token: chief });

  it('registers a device with its abilities: the secret once, an example request that ingests, and the instructions it can carry out accepted', async () => {
    const r = await register({
      imei: ` ${IMEI_ABLE} `, deviceType: DeviceType.Tracker, model: 'HQBG1206', caption: 'Crane 7', sensors: ['GNSS', 'Acceleration'],
      instrSupport: ['AccCollectionSwitch', 'GNSSCollectionAdaptiveHighFrequency'], batteryType: BatteryType.Li, folderId,
    });
    expect(r.body.Code, r.body.Msg).toBe(Code.Success);
    const d = r.body.Data as RegisteredDevice;
    expect(d).toMatchObject({ IMEI: IMEI_ABLE, Caption: 'Crane 7' });
    expect(d.Secret).toMatch(/^[\w-]{32}$/);
    expect(d.ExampleRequest).toContain('/ingest/v1/batch');
    expect(d.ExampleRequest).not.toContain(d.Secret);
    const row = await t.database.db.selectFrom('devices').selectAll().where('imei', '=', IMEI_ABLE).executeTakeFirstOrThrow();
    expect(Number(row.instr_support)).toBe(InstrSupportFlag.AccCollectionSwitch | InstrSupportFlag.GNSSCollectionAdaptiveHighFrequency);
    expect(Number(row.sensors)).toBe(SensorFlag.GNSS | SensorFlag.Acceleration);
    expect([row.model, Number(row.battery_type), Number(row.type), String(row.folder_id)]).toEqual(['HQBG1206', BatteryType.Li, DeviceType.Tracker, folderId]);

    // The example request is what the device sends: it is accepted, and the device has now reported.
    expect((await sendExample(d.ExampleRequest)).statusCode).toBe(200);
    const adaptive = await send(IMEI_ABLE, ADAPTIVE_HIGH);
    expect(adaptive.body.Code, adaptive.body.Msg).toBe(Code.Success);
    expect((await send(IMEI_ABLE, ACC_OFF)).body.Code).toBe(Code.Success);
    // An ability it was not registered with is refused.
    const low = await send(IMEI_ABLE, { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'ADAPTIVE_LOW', High: [0], Medium: [0], Low: [0] } });
    expect(low.body.Code).not.toBe(Code.Success);
    expect(low.body.Msg).toContain('does not support voltage-adaptive low-frequency fixes');
  });

  it('a device registered without abilities is refused the instruction', async () => {
    const r = await register({ imei: IMEI_PLAIN, deviceType: DeviceType.Tracker, sensors: ['GNSS', 'Acceleration'] });
    expect(r.body.Code, r.body.Msg).toBe(Code.Success);
    const d = r.body.Data as RegisteredDevice;
    expect(d.Caption).toBe(IMEI_PLAIN);
    expect((await sendExample(d.ExampleRequest)).statusCode).toBe(200);
    const refused = await send(IMEI_PLAIN, ADAPTIVE_HIGH);
    expect(refused.body.Code).not.toBe(Code.Success);
    expect(refused.body.Msg).toContain('does not support voltage-adaptive high-frequency fixes');
  });

  it('refuses a member, a wrong check digit, a registered IMEI, an unknown ability and another folder, writing nothing', async () => {
    const before = await devices();
    const member = await register({ imei: '864512041234583', deviceType: DeviceType.Tracker }, { token: ranger });
    expect(member.body).toMatchObject({ Code: Code.Forbidden, Msg: "Only your organisation's primary user can register devices" });
    expect((await register({ imei: '864512041234583', deviceType: DeviceType.Tracker }, { token: ranger, lang: 'zh' })).body.Msg).toBe('只有本单位的主账号可以注册设备');

    const en = await register({ imei: IMEI_BAD_CHECK, deviceType: DeviceType.Tracker });
    expect(en.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'imei' }, Msg: "The IMEI's check digit (the 15th digit) is wrong; check the number on the device's label." });
    const zh = await register({ imei: IMEI_BAD_CHECK, deviceType: DeviceType.Tracker }, { lang: 'zh' });
    expect(zh.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'imei' }, Msg: 'IMEI的校验位（第 15 位）不正确，请核对设备标签上的号码。' });
    expect((await register({ imei: '86451204123', deviceType: DeviceType.Tracker })).body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'imei' }, Msg: 'The IMEI must be 15 digits.' });

    const dup = await register({ imei: IMEI_ABLE, deviceType: DeviceType.Tracker });
    expect(dup.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'imei' }, Msg: 'The IMEI is registered already.' });
    expect((await register({ imei: IMEI_ABLE, deviceType: DeviceType.Tracker }, { lang: 'zh' })).body.Msg).toBe('IMEI已注册，不能重复注册。');

    const ability = await register({ imei: '864512041234583', deviceType: DeviceType.Tracker, instrSupport: ['Teleport'] });
    expect(ability.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'instrSupport[0]' } });
    expect((await register({ imei: '864512041234583', deviceType: 0 })).body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'deviceType' } });
    expect((await register({ imei: '864512041234583', deviceType: DeviceType.Tracker, folderId: '999999' })).body.Code).toBe(Code.NotFound);
    expect(await devices()).toBe(before);
  });
});
