// Movebank's outlier marks through the whole product (the table, valid-only tracks, the converted-invalid
// list in both languages), a re-import after marks changed in Movebank, a second organisation importing
// the same study, and the CLI's exit status from the report.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, type Fix, FixValidValue } from '@wildtrack/contract';
import { INVALID_BY_SOURCE } from '../../db/schema.js';
import { movebankServices } from '../../app.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { importMovebank, importOutcome, type MovebankImportReport, movebankImei } from './index.js';
import { NOW } from '../../test/fixed-time.js';

const HEADER = 'event-id,visible,timestamp,location-long,location-lat,manually-marked-outlier,tag-local-identifier,individual-local-identifier';
const T0 = Date.UTC(2024, 5, 1, 12);
const at = (i: number) => T0 + i * 600_000;
const stamp = (i: number) => new Date(at(i)).toISOString().replace('T', ' ').slice(0, 23);
/** One GPS row of tag T1 on Anna: event i at T0 + i x 10 min. */
const row = (i: number, visible: 'true' | 'false', manual: '' | 'true' | 'false' = 'false') => `${i},${visible},${stamp(i)},8.${i},47.${i},${manual},T1,Anna`;
type Page = { List: Fix[]; Total: number };

describe.each(DIALECTS)('Movebank marks on %s', (dialect) => {
  let t: TestApp;
  let services: ReturnType<typeof movebankServices>;
  let token: string;
  let userId: number;
  let orgId: number;
  let folderId: number;
  const imei = movebankImei('T1', 'Anna');
  const file = (name: string, rows: string[]) => {
    const f = path.join(t.dataDir, name);
    fs.writeFileSync(f, `${[HEADER, ...rows].join('\n')}\n`);
    return f;
  };
  const fixes = async (deviceImei = imei) =>
    (
      await t.database.db
        .selectFrom('fixes')
        .innerJoin('devices', 'devices.id', 'fixes.device_id')
        .select(['fixes.pick_time', 'fixes.valid', 'fixes.invalid_by', 'fixes.invalid_reason'])
        .where('devices.imei', '=', deviceImei)
        .orderBy('fixes.pick_time')
        .execute()
    ).map((f) => [(Number(f.pick_time) - T0) / 600_000, f.valid, f.invalid_by === null ? null : Number(f.invalid_by), f.invalid_reason]);
  const converted = async (lang: 'zh' | 'en') => {
    const r = await t.call(calls.GetConvertedInvalidListPage.path, { imei, timeZone: '+00:00' }, { token, lang });
    expect(r.body.Code, r.body.Msg).toBe(Code.Success);
    return (r.body.Data as Page).List.map((f) => [f.Id, f.ValidValue, f.ConvertedInvalid?.Operator]);
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    let userName: string;
    ({ token, userName } = await t.userWithToken({ org: 'Mark Lab' }));
    userId = Number((await t.database.db.selectFrom('users').select('id').where('user_name', '=', userName).executeTakeFirstOrThrow()).id);
    services = movebankServices(t.database, t.dataDir);
    orgId = await services.devices.orgIdByName('Mark Lab');
    folderId = await services.folders.findOrCreateFolder(orgId, 'Movebank', NOW);
  });
  afterAll(async () => t.close());

  let first: MovebankImportReport;
  it("stores what Movebank marked as invalid everywhere, named as Movebank's mark in both languages", async () => {
    first = await importMovebank(services, { file: file('v1.csv', [row(1, 'true'), row(2, 'false'), row(3, 'false', 'true'), row(4, 'true'), row(5, 'true')]), orgId, folderId, now: T0 });
    expect(first.fixes).toEqual({ stored: 5, withoutPosition: 0, markedInvalid: 2, outOfRange: 0, duplicates: 0, marks: { marked: 2, unmarked: 0 } });
    expect(await fixes()).toEqual([
      [1, 1, null, null],
      [2, 0, INVALID_BY_SOURCE, 'visible=false'],
      [3, 0, INVALID_BY_SOURCE, 'manually-marked-outlier=true'],
      [4, 1, null, null],
      [5, 1, null, null],
    ]);
    expect(await converted('en')).toEqual([
      [String(at(3)), FixValidValue.Marked, 'Marked in Movebank (manually-marked-outlier=true)'],
      [String(at(2)), FixValidValue.Marked, 'Marked in Movebank (visible=false)'],
    ]);
    expect((await converted('zh')).map((c) => c[2])).toEqual(['Movebank 标记（manually-marked-outlier=true）', 'Movebank 标记（visible=false）']);
    const range = { imei, startTime: '2024-06-01 00:00:00', endTime: '2024-06-02 00:00:00', timeZone: '+00:00' };
    const valid = await t.call(calls.GetFixListByPage.path, { ...range, validOnly: true }, { token });
    expect((valid.body.Data as Page).List.map((f) => Number(f.Id)).sort()).toEqual([at(1), at(4), at(5)]);
    // the table names the mark's maker too (without the reason, which only the converted list reads)
    const all = (await t.call(calls.GetFixListByPage.path, range, { token })).body.Data as Page;
    const second = all.List.find((f) => f.Id === String(at(2)))!;
    expect([second.ValidValue, second.Validity, second.ConvertedInvalid?.Operator]).toEqual([FixValidValue.Marked, 0, 'Marked in Movebank']);
  });

  it("applies marks changed in Movebank both ways on a re-import, never lifting a user's mark, and says what changed", async () => {
    // a user marks fixes 4 and 5 (irreversible)
    const mark = await t.call(calls.ConvertFixInvalid.path, { imei, ids: [String(at(4)), String(at(5))] }, { token });
    expect(mark.body.Data).toEqual({ Count: 2 });
    // since then, Movebank marked 1 and 5 and lifted its mark on 2 and 4 (4 was never its own)
    const v2 = file('v2.csv', [row(1, 'false'), row(2, 'true'), row(3, 'false', 'true'), row(4, 'true'), row(5, 'false')]);
    const again = await importMovebank(services, { file: v2, orgId, folderId, now: T0 + 1 });
    expect(again.fixes).toEqual({ stored: 0, withoutPosition: 0, markedInvalid: 3, outOfRange: 0, duplicates: 5, marks: { marked: 1, unmarked: 1 } });
    expect(await fixes()).toEqual([
      [1, 0, INVALID_BY_SOURCE, 'visible=false'],
      [2, 1, null, null],
      [3, 0, INVALID_BY_SOURCE, 'manually-marked-outlier=true'],
      [4, 0, userId, null],
      [5, 0, userId, null],
    ]);
    const once = await importMovebank(services, { file: v2, orgId, folderId, now: T0 + 2 });
    expect(once.fixes.marks).toEqual({ marked: 0, unmarked: 0 });
  });

  it('lets a second organisation import the same study into devices of its own', async () => {
    const other = await services.folders.createOrg('Second Lab', false, NOW);
    const otherFolder = await services.folders.findOrCreateFolder(other, 'Movebank', NOW);
    const r = await importMovebank(services, { file: path.join(t.dataDir, 'v1.csv'), orgId: other, folderId: otherFolder, now: T0 });
    expect(r.devices).toEqual({ created: 1, reused: 0 });
    expect(r.fixes).toMatchObject({ stored: 5, duplicates: 0, marks: { marked: 2, unmarked: 0 } });
    expect(r.skipped).toEqual([]);
    // IMEIs stay unique: theirs is one of the ids derived from the tag, not the first organisation's
    const d = await t.database.db.selectFrom('devices').select(['imei', 'org_id']).where('folder_id', '=', otherFolder).executeTakeFirstOrThrow();
    expect(Number(d.org_id)).toBe(other);
    expect([movebankImei('T1', 'Anna', true), movebankImei('T1', 'Anna', true, other)]).toContain(d.imei);
    expect((await fixes(d.imei)).map((f) => f[1])).toEqual([1, 0, 0, 1, 1]);
    // the first organisation's device and marks are as they were
    expect((await fixes()).map((f) => f[2])).toEqual([INVALID_BY_SOURCE, null, INVALID_BY_SOURCE, userId, userId]);
    expect(importOutcome(r, false)).toEqual({ code: 0, message: null });
  });

  it('reads a file a spreadsheet re-saved with semicolons and decimal commas, and says so', async () => {
    const f = path.join(t.dataDir, 'semicolons.csv');
    fs.writeFileSync(f, `${HEADER.replace(/,/g, ';')}\r\n8;true;${stamp(8)};8,125;47,5;;T8;Semi\r\n`);
    const r = await importMovebank(services, { file: f, orgId, folderId });
    expect([r.delimiter, r.fixes.stored, r.skipped]).toEqual([';', 1, []]);
    const fix = await t.database.db.selectFrom('fixes').innerJoin('devices', 'devices.id', 'fixes.device_id').select(['lon', 'lat']).where('devices.imei', '=', movebankImei('T8', 'Semi')).executeTakeFirstOrThrow();
    expect(fix).toEqual({ lon: 8.125, lat: 47.5 });
  });

  it('tells the CLI to fail when nothing was imported, or when rows were skipped unless that is accepted', async () => {
    const resaved = path.join(t.dataDir, 'resaved.csv');
    fs.writeFileSync(resaved, `${HEADER}\n1,true,31/05/2008 13:29:31,8.1,47.1,,T9,Zoe\n`);
    const none = await importMovebank(services, { file: resaved, orgId, folderId });
    expect(importOutcome(none, true)).toEqual({ code: 1, message: `nothing was imported from ${resaved}: all 1 rows were skipped (see "skipped")` });
    const some = await importMovebank(services, { file: file('some.csv', [row(6, 'true'), '7,true,31/05/2008 13:29:31,8.1,47.1,,T1,Anna']), orgId, folderId });
    expect(some.fixes.stored).toBe(1);
    expect(importOutcome(some, false).code).toBe(1);
    expect(importOutcome(some, false).message).toMatch(/^1 rows of .* were skipped .*--allow-skips/);
    expect(importOutcome(some, true)).toEqual({ code: 0, message: null });
  });
});
