// Movebank data in and out unchanged (issue 29): each height under its own datum, each column under the name
// it came in with (or Movebank's attribute dictionary's), Movebank's units (acceleration-x in m/s², animal_mass
// in grams), every invalid fix out as visible=false, and Movebank's own visibility rule (move2's
// mt_movebank_visible) over every combination of its marks.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code } from '@wildtrack/contract';
import { movebankServices } from '../../app.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { NOW } from '../../test/fixed-time.js';
import { writeExport } from '../export/index.js';
import { importMovebank, movebankImei, STANDARD_GRAVITY } from './index.js';

const T0 = Date.UTC(2024, 5, 1, 12);
const stamp = (i: number) => new Date(T0 + i * 600_000).toISOString().replace('T', ' ').slice(0, 23);
const ALL = { startTime: 0, endTime: Date.UTC(2100, 0, 1) };
type Row = Record<string, string>;

/** The value of move2's mt_movebank_visible for one row: `visible` when it says so, else no outlier unless manually-marked-valid. */
function move2Visible(visible: string | undefined, algorithm: string, manual: string, valid: string): boolean {
  if (visible === 'true' || visible === 'false') return visible === 'true';
  const outlier = algorithm === 'true' || manual === 'true';
  return !outlier || valid === 'true';
}

