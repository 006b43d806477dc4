// A device's life told truthfully (issue 28 item 1, first slice): an imported archive study is archived,
// takes no instruction and raises no events about its history; a device that never reported takes none;
// a live one still does.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DeviceStatus, DeviceType, EventType, INGEST_BASE, ingestHeaders, type InstructionParamsInput, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { contractCalls } from '../../test/contract-calls.js';
import { NOW, MIN, ZONE } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';
import { movebankServices } from '../../app.js';
import { recordSilences } from '../../db/event-writes.js';
import { importMovebank } from './index.js';
import { movebankImei } from './values.js';
import { migrateToLatest } from '../../db/connect.js';

const ARCHIVE_MIGRATION = '2026-12-07T15-00-00_archive_past_imports';

const FIX_10: InstructionParamsInput = { Type: 'ACQUISITION_FREQUENCY', GNSS: { Mode: 'INTERVAL', IntervalMinutes: 10 } };

describe.each(DIALECTS)('a device life on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let file: string;
  const { call } = contractCalls(() => t, () => alice, { timeZone: ZONE });
  const secrets = new Map<string, string>();
  const db = () => t.database.db;
  const archivedImei = movebankImei('T1', 'Fisher 2011');

  useFixedClock(NOW);
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Marten Lab' }));
    const orgId = await t.services.devices.orgIdByName('Marten Lab');
    // A 2011 study: three fixes, the last with a battery at 3.0 V (low), all 15 years before NOW.
    const header = 'event-id,visible,timestamp,location-long,location-lat,eobs:battery-voltage,sensor-type,tag-local-identifier,individual-local-identifier,individual-taxon-canonical-name';
    const rows = [
      '1,true,2011-02-10 10:00:00.000,-73.9,42.7,4100,gps,T1,Fisher 2011,Martes pennanti',
      '2,true,2011-02-10 11:00:00.000,-73.9,42.8,3600,gps,T1,Fisher 2011,Martes pennanti',
      '3,true,2011-02-10 12:00:00.000,-73.8,42.8,3000,gps,T1,Fisher 2011,Martes pennanti',
    ];
    file = path.join(t.dataDir, 'archive-study.csv');
    fs.writeFileSync(file, `${[header, ...rows].join('\n')}\n`);
    const reg = async (imei: string) => {
      const r = await t.services.devices.register({
        orgId, imei, caption: imei, type: DeviceType.Tracker, speciesType: SpeciesType.Beast, sensors: ['GNSS'], instrSupport: [],
      });
      secrets.set(imei, r.secret);
    };
    await reg('L-NEVER');
    await reg('L-LIVE');
    // L-LIVE reports a fix 10 minutes ago through the device routes.
    const body = JSON.stringify({ fixes: { t: [NOW - 10 * MIN], lon: [121], lat: [31] } });
    const headers = ingestHeaders({ imei: 'L-LIVE', secret: secrets.get('L-LIVE')!, path: `${INGEST_BASE}/batch`, body, now: clockNow() });
    const res = await t.app.inject({ method: 'POST', url: `${INGEST_BASE}/batch`, headers: { ...headers, 'content-type': 'application/json' }, payload: body });
    expect(res.statusCode).toBe(200);
    const services = movebankServices(t.database, t.dataDir);
    const report = await importMovebank(services, { file, orgId, folderId: null, now: NOW });
    expect(report.fixes.stored).toBe(3);
    // the silence job's pass after the import
    await recordSilences(db(), NOW, DeviceStatus.Working);
  }, 60_000);
  afterAll(async () => t?.close());

  it('archives an imported device whose last fix is older than its schedule allows', async () => {
    const d = await db().selectFrom('devices').select(['status', 'last_work_time']).where('imei', '=', archivedImei).executeTakeFirstOrThrow();
    expect(Number(d.status)).toBe(DeviceStatus.Retrieved);
    expect(Number(d.last_work_time)).toBe(Date.UTC(2011, 1, 10, 12));
  });

  it('raises no silent, battery-low or reports-again event about the imported history', async () => {
    const d = await db().selectFrom('devices').select('id').where('imei', '=', archivedImei).executeTakeFirstOrThrow();
    const events = await db().selectFrom('events').select(['type', 'content']).where('device_id', '=', d.id).execute();
    expect(events.filter((e) => e.type === EventType.Device || e.type === EventType.FixUpdate)).toEqual([]);
  });

  it('refuses an instruction to the archived device, saying why in both languages', async () => {
    const en = await call(calls.SendInstruction, { imeis: [archivedImei], params: FIX_10 });
    expect(en.Code).toBe(Code.Failed);
    expect(en.Msg).toContain('is archived');
    expect(en.Msg).toContain('2011-02-10 20:00:00');
    const zh = await call(calls.SendInstruction, { imeis: [archivedImei], params: FIX_10 }, { lang: 'zh' });
    expect(zh.Code).toBe(Code.Failed);
    expect(zh.Msg).toContain('已归档');
    expect(await db().selectFrom('instructions').select('id').execute()).toEqual([]);
  });

  it('refuses an instruction to a device that never reported, in both languages', async () => {
    const en = await call(calls.SendInstruction, { imeis: ['L-NEVER'], params: FIX_10 });
    expect(en.Code).toBe(Code.Failed);
    expect(en.Msg).toContain('has never reported');
    const zh = await call(calls.SendInstruction, { imeis: ['L-NEVER'], params: FIX_10 }, { lang: 'zh' });
    expect(zh.Msg).toContain('从未上报');
    expect(await db().selectFrom('instructions').select('id').execute()).toEqual([]);
  });

  it('still sends to a live device', async () => {
    const r = await call(calls.SendInstruction, { imeis: ['L-LIVE'], params: FIX_10 });
    expect(r.Code, r.Msg).toBe(Code.Success);
    const d = await db().selectFrom('devices').select('status').where('imei', '=', 'L-LIVE').executeTakeFirstOrThrow();
    expect(Number(d.status)).toBe(DeviceStatus.Working);
  });

  it('archives, in a database made before the rule, a device imported earlier: the migration, once', async () => {
    // the archived device as an import before the rule left it: Working, silent since 2011
    await db().updateTable('devices').set({ status: DeviceStatus.Working }).where('imei', '=', archivedImei).execute();
    const status = async (imei: string) => Number((await db().selectFrom('devices').select('status').where('imei', '=', imei).executeTakeFirstOrThrow()).status);
    await sql`delete from kysely_migration where name = ${ARCHIVE_MIGRATION}`.execute(db());
    expect(await migrateToLatest(t.database)).toEqual([ARCHIVE_MIGRATION]);
    expect(await status(archivedImei)).toBe(DeviceStatus.Retrieved);
    // a device of the organisation's own, live or never heard, is not an import: left Working
    expect(await status('L-LIVE')).toBe(DeviceStatus.Working);
    expect(await status('L-NEVER')).toBe(DeviceStatus.Working);
    const en = await call(calls.SendInstruction, { imeis: [archivedImei], params: FIX_10 });
    expect(en.Msg).toContain('is archived');
  });
});
