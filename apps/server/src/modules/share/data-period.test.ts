import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DeviceType, type Fix, message, type ShareRecord, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { contractCalls } from '../../test/contract-calls.js';
import { DAY, HOUR, local, NOW, type Page, ZONE } from '../../test/fixed-time.js';
import { useFixedClock } from '../../test/clock.js';

/**
 * A share's data period (issue 28 item 2) apart from its window: a 7-day share starting now of a stork
 * with a month of fixes shows the recipient that month when it shares all history, from a date when it
 * shares from one, and nothing (told why) when it shares only its window.
 */
describe.each(DIALECTS)("a share's data period on %s", (dialect) => {
  useFixedClock(NOW);
  let t: TestApp;
  let alice: string;
  let bob: string;
  let bobName: string;
  const { call, data } = contractCalls(() => t, () => alice);

  /** Every 6 hours over the 30 days before now: 120 fixes of each stork. */
  const FIXES = 120;
  const month = { startTime: local(NOW - 30 * DAY), endTime: local(NOW - HOUR), timeZone: ZONE };
  const week = { effectiveTime: local(NOW), failureTime: local(NOW + 7 * DAY), timeZone: ZONE };
  const share = (imei: string, extra: Record<string, unknown> = {}) => call(calls.CreateShare, { imeis: [imei], account: bobName, ...week, ...extra });
  const rows = async () => (await t.database.db.selectFrom('device_shares').selectAll().orderBy('id').execute()).map((r) => ({ ...r, id: Number(r.id) }));
  const fixPage = (imei: string, body: Record<string, unknown> = {}, lang: 'en' | 'zh' = 'en') =>
    call(calls.GetFixListByPage, { imei, ...month, currentPage: 1, pageSize: 100, sortOrder: 'ascend', ...body }, { token: bob, lang });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Stork Lab' }));
    ({ token: bob, userName: bobName } = await t.userWithToken({ org: 'Ibis Lab' }));
    const org = await t.services.devices.orgIdByName('Stork Lab');
    const fixes = [];
    for (const imei of ['S-ALL', 'S-WINDOW', 'S-FROM', 'S-OMITTED', 'S-OLD']) {
      const d = await t.services.devices.register({ orgId: org, imei, caption: `${imei} stork`, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'] });
      for (let i = 1; i <= FIXES; i++) {
        const time = NOW - i * 6 * HOUR;
        fixes.push({ device_id: d.id, pick_time: time, lon: 10 + i / 1000, lat: 50, alt: 40, speed: 1, course: 0, temperature: 20, activity: 0, voltage: 3.9, channel: null, satellites: 8, hdop: 1, vdop: 1, grade: 1, valid: 1, tx_time: time, received_at: time, invalid_by: null, invalid_at: null, extra: null });
      }
    }
    await t.database.db.insertInto('fixes').values(fixes).execute();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('ALL: the recipient of a 7-day share starting now pages the last month of fixes', async () => {
    expect((await share('S-ALL', { dataPeriod: 'ALL' })).Code).toBe(Code.Success);
    const r = await fixPage('S-ALL');
    expect(r.Code, r.Msg).toBe(Code.Success);
    expect((r.Data as Page<Fix>).Total).toBe(FIXES);
    expect((r.Data as Page<Fix>).List[0]!.PickTime).toBe(local(NOW - FIXES * 6 * HOUR));
    const second = await fixPage('S-ALL', { currentPage: 2, pageSize: 50 });
    expect((second.Data as Page<Fix>).List.map((f) => f.PickTime)[0]).toBe(local(NOW - (FIXES - 50) * 6 * HOUR));
  });

  it('WINDOW: the same share refuses the last month, saying in the caller\'s language what it covers', async () => {
    expect((await share('S-WINDOW', { dataPeriod: 'WINDOW' })).Code).toBe(Code.Success);
    const en = await fixPage('S-WINDOW');
    expect(en.Code).toBe(Code.Failed);
    expect(en.Msg).toBe(message('en', 'share.dataWindow', { from: local(NOW), to: local(NOW + 7 * DAY) }));
    const zh = await fixPage('S-WINDOW', {}, 'zh');
    expect(zh.Msg).toBe(message('zh', 'share.dataWindow', { from: local(NOW), to: local(NOW + 7 * DAY) }));
    // the count and an export go through the same clamp
    expect((await call(calls.GetFixCount, { imei: 'S-WINDOW', ...month }, { token: bob })).Code).toBe(Code.Failed);
    // a range that reaches into the window is answered: the fix taken at its start... none yet, an empty page
    const touching = await fixPage('S-WINDOW', { endTime: local(NOW + HOUR) });
    expect(touching.Code).toBe(Code.Success);
    expect((touching.Data as Page<Fix>).Total).toBe(0);
  });

  it('an API caller that names no data period gets WINDOW (what a share always read); a share stored before the period existed reads its window', async () => {
    expect((await share('S-OMITTED')).Code).toBe(Code.Success);
    expect((await fixPage('S-OMITTED')).Code).toBe(Code.Failed);
    const device = await t.database.db.selectFrom('devices').select('id').where('imei', '=', 'S-OLD').executeTakeFirstOrThrow();
    const owner = await t.database.db.selectFrom('device_shares').select('owner_user_id').limit(1).executeTakeFirstOrThrow();
    const recipient = await t.database.db.selectFrom('device_shares').select('recipient_user_id').limit(1).executeTakeFirstOrThrow();
    // as a row written before the migration: no data period named, the column's default
    await t.database.db.insertInto('device_shares').values({
      device_id: device.id, owner_user_id: owner.owner_user_id, recipient_user_id: recipient.recipient_user_id, edit_device: 0, remote_instr: 0, download_data: 0,
      effective_time: NOW - 2 * DAY, failure_time: NOW + DAY, created_at: NOW,
    }).execute();
    const r = await fixPage('S-OLD');
    expect(r.Code, r.Msg).toBe(Code.Success);
    expect((r.Data as Page<Fix>).Total).toBe(8); // every 6 h from the window's start (included), 2 days ago
  });

  it('FROM a date: the recipient sees the fixes from that date on only; before it, told from when', async () => {
    const from = NOW - 10 * DAY;
    expect((await share('S-FROM', { dataPeriod: 'FROM', dataFrom: local(from) })).Code).toBe(Code.Success);
    const r = await fixPage('S-FROM');
    expect(r.Code, r.Msg).toBe(Code.Success);
    const list = (r.Data as Page<Fix>).List;
    expect(list).toHaveLength(40);
    expect(list[0]!.PickTime).toBe(local(from));
    const before = await fixPage('S-FROM', { endTime: local(from - HOUR) }, 'zh');
    expect(before.Code).toBe(Code.Failed);
    expect(before.Msg).toBe(message('zh', 'share.dataFrom', { from: local(from) }));
  });

  it('both lists state the data period granted; an update that names none keeps it, one that names another changes it', async () => {
    const given = (await data<{ List: ShareRecord[] }>(calls.GetSharedListByPage, { timeZone: ZONE })).List;
    const byImei = new Map(given.map((s) => [s.IMEI, s]));
    expect([byImei.get('S-ALL')?.DataPeriod, byImei.get('S-WINDOW')?.DataPeriod, byImei.get('S-OMITTED')?.DataPeriod]).toEqual(['ALL', 'WINDOW', 'WINDOW']);
    expect(byImei.get('S-FROM')).toMatchObject({ DataPeriod: 'FROM', DataFrom: local(NOW - 10 * DAY) });
    const got = (await data<{ List: ShareRecord[] }>(calls.GetReceivedListByPage, { timeZone: ZONE }, { token: bob })).List;
    expect(got.find((s) => s.IMEI === 'S-FROM')).toMatchObject({ DataPeriod: 'FROM', DataFrom: local(NOW - 10 * DAY) });
    expect(got.find((s) => s.IMEI === 'S-OLD')).toMatchObject({ DataPeriod: 'WINDOW', DataFrom: '' });

    const fromShare = byImei.get('S-FROM')!;
    const kept = await data<ShareRecord>(calls.UpdateShare, { shareId: fromShare.IdStr, ...week });
    expect(kept).toMatchObject({ DataPeriod: 'FROM', DataFrom: local(NOW - 10 * DAY) });
    const widened = await data<ShareRecord>(calls.UpdateShare, { shareId: fromShare.IdStr, ...week, dataPeriod: 'ALL', dataFrom: local(NOW) });
    expect(widened).toMatchObject({ DataPeriod: 'ALL', DataFrom: '' });
    expect(((await fixPage('S-FROM')).Data as Page<Fix>).Total).toBe(FIXES);
  });

  it('bad data periods are refused naming the field, in English and Chinese, and nothing is written', async () => {
    const refused = async (extra: Record<string, unknown>, field: string, lang: 'en' | 'zh') => {
      const before = await rows();
      const r = await call(calls.CreateShare, { imeis: ['S-ALL'], account: bobName, ...week, ...extra }, { lang });
      expect(r.Code, r.Msg).toBe(Code.Invalid);
      expect((r.Data as { Field?: string }).Field).toBe(field);
      expect(await rows()).toEqual(before);
      return r.Msg;
    };
    expect(await refused({ dataPeriod: 'FROM' }, 'dataFrom', 'en')).toBe(message('en', 'validation.shareDataFrom', { field: message('en', 'field.dataFrom') }));
    expect(await refused({ dataPeriod: 'FROM' }, 'dataFrom', 'zh')).toBe(message('zh', 'validation.shareDataFrom', { field: message('zh', 'field.dataFrom') }));
    expect(await refused({ dataPeriod: 'SOME' }, 'dataPeriod', 'en')).toContain(message('en', 'field.dataPeriod'));
    expect(await refused({ dataPeriod: 'SOME' }, 'dataPeriod', 'zh')).toContain(message('zh', 'field.dataPeriod'));
    expect(await refused({ dataPeriod: 'FROM', dataFrom: 'last month' }, 'dataFrom', 'en')).toContain(message('en', 'field.dataFrom'));
    expect(await refused({ dataPeriod: 'FROM', dataFrom: local(NOW + 8 * DAY) }, 'dataFrom', 'zh')).toContain(message('zh', 'field.dataFrom'));
    const shareId = (await data<{ List: ShareRecord[] }>(calls.GetSharedListByPage, { timeZone: ZONE })).List[0]!.IdStr;
    const before = await rows();
    const u = await call(calls.UpdateShare, { shareId, ...week, dataPeriod: 'FROM' }, { lang: 'zh' });
    expect([u.Code, (u.Data as { Field?: string }).Field]).toEqual([Code.Invalid, 'dataFrom']);
    expect(await rows()).toEqual(before);
  });
});