describe.each(DIALECTS)('Movebank fidelity on %s', (dialect) => {
  let t: TestApp;
  let services: ReturnType<typeof movebankServices>;
  let token: string;
  let orgId: number;
  let folderId: number;
  let files = 0;
  const db = () => t.database.db;
  const write = (lines: string[]) => {
    const f = path.join(t.dataDir, `fidelity-${++files}.csv`);
    fs.writeFileSync(f, `${lines.join('\n')}\n`);
    return f;
  };
  const importLines = (lines: string[], referenceFile?: string) => importMovebank(services, { file: write(lines), orgId, folderId, referenceFile, now: NOW });
  const fixesOf = async (imei: string) =>
    db()
      .selectFrom('fixes')
      .innerJoin('devices', 'devices.id', 'fixes.device_id')
      .select(['fixes.pick_time', 'fixes.alt', 'fixes.valid', 'fixes.hdop', 'fixes.temperature', 'fixes.voltage', 'fixes.invalid_reason', 'fixes.extra'])
      .where('devices.imei', '=', imei)
      .orderBy('fixes.pick_time')
      .execute();
  /** The device's Movebank CSV export of `kind`, read back by csv-parse: its header and rows. */
  const exported = async (imei: string, kind: 'fix' | 'acceleration' = 'fix') => {
    const out = path.join(t.dataDir, `fidelity-${++files}-${kind}.csv`);
    await writeExport(db(), { imei, kind, ...ALL, timeZone: '+00:00', language: 'en', fileType: 'movebank' }, fs.createWriteStream(out));
    const text = fs.readFileSync(out, 'utf8').replace(/^\uFEFF/, '');
    const header = (parse(text, { to_line: 1 }) as string[][])[0]!;
    return { header, rows: parse(text, { columns: true }) as Row[] };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token } = await t.userWithToken({ org: 'Fidelity Lab' }));
    services = movebankServices(t.database, t.dataDir);
    orgId = await services.devices.orgIdByName('Fidelity Lab');
    folderId = await services.folders.findOrCreateFolder(orgId, 'Movebank', NOW);
  });
  afterAll(async () => t.close());

  it('keeps a height above sea level and one above the ellipsoid apart, and exports each under its own column', async () => {
    const header = 'timestamp,location-long,location-lat,height-above-msl,height-above-ellipsoid,sensor-type,tag-local-identifier,individual-local-identifier';
    await importLines([
      header,
      `${stamp(1)},8.1,47.1,10,60,gps,H1,Hana`, // both
      `${stamp(2)},8.2,47.2,,55,gps,H1,Hana`, // the ellipsoid's only
      `${stamp(3)},8.3,47.3,12,,gps,H1,Hana`, // sea level's only
    ]);
    const imei = movebankImei('H1', 'Hana');
    const fixes = await fixesOf(imei);
    // a fix's altitude is above sea level: an ellipsoid height is never taken for it
    expect(fixes.map((f) => f.alt)).toEqual([10, null, 12]);
    expect(fixes.map((f) => (f.extra ? (JSON.parse(f.extra) as Row)['height-above-ellipsoid'] : undefined))).toEqual(['60', '55', undefined]);
    const { header: out, rows } = await exported(imei);
    expect(out).toEqual(expect.arrayContaining(['height-above-msl', 'height-above-ellipsoid']));
    expect(rows.map((r) => [r['height-above-msl'], r['height-above-ellipsoid']])).toEqual([['10', '60'], ['', '55'], ['12', '']]);
  });

  it("writes a device's own altitude as height above sea level, not above the ellipsoid", async () => {
    await importLines(['timestamp,location-long,location-lat,height-above-msl,tag-local-identifier,individual-local-identifier', `${stamp(1)},8.1,47.1,24,H2,Ida`]);
    const { header, rows } = await exported(movebankImei('H2', 'Ida'));
    expect(header).toContain('height-above-msl');
    expect(header).not.toContain('height-above-ellipsoid');
    expect(rows[0]!['height-above-msl']).toBe('24');
  });

  it('exports DOP, temperature and voltage under the names they came in with', async () => {
    await importLines([
      'timestamp,location-long,location-lat,gps:dop,eobs:temperature,eobs:battery-voltage,tag-local-identifier,individual-local-identifier',
      `${stamp(1)},8.1,47.1,1.8,21.5,3712,C1,Cara`,
    ]);
    const imei = movebankImei('C1', 'Cara');
    expect((await fixesOf(imei)).map((f) => [f.hdop, f.temperature, f.voltage])).toEqual([[1.8, 21.5, 3.712]]);
    const { header, rows } = await exported(imei);
    for (const name of ['gps:dop', 'eobs:temperature', 'eobs:battery-voltage']) expect(header).toContain(name);
    for (const name of ['gps:hdop', 'external-temperature', 'tag-voltage']) expect(header).not.toContain(name);
    expect([rows[0]!['gps:dop'], rows[0]!['eobs:temperature'], rows[0]!['eobs:battery-voltage']]).toEqual(['1.8', '21.5', '3712']);
  });

  it('exports calibrated acceleration in m/s² under acceleration-x/y/z, and reads acceleration-x/y/z as m/s²', async () => {
    // UvA-BiTS' tilt-x/y/z are in g
    const header = 'timestamp,sensor-type,tag-local-identifier,individual-local-identifier,acceleration-raw-x,acceleration-raw-y,acceleration-raw-z,start-timestamp,tilt-x,tilt-y,tilt-z';
    const start = stamp(1);
    const raw = [[1024, 2048, 3072], [1100, 2000, 3000], [900, 2100, 3100]];
    const g = (v: number) => (v - 2048) / 1024;
    const lines = [header, ...raw.map((r, i) => `${start.slice(0, 20)}${String(i * 100).padStart(3, '0')},acceleration,A1,Alma,${r.join(',')},${start},${r.map(g).join(',')}`)];
    await importLines(lines);
    const { rows } = await exported(movebankImei('A1', 'Alma'), 'acceleration');
    expect(rows).toHaveLength(3);
    rows.forEach((r, i) => (['x', 'y', 'z'] as const).forEach((a, k) => expect(Number(r[`acceleration-${a}`])).toBeCloseTo(g(raw[i]![k]!) * STANDARD_GRAVITY, 9)));
  });

  it('reads animal_mass as grams: a 594 g gull weighs 0.594 kg in its animal info', async () => {
    const ref = path.join(t.dataDir, 'fidelity-reference.csv');
    fs.writeFileSync(ref, 'tag_local_identifier,individual_local_identifier,taxon_canonical_name,animal_mass\nG1,Gull,Larus fuscus,594\n');
    await importLines(['timestamp,location-long,location-lat,tag-local-identifier,individual-local-identifier,individual-taxon-canonical-name', `${stamp(1)},3.1,51.3,G1,Gull,Larus fuscus`], ref);
    const r = await t.call(calls.GetBirdInfo.path, { imei: movebankImei('G1', 'Gull') }, { token });
    expect(r.body.Code, r.body.Msg).toBe(Code.Success);
    expect((r.body.Data as { AnimalInfo: { Weight: number } }).AnimalInfo.Weight).toBe(0.594);
  });

  it('exports a fix stored invalid for its position out of range as visible=false, and reads it back so', async () => {
    await importLines(['timestamp,location-long,location-lat,tag-local-identifier,individual-local-identifier', `${stamp(1)},8.1,47.1,R1,Rita`, `${stamp(2)},200,47.2,R1,Rita`]);
    const imei = movebankImei('R1', 'Rita');
    expect((await fixesOf(imei)).map((f) => f.valid)).toEqual([1, 0]);
    const { rows } = await exported(imei);
    expect(rows.map((r) => r.visible)).toEqual(['true', 'false']);
  });

  describe("Movebank's visibility rule (move2's mt_movebank_visible)", () => {
    const V = ['true', 'false', ''];
    /** Every combination of algorithm-marked-outlier, manually-marked-outlier, manually-marked-valid (each true, false, empty), with `visible` when given. */
    const combos = (visibles: (string | undefined)[]) => visibles.flatMap((visible) => V.flatMap((algorithm) => V.flatMap((manual) => V.map((valid) => ({ visible, algorithm, manual, valid })))));

    it.each([
      ['with a visible column (true, false, empty): 81 combinations', combos(V), 'V1'],
      ['without a visible column: 27 combinations', combos([undefined]), 'V2'],
    ])('stores a fix valid exactly when move2 shows it, %s', async (_name, cases, tag) => {
      const withVisible = cases[0]!.visible !== undefined;
      const header = `${withVisible ? 'visible,' : ''}timestamp,location-long,location-lat,algorithm-marked-outlier,manually-marked-outlier,manually-marked-valid,tag-local-identifier,individual-local-identifier`;
      const lines = [header, ...cases.map((c, i) => `${withVisible ? `${c.visible},` : ''}${stamp(i)},8.${i % 10},47.${i % 10},${c.algorithm},${c.manual},${c.valid},${tag},Vera`)];
      await importLines(lines);
      const imei = movebankImei(tag, 'Vera');
      const fixes = await fixesOf(imei);
      expect(fixes).toHaveLength(cases.length);
      const expected = cases.map((c) => move2Visible(c.visible, c.algorithm, c.manual, c.valid));
      const differing = cases.filter((_, i) => (fixes[i]!.valid === 1) !== expected[i]);
      expect(differing).toEqual([]);
      // and the export says the same: visible per the fix's validity, which move2 reads alone
      const { rows } = await exported(imei);
      expect(rows.map((r) => r.visible === 'true')).toEqual(expected);
      expect(rows.map((r) => move2Visible(r.visible, r['algorithm-marked-outlier'] ?? '', r['manually-marked-outlier'] ?? '', r['manually-marked-valid'] ?? ''))).toEqual(expected);
    });

    it('stores valid a fix re-validated in Movebank (manually-marked-valid over an outlier mark), and keeps both marks', async () => {
      await importLines([
        'timestamp,location-long,location-lat,algorithm-marked-outlier,manually-marked-valid,tag-local-identifier,individual-local-identifier',
        `${stamp(1)},8.1,47.1,true,true,M1,Mona`,
        `${stamp(2)},8.2,47.2,true,,M1,Mona`,
      ]);
      const imei = movebankImei('M1', 'Mona');
      const fixes = await fixesOf(imei);
      expect(fixes.map((f) => [f.valid, f.invalid_reason])).toEqual([[1, null], [0, 'algorithm-marked-outlier=true']]);
      const { rows } = await exported(imei);
      expect(rows.map((r) => [r.visible, r['algorithm-marked-outlier'], r['manually-marked-valid']])).toEqual([['true', 'true', 'true'], ['false', 'true', '']]);
    });
  });
});
