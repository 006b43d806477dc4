// Over 400 lines: the whole import end to end on each shared Movebank export (fishers, albatrosses, gulls),
// a made-up file with marks and bad rows, and files that are not Movebank data, against counts taken from
// the files independently; the pieces are tested alone in reader.test.ts, resolver.test.ts, writer.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SensorFlag, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, SHARED_DATA, type TestApp } from '../../test/helper.js';
import { movebankServices } from '../../app.js';
import { CHUNK, importMovebank, MovebankFormatError, type MovebankImportReport, movebankImei, STANDARD_GRAVITY } from './index.js';
import { speciesTypeOf } from './taxon.js';
import { INVALID_BY_SOURCE } from '../../db/schema.js';
import { burstSamples } from '../sensor/burst-samples.js';
import { parseTimestamp, TIMESTAMP_FORMAT } from './values.js';
import { NOW } from '../../test/fixed-time.js';

const data = (f: string) => path.join(SHARED_DATA, f);

// Expected figures counted from the files with Python's csv module (not with this importer):
// rows per file, GPS rows per tag + individual, rows with coordinates, acceleration rows and bursts.
const FISHERS_FIXES: Record<string, number> = {
  'MB-1016-M4': 10846, 'MB-1072-F1': 2795, 'MB-1078-M2': 3573, 'MB-1465-F2': 4689,
  'MB-1466-F3': 3383, 'MB-1469-M3': 5013, 'MB-1587-M5': 15058, 'MB-74-M1': 1990,
};
const FISHERS_LOCATED: Record<string, number> = {
  'MB-1016-M4': 8958, 'MB-1072-F1': 1349, 'MB-1078-M2': 1638, 'MB-1465-F2': 3004,
  'MB-1466-F3': 1501, 'MB-1469-M3': 2436, 'MB-1587-M5': 13099, 'MB-74-M1': 919,
};
const ALBATROSSES = ['MB-132-3275-30662', 'MB-134-4266-84831108', 'MB-136-1163-1163', 'MB-153-unbanded-153', 'MB-154-unbanded-154',
  'MB-156-unbanded-156', 'MB-157-2131-2131', 'MB-159-unbanded-159', 'MB-161-4261-2228'];
const OYSTERCATCHERS = ['MB-5635-5515867', 'MB-5642-5515851', 'MB-5644-5515868'];
const GULL_FIXES: Record<string, number> = { 'MB-5536-L925752': 70, 'MB-5542-5501123': 60, 'MB-5713-5508292': 59, 'MB-5723-5543133': 60, 'MB-5726-L914275': 70 };

type Expected = Omit<MovebankImportReport, 'file' | 'seconds' | 'fixes' | 'skipped' | 'notices'> & {
  fixes: Omit<MovebankImportReport['fixes'], 'outOfRange' | 'marks'> & Partial<Pick<MovebankImportReport['fixes'], 'outOfRange' | 'marks'>>;
  skipped: { reason: string; count: number }[];
  notices?: MovebankImportReport['notices'];
};

/** The report as expected; the skipped rows' examples are checked apart, no notices and no changed marks unless given. */
function expectReport(r: MovebankImportReport, expected: Expected) {
  const { file: _file, seconds: _seconds, ...rest } = r;
  expect({ ...rest, skipped: rest.skipped.map(({ reason, count }) => ({ reason, count })) }).toEqual({
    notices: [],
    ...expected,
    fixes: { outOfRange: 0, marks: { marked: 0, unmarked: 0 }, ...expected.fixes },
  });
}

const reasons = (r: MovebankImportReport) => r.skipped.map(({ reason, count }) => ({ reason, count }));

/** A stored burst's raw counts, whichever encoding stored them (bursts are kept packed since 804cd15). */
const counts = (row: Parameters<typeof burstSamples>[0]): number[] => Array.from(burstSamples(row).raw);

describe.each(DIALECTS)('Movebank import on %s', (dialect) => {
  let t: TestApp;
  let services: ReturnType<typeof movebankServices>;
  let orgId: number;
  let folderId: number;
  const db = () => t.database.db;

  const countsByImei = async (table: 'fixes' | 'acc_bursts', where?: 'located') => {
    let q = db()
      .selectFrom(table)
      .innerJoin('devices', 'devices.id', `${table}.device_id`)
      .select((eb) => ['devices.imei', eb.fn.countAll<number>().as('n')])
      .where('devices.folder_id', '=', folderId)
      .groupBy('devices.imei');
    if (where === 'located' && table === 'fixes') q = q.where('fixes.lon', 'is not', null);
    return Object.fromEntries((await q.execute()).map((r) => [r.imei, Number(r.n)]));
  };
  const device = (imei: string) => db().selectFrom('devices').selectAll().where('imei', '=', imei).executeTakeFirstOrThrow();

  beforeAll(async () => {
    t = await createTestApp(dialect);
    services = movebankServices(t.database, t.dataDir);
    orgId = await services.folders.createOrg('Movebank Lab', false, NOW);
    folderId = await services.folders.findOrCreateFolder(orgId, 'Movebank', NOW);
  });
  afterAll(async () => t.close());

  describe('fishers_move2.csv (e-obs GPS, rows without coordinates)', () => {
    it('stores every event as a fix, those without coordinates kept without a position', async () => {
      const lines: string[] = [];
      const r = await importMovebank(services, { file: data('fishers_move2.csv'), orgId, folderId, onProgress: (l) => lines.push(l) });
      expectReport(r, {
        rows: 47347,
        devices: { created: 8, reused: 0 },
        fixes: { stored: 47347, withoutPosition: 47347 - 32904, markedInvalid: 0, duplicates: 0 },
        bursts: { stored: 0, samples: 0, duplicates: 0 },
        skipped: [],
      });
      expect(await countsByImei('fixes')).toEqual(FISHERS_FIXES);
      expect(await countsByImei('fixes', 'located')).toEqual(FISHERS_LOCATED);
      // a line every 10,000 rows, then the last one
      expect(lines).toHaveLength(5);
      expect(lines[0]).toMatch(/^reading 10,000 rows, \d+\.\d% of 6\.9 MB, [\d,]+ rows\/s$/);
      expect(lines[4]).toMatch(/^read 47,347 rows, 100\.0% of 6\.9 MB/);
    }, 120_000);

    it('makes each tag on each individual a device in the folder, named by the individual, a beast from its taxon', async () => {
      const d = await device('MB-1072-F1');
      expect(d).toMatchObject({ org_id: orgId, folder_id: folderId, caption: 'F1', species_type: SpeciesType.Beast, sensors: SensorFlag.GNSS });
      expect(JSON.parse(d.attributes)).toEqual({
        source: 'movebank',
        'study-name': 'Martes pennanti LaPoint New York',
        'individual-taxon-canonical-name': 'Martes pennanti',
        'tag-local-identifier': '1072',
        'individual-local-identifier': 'F1',
        // the columns its temperature and voltage came from, for the export to write them back under
        'movebank-columns': { temperature: 'eobs:temperature', voltage: 'eobs:battery-voltage' },
      });
      expect(d.last_work_time).toBe(Date.UTC(2011, 2, 3, 3, 0, 25, 999)); // the device's latest row
    });

    it('keeps the columns it does not map in extra, and a fix without coordinates as such', async () => {
      const d = await device('MB-1072-F1');
      const first = await db().selectFrom('fixes').selectAll().where('device_id', '=', d.id).orderBy('pick_time').executeTakeFirstOrThrow();
      expect(first).toMatchObject({ pick_time: Date.UTC(2011, 1, 11, 17, 30), lon: null, lat: null, valid: 0, invalid_at: null });
      expect(JSON.parse(first.extra!)).toEqual({ 'event-id': '170635808', 'eobs:used-time-to-get-fix': '110' });
      const located = await db().selectFrom('fixes').selectAll().where('device_id', '=', d.id).where('lon', 'is not', null).orderBy('pick_time').executeTakeFirstOrThrow();
      expect(located.valid).toBe(1);
    });

    it('stores nothing new when the same file is imported again, reusing the devices', async () => {
      const r = await importMovebank(services, { file: data('fishers_move2.csv'), orgId, folderId });
      expectReport(r, {
        rows: 47347,
        devices: { created: 0, reused: 8 },
        fixes: { stored: 0, withoutPosition: 14443, markedInvalid: 0, duplicates: 47347 },
        bursts: { stored: 0, samples: 0, duplicates: 0 },
        skipped: [],
      });
      expect(await countsByImei('fixes')).toEqual(FISHERS_FIXES);
    }, 120_000);
  });

  describe('movebank_albatrosses_gps_acc.csv (e-obs nested acceleration) with its reference data', () => {
    let report: MovebankImportReport;
    beforeAll(async () => {
      report = await importMovebank(services, {
        file: data('movebank_albatrosses_gps_acc.csv'),
        referenceFile: data('movebank_albatrosses_trackdata.csv'),
        orgId,
        folderId,
      });
    });

    it('stores 9 fixes and 45 bursts of 60 samples per axis at 5 Hz, XY', async () => {
      expectReport(report, {
        rows: 54,
        devices: { created: 9, reused: 0 },
        fixes: { stored: 9, withoutPosition: 0, markedInvalid: 0, duplicates: 0 },
        bursts: { stored: 45, samples: 45 * 60, duplicates: 0 },
        skipped: [],
      });
      const bursts = await db()
        .selectFrom('acc_bursts')
        .innerJoin('devices', 'devices.id', 'acc_bursts.device_id')
        .select(['devices.imei', 'hz', 'axes', 'sample_count'])
        .where('devices.imei', 'in', ALBATROSSES)
        .execute();
      expect(bursts).toHaveLength(45);
      expect(new Set(bursts.map((b) => `${b.hz} ${b.axes} ${b.sample_count}`))).toEqual(new Set(['5 XY 60']));
      const perDevice = await countsByImei('acc_bursts');
      for (const imei of ALBATROSSES) expect(perDevice[imei]).toBe(5);
    });

    it('gives a burst back exactly as the tag sent it', async () => {
      const rows = parse(fs.readFileSync(data('movebank_albatrosses_gps_acc.csv')), { columns: true }) as Record<string, string>[];
      const sent = rows.find((r) => r['event-id'] === '28245138')!;
      expect(sent['eobs:accelerations-raw']!.startsWith('1856 1900 1816 1931')).toBe(true);
      const d = await device('MB-134-4266-84831108');
      const b = await db().selectFrom('acc_bursts').selectAll().where('device_id', '=', d.id).where('start_time', '=', Date.UTC(2008, 6, 27, 0, 0, 56)).executeTakeFirstOrThrow();
      expect(counts(b)).toEqual(sent['eobs:accelerations-raw']!.split(' ').map(Number));
      expect(JSON.parse(b.calibration)).toEqual({ scale: [0.0027, 0.0027], offset: [2048, 2048] });
      expect(JSON.parse(b.extra!)).toEqual({ 'event-id': '28245138', 'eobs:key-bin-checksum': '1951106657' });
      expect(burstSamples(b).odba).toHaveLength(60);
    });

    it('maps the GPS columns (m/s to km/h, mV to V) and keeps the e-obs ones', async () => {
      const d = await device('MB-134-4266-84831108');
      const f = await db().selectFrom('fixes').selectAll().where('device_id', '=', d.id).executeTakeFirstOrThrow();
      expect(f).toMatchObject({ pick_time: Date.UTC(2008, 6, 27, 0, 0, 56), lon: -78.6763552, lat: -9.06721, alt: null, course: 322.44, temperature: 22, voltage: 3.759, valid: 1 });
      expect(f.speed).toBeCloseTo(0.43 * 3.6, 12);
      expect(JSON.parse(f.extra!)).toEqual({
        // above the ellipsoid, not sea level: kept under its own name, not as the fix's altitude
        'height-above-ellipsoid': '6',
        'event-id': '28243852',
        'eobs:fix-battery-voltage': '3516',
        'eobs:horizontal-accuracy-estimate': '3.84',
        'eobs:key-bin-checksum': '3926517939',
        'eobs:speed-accuracy-estimate': '2.72',
        'eobs:start-timestamp': '2008-07-27 00:00:00.000',
        'eobs:status': 'A',
        'eobs:type-of-fix': '3',
        'eobs:used-time-to-get-fix': '56',
      });
    });

    it('keeps the reference data in the device and writes its mount info', async () => {
      const d = await device('MB-134-4266-84831108');
      expect(d).toMatchObject({ model: 'e-obs GmbH', species_type: SpeciesType.Bird, sensors: SensorFlag.GNSS | SensorFlag.Acceleration });
      const attrs = JSON.parse(d.attributes) as { reference: Record<string, string> };
      expect(attrs.reference).toMatchObject({ deployment_id: '9472218', animal_life_stage: 'adult', study_site: 'Punta Suarez', deploy_on_timestamp: '2008-05-31 06:00:00.000' });
      const info = JSON.parse((await services.tags.mountInfo(d.id))!) as Record<string, unknown>;
      expect(info).toMatchObject({
        AnimalInfo: { Species: 'Phoebastria irrorata', ScientificName: 'Phoebastria irrorata', Sex: 0, Age: 3, Weight: null },
        WorkInfo: { MountTime: Date.UTC(2008, 4, 31, 6) },
      });
    });

    it('stores nothing new the second time', async () => {
      const again = await importMovebank(services, { file: data('movebank_albatrosses_gps_acc.csv'), referenceFile: data('movebank_albatrosses_trackdata.csv'), orgId, folderId });
      expectReport(again, {
        rows: 54,
        devices: { created: 0, reused: 9 },
        fixes: { stored: 0, withoutPosition: 0, markedInvalid: 0, duplicates: 9 },
        bursts: { stored: 0, samples: 2700, duplicates: 45 },
        skipped: [],
      });
    });
  });

  describe('movebank_gulls_gps_acc.csv (UvA-BiTS long-format acceleration) with its reference data', () => {
    let report: MovebankImportReport;
    beforeAll(async () => {
      report = await importMovebank(services, { file: data('movebank_gulls_gps_acc.csv'), referenceFile: data('movebank_gulls_trackdata.csv'), orgId, folderId });
    });

    it('stores 319 fixes and 59 bursts of 20 samples at 20 Hz', async () => {
      expectReport(report, {
        rows: 1499,
        devices: { created: 5, reused: 0 },
        fixes: { stored: 319, withoutPosition: 0, markedInvalid: 0, duplicates: 0 },
        bursts: { stored: 59, samples: 59 * 20, duplicates: 0 },
        skipped: [],
      });
      const fixes = await countsByImei('fixes');
      for (const [imei, n] of Object.entries(GULL_FIXES)) expect(fixes[imei]).toBe(n);
      const d = await device('MB-5713-5508292');
      const bursts = await db().selectFrom('acc_bursts').select(['hz', 'axes', 'sample_count']).where('device_id', '=', d.id).execute();
      expect(bursts).toHaveLength(59);
      expect(new Set(bursts.map((b) => `${b.hz} ${b.axes} ${b.sample_count}`))).toEqual(new Set(['20 XYZ 20']));
    });

    it('keeps the raw samples exactly and a calibration that gives the tilt values back', async () => {
      const rows = (parse(fs.readFileSync(data('movebank_gulls_gps_acc.csv')), { columns: true }) as Record<string, string>[]).filter(
        (r) => r['start-timestamp'] === '2021-03-03 00:57:06.000',
      );
      expect(rows).toHaveLength(20);
      const d = await device('MB-5713-5508292');
      const b = await db().selectFrom('acc_bursts').selectAll().where('device_id', '=', d.id).where('start_time', '=', Date.UTC(2021, 2, 3, 0, 57, 6)).executeTakeFirstOrThrow();
      const raw = counts(b);
      expect(raw.slice(0, 6)).toEqual([-215, 331, 2102, -117, 243, 1997]);
      expect(raw).toEqual(rows.flatMap((r) => [r['acceleration-raw-x'], r['acceleration-raw-y'], r['acceleration-raw-z']].map(Number)));
      const cal = JSON.parse(b.calibration) as { scale: number[]; offset: number[] };
      // UvA-BiTS: tilt = (raw - offset) / counts-per-g
      expect(cal.offset).toEqual([-3, -16, -44]);
      expect(cal.scale).toEqual([-1 / 2046, -1 / 2064, 1 / 2049]);
      rows.forEach((r, i) =>
        (['x', 'y', 'z'] as const).forEach((axis, a) => {
          expect(Math.abs((raw[i * 3 + a]! - cal.offset[a]!) * cal.scale[a]! - Number(r[`tilt-${axis}`]))).toBeLessThan(1e-12);
        }),
      );
      const extra = JSON.parse(b.extra!) as Record<string, unknown>;
      expect(extra).toEqual({ 'event-id': rows.map((r) => r['event-id']), calibratedFrom: 'tilt' });
    });

    it('maps height above MSL, satellites, DOP and external temperature; keeps the rest; makes the mount info from the reference', async () => {
      const d = await device('MB-5542-5501123');
      const f = await db().selectFrom('fixes').selectAll().where('device_id', '=', d.id).orderBy('pick_time').executeTakeFirstOrThrow();
      expect(f).toMatchObject({ pick_time: Date.UTC(2021, 2, 3, 0, 46, 30), lon: 0.9766757, lat: 49.9438762, alt: 3, satellites: 7, hdop: 2.2, temperature: 29, course: 50.0303720801609, invalid_at: null });
      expect(JSON.parse(f.extra!)).toEqual({ 'event-id': '33763085849', 'gps-time-to-fix': '38.8', 'location-error-numerical': '5', 'vertical-error-numerical': '4.7' });
      expect(JSON.parse((await services.tags.mountInfo(d.id))!)).toMatchObject({
        AnimalInfo: { Species: 'Larus fuscus', Sex: 2, Age: 3, Weight: 0.829 },
        WorkInfo: { MountTime: Date.UTC(2017, 4, 19, 12) },
        AdditionalInfo: expect.arrayContaining([{ Name: 'RingId', Value: 'EG' }]),
      });
      expect(d).toMatchObject({ model: 'UvA-BiTS', species_type: SpeciesType.Bird, caption: '5501123' });
    });

    it('stores nothing new the second time', async () => {
      const again = await importMovebank(services, { file: data('movebank_gulls_gps_acc.csv'), orgId, folderId });
      expectReport(again, {
        rows: 1499,
        devices: { created: 0, reused: 5 },
        fixes: { stored: 0, withoutPosition: 0, markedInvalid: 0, duplicates: 319 },
        bursts: { stored: 0, samples: 1180, duplicates: 59 },
        skipped: [],
      });
      // re-importing without the reference keeps what the reference gave
      expect(JSON.parse((await device('MB-5542-5501123')).attributes)).toHaveProperty('reference.ring_id', 'EG');
    });
  });

  describe('movebank_oystercatchers_o_assen_2018.csv (Movebank Data Repository, colon attribute names) with its older-style reference data', () => {
    let report: MovebankImportReport;
    beforeAll(async () => {
      report = await importMovebank(services, {
        file: data('movebank_oystercatchers_o_assen_2018.csv'),
        referenceFile: data('movebank_oystercatchers_o_assen_reference.csv'),
        orgId,
        folderId,
      });
    }, 120_000);

    it('stores its 14,893 GPS events as fixes of 3 tags, none marked', () => {
      expectReport(report, {
        rows: 14893,
        devices: { created: 3, reused: 0 },
        fixes: { stored: 14893, withoutPosition: 0, markedInvalid: 0, duplicates: 0 },
        bursts: { stored: 0, samples: 0, duplicates: 0 },
        skipped: [],
      });
    });

    it('maps gps:satellite-count and gps:dop on every fix', async () => {
      const rows = await db()
        .selectFrom('fixes')
        .innerJoin('devices', 'devices.id', 'fixes.device_id')
        .select((eb) => ['devices.imei', eb.fn.countAll<number>().as('n'), eb.fn.count<number>('fixes.satellites').as('withSatellites'),
          eb.fn.sum<number>('fixes.satellites').as('satellites'), eb.fn.sum<number>('fixes.hdop').as('dop')])
        .where('devices.imei', 'in', OYSTERCATCHERS)
        .groupBy('devices.imei')
        .orderBy('devices.imei')
        .execute();
      // counted with Python's csv module: rows, and the sums of gps:satellite-count and gps:dop per tag
      expect(rows.map((r) => [r.imei, Number(r.n), Number(r.withSatellites), Number(r.satellites)])).toEqual([
        ['MB-5635-5515867', 8163, 8163, 50501],
        ['MB-5642-5515851', 5880, 5880, 37375],
        ['MB-5644-5515868', 850, 850, 5330],
      ]);
      expect(rows.map((r) => Number(r.dop))).toEqual([expect.closeTo(25480.8, 6), expect.closeTo(17699.8, 6), expect.closeTo(2572.5, 6)]);
    });

    it("maps a fix's values, keeps the rest under their names, and takes the mount info from tag-id / animal-id / deploy-on-date", async () => {
      const d = await device('MB-5635-5515867');
      const f = await db().selectFrom('fixes').selectAll().where('device_id', '=', d.id).orderBy('pick_time').executeTakeFirstOrThrow();
      expect(f).toMatchObject({ pick_time: Date.UTC(2018, 4, 4, 9, 43, 15), lon: 6.5937841, lat: 53.0005947, alt: 24, satellites: 5, hdop: 3.4, temperature: 47.3, course: 111.360529034484, valid: 1, invalid_by: null });
      expect(f.speed).toBeCloseTo(0.246506065894232 * 3.6, 9);
      expect(JSON.parse(f.extra!)).toEqual({ 'event-id': '20432407112', 'gps-time-to-fix': '24.1', 'location-error-numerical': '26.0', 'vertical-error-numerical': '45.3' });
      expect(JSON.parse((await services.tags.mountInfo(d.id))!)).toMatchObject({
        AnimalInfo: { Species: 'Haematopus ostralegus', Sex: 0, Age: 3, Weight: 0.55 }, // animal_mass 550 g
        WorkInfo: { MountTime: Date.UTC(2018, 4, 4, 9, 30) },
        AdditionalInfo: expect.arrayContaining([{ Name: 'RingId', Value: 'RG-CHYZ' }, { Name: 'AttachmentType', Value: 'harness' }, { Name: 'DeploymentId', Value: '15652' }]),
      });
      expect(d).toMatchObject({ model: 'UvA-BiTS', species_type: SpeciesType.Bird, caption: '5515867' });
    });
  });

  describe('a made-up file with marks, unknown columns, bad rows and a long-format burst spread over the file', () => {
    const header =
      'event-id,visible,timestamp,location-long,location-lat,sensor-type,tag-local-identifier,individual-local-identifier,individual-taxon-canonical-name,' +
      'study-name,height-above-msl,ground-speed,manually-marked-outlier,algorithm-marked-outlier,comments,acceleration-raw-x,acceleration-raw-y,' +
      'acceleration-raw-z,start-timestamp,acceleration-x,acceleration-y,acceleration-z';
    const gps = (id: number, time: string, lon: string, lat: string, more: { visible?: string; manual?: string; algo?: string; comments?: string; tag?: string; ind?: string; type?: string } = {}) =>
      [id, more.visible ?? 'true', time, lon, lat, more.type ?? 'gps', more.tag ?? 'T1', more.ind ?? 'Anna', 'Ciconia ciconia', 'Storks', '120', '2.5',
        more.manual ?? '', more.algo ?? '', more.comments ?? '', '', '', '', '', '', '', ''].join(',');
    const sample = (id: number, start: string, ms: number, raw: [number, number, number]) => {
      const time = `${start.slice(0, 19)}.${String(ms).padStart(3, '0')}`;
      return [id, 'true', time, '', '', 'acceleration', 'T2', 'Ben', 'Ciconia ciconia', 'Storks', '', '', '', '', '', ...raw, start,
        ...raw.map((v) => ((v - 2048) / 1024) * STANDARD_GRAVITY)].join(','); // acceleration-x/y/z are m/s²
    };
    const S1 = '2024-05-01 10:00:00.000';
    const S2 = '2024-05-01 10:05:00.000';
    const burst1: [number, number, number][] = [[2048, 1024, 3072], [2100, 1000, 3000], [1990, 1100, 2990], [2050, 1030, 3100]];
    const burst2: [number, number, number][] = [[0, 4095, -10], [10, 4000, 20], [20, 3900, 30], [30, 3800, 40]];
    let file: string;
    let report: MovebankImportReport;
    const FILLER = CHUNK + 1500; // more rows than a chunk between a burst's first and last sample

    beforeAll(async () => {
      const lines = [header];
      // samples arrive out of order and far apart: burst 2 before burst 1, and burst 1's last sample at the end
      lines.push(sample(901, S2, 300, burst2[3]!), sample(902, S2, 0, burst2[0]!), sample(903, S1, 100, burst1[1]!), sample(904, S1, 0, burst1[0]!));
      lines.push(gps(1, '2024-05-01 09:00:00.000', '8.5', '47.5', { comments: 'caught at dawn' }));
      lines.push(gps(2, '2024-05-01 09:10:00.000', '8.6', '47.6', { visible: 'false' }));
      lines.push(gps(3, '2024-05-01 09:20:00.000', '8.7', '47.7', { visible: '', manual: 'true', algo: 'TRUE' }));
      lines.push(gps(4, '2024-05-01 09:30:00.000', '', ''));
      lines.push(gps(5, '2024-05-01 09:40:00.000', 'NA', 'NA'));
      lines.push(gps(6, '2024-05-01 09:50:00.000', 'east', '47.7'));
      lines.push(gps(7, 'yesterday', '8.7', '47.7'));
      lines.push(gps(8, '2024-05-01 10:00:00.000', '8.7', '47.7', { type: 'radio-transmitter' }));
      lines.push('9,true,2024-05-01 10:10:00.000,8.7,47.7,gps,T1');
      lines.push(gps(10, '2024-05-01 10:20:00.000', '8.7', '47.7', { tag: '', ind: '' }));
      lines.push(gps(11, '2024-05-01 10:30:00.000', '200', '47.7'));
      for (let i = 0; i < FILLER; i++) lines.push(gps(1000 + i, new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString().replace('T', ' ').slice(0, 23), '9', '48', { tag: 'T3', ind: 'Cleo' }));
      lines.push(sample(905, S2, 100, burst2[1]!), sample(906, S1, 200, burst1[2]!), sample(907, S2, 200, burst2[2]!), sample(908, S1, 300, burst1[3]!));
      lines.push(sample(904, S1, 0, burst1[0]!)); // the same sample twice
      file = path.join(t.dataDir, 'made-up.csv');
      fs.writeFileSync(file, `${lines.join('\n')}\n`);
      report = await importMovebank(services, { file, orgId, folderId, now: Date.UTC(2025, 0, 1) });
    });

    it('counts every row: stored, without a position, marked, or skipped with a reason', () => {
      expectReport(report, {
        rows: 9 + 11 + FILLER,
        devices: { created: 3, reused: 0 },
        fixes: { stored: 6 + FILLER, withoutPosition: 2, markedInvalid: 2, outOfRange: 1, duplicates: 0, marks: { marked: 2, unmarked: 0 } },
        bursts: { stored: 2, samples: 8, duplicates: 0 },
        skipped: [
          { reason: 'duplicate acceleration sample (same event-id)', count: 1 },
          { reason: 'no tag or individual identifier', count: 1 },
          { reason: 'sensor type "radio-transmitter" not imported', count: 1 },
          { reason: 'unparseable location', count: 1 },
          { reason: `unparseable timestamp: expected ${TIMESTAMP_FORMAT}`, count: 1 },
          { reason: 'wrong number of fields (not 22)', count: 1 },
        ],
        notices: [
          {
            reason: 'position out of range (longitude -180..180, latitude -90..90, altitude within 10 km): stored as invalid',
            count: 1,
            examples: [{ line: 16, eventId: '11', value: '200 47.7 120' }],
          },
        ],
      });
    });

    it('names each skipped row by its line, event-id and value', () => {
      const examples = Object.fromEntries(report.skipped.map((s) => [s.reason, s.examples]));
      expect(examples).toEqual({
        'duplicate acceleration sample (same event-id)': [{ line: FILLER + 21, eventId: '904' }], // the file's last line
        'no tag or individual identifier': [{ line: 15, eventId: '10' }],
        'sensor type "radio-transmitter" not imported': [{ line: 13, eventId: '8', value: 'radio-transmitter' }],
        'unparseable location': [{ line: 11, eventId: '6', value: 'east 47.7' }],
        [`unparseable timestamp: expected ${TIMESTAMP_FORMAT}`]: [{ line: 12, eventId: '7', value: 'yesterday' }],
        'wrong number of fields (not 22)': [{ line: 14, eventId: '9', value: '7 fields' }],
      });
    });

    it('marks what the source marked, with the reason, and keeps unknown columns', async () => {
      const d = await device('MB-T1-Anna');
      const fixes = await db().selectFrom('fixes').selectAll().where('device_id', '=', d.id).orderBy('pick_time').execute();
      // the source's marks: invalid, marked by the source (invalid_by 0, no user) with its reason
      expect(fixes.map((f) => [f.pick_time - Date.UTC(2024, 4, 1, 9), f.valid, f.invalid_by, f.invalid_at, f.invalid_reason, f.lon])).toEqual([
        [0, 1, null, null, null, 8.5],
        [600_000, 0, INVALID_BY_SOURCE, Date.UTC(2025, 0, 1), 'visible=false', 8.6],
        [1_200_000, 0, INVALID_BY_SOURCE, Date.UTC(2025, 0, 1), 'manually-marked-outlier=true, algorithm-marked-outlier=true', 8.7],
        [1_800_000, 0, null, null, null, null],
        [2_400_000, 0, null, null, null, null],
        [5_400_000, 0, null, null, null, 200], // out of range: stored, not valid (§5)
      ]);
      expect(JSON.parse(fixes[0]!.extra!)).toEqual({ 'event-id': '1', comments: 'caught at dawn' });
      expect(JSON.parse(fixes[1]!.extra!)).toEqual({ 'event-id': '2' });
      expect(JSON.parse(fixes[2]!.extra!)).toEqual({ 'event-id': '3' });
      expect(fixes[0]!.speed).toBe(9);
      expect(fixes[0]!.alt).toBe(120);
      expect(d.species_type).toBe(SpeciesType.Bird);
    });

    it('puts a burst together whatever the order and distance of its rows', async () => {
      const d = await device('MB-T2-Ben');
      const bursts = await db().selectFrom('acc_bursts').selectAll().where('device_id', '=', d.id).orderBy('start_time').execute();
      expect(bursts.map((b) => [b.start_time, b.hz, b.axes, b.sample_count])).toEqual([
        [parseTimestamp(S1), 10, 'XYZ', 4],
        [parseTimestamp(S2), 10, 'XYZ', 4],
      ]);
      expect(counts(bursts[0]!)).toEqual(burst1.flat());
      expect(counts(bursts[1]!)).toEqual(burst2.flat());
      const calibration = JSON.parse(bursts[0]!.calibration) as { scale: number[]; offset: number[] };
      calibration.scale.forEach((v) => expect(v).toBeCloseTo(1 / 1024, 12));
      calibration.offset.forEach((v) => expect(v).toBeCloseTo(2048, 9));
      expect(JSON.parse(bursts[0]!.extra!)).toEqual({ 'event-id': ['904', '903', '906', '908'], calibratedFrom: 'acceleration' });
      expect(d.sensors).toBe(SensorFlag.Acceleration);
    });

    it('stores nothing twice when imported again', async () => {
      const again = await importMovebank(services, { file, orgId, folderId });
      expect(again.devices).toEqual({ created: 0, reused: 3 });
      // the file marks the same fixes as before: no mark changes
      expect(again.fixes).toEqual({ stored: 0, withoutPosition: 2, markedInvalid: 2, outOfRange: 1, duplicates: 6 + FILLER, marks: { marked: 0, unmarked: 0 } });
      expect(again.bursts).toEqual({ stored: 0, samples: 8, duplicates: 2 });
    });
  });

  it('counts e-obs bursts it cannot read, with the reason', async () => {
    const file = path.join(t.dataDir, 'eobs.csv');
    const row = (time: string, axes: string, hz: string, raw: string) =>
      `${time},acceleration,E1,Eva,${axes},${hz},${raw}`;
    fs.writeFileSync(
      file,
      [
        'timestamp,sensor-type,tag-local-identifier,individual-local-identifier,eobs:acceleration-axes,eobs:acceleration-sampling-frequency-per-axis,eobs:accelerations-raw',
        row('2024-03-01 00:00:00.000', 'XYZ', '10', '2048 2048 2048 2100 2000 1990'),
        row('2024-03-01 00:01:00.000', 'XY', '10', '2048 2048 2048'),
        row('2024-03-01 00:02:00.000', 'XY', '10', '2048 99999'),
        row('2024-03-01 00:03:00.000', '', '10', '2048 2048'),
        row('2024-03-01 00:04:00.000', 'XY', '', '2048 2048'),
        row('2024-03-01 00:05:00.000', 'XY', '10', ''),
        '',
      ].join('\n'),
    );
    const r = await importMovebank(services, { file, orgId, folderId });
    expect(r.rows).toBe(6);
    expect(r.bursts).toEqual({ stored: 1, samples: 2, duplicates: 0 });
    expect(reasons(r)).toEqual([
      { reason: 'acceleration burst without a sampling frequency', count: 1 },
      { reason: 'acceleration burst without eobs:acceleration-axes', count: 1 },
      { reason: 'acceleration row without samples', count: 1 },
      { reason: 'acceleration values are not 16-bit integers', count: 1 },
      { reason: "acceleration values don't divide into the burst's axes", count: 1 },
    ]);
  });

  describe('files that are not Movebank data', () => {
    it('refuses a file without a timestamp column, naming it, and stores nothing', async () => {
      const file = path.join(t.dataDir, 'no-time.csv');
      fs.writeFileSync(file, 'event-id,time,location-long,location-lat,individual-local-identifier\n1,2024-01-01 00:00:00.000,8,47,X\n');
      const before = await db().selectFrom('devices').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      const run = importMovebank(services, { file, orgId, folderId });
      await expect(run).rejects.toBeInstanceOf(MovebankFormatError);
      await expect(run).rejects.toThrow(`${file}: not a Movebank CSV: it has no "timestamp" column (its columns: event-id, time, location-long, location-lat, individual-local-identifier)`);
      const after = await db().selectFrom('devices').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('reads a stray quote as text and counts the lines an unclosed quote swallows', async () => {
      const file = path.join(t.dataDir, 'quotes.csv');
      fs.writeFileSync(
        file,
        [
          'timestamp,location-long,location-lat,individual-local-identifier,comments',
          '2024-02-01 00:00:00.000,8,47,Quoted,fine',
          '2024-02-01 01:00:00.000,8,47,Quoted,a "stray" quote',
          '2024-02-01 02:00:00.000,8,47,Quoted,"never closed',
          '2024-02-01 03:00:00.000,8,47,Quoted,lost',
          '2024-02-01 04:00:00.000,8,47,Quoted,lost too',
          '',
        ].join('\n'),
      );
      const r = await importMovebank(services, { file, orgId, folderId });
      expect(r.rows).toBe(5);
      expect(r.fixes.stored).toBe(2);
      expect(reasons(r)).toEqual([{ reason: 'malformed CSV: a quote opened on line 4 is never closed, so the lines after it could not be read', count: 3 }]);
      const d = await device('MB--Quoted');
      const fixes = await db().selectFrom('fixes').select('extra').where('device_id', '=', d.id).orderBy('pick_time').execute();
      expect(fixes.map((f) => JSON.parse(f.extra!) as unknown)).toEqual([{ comments: 'fine' }, { comments: 'a "stray" quote' }]);
    });

    it('refuses a file with no animal or tag column, an empty file and a missing one', async () => {
      const noId = path.join(t.dataDir, 'no-id.csv');
      fs.writeFileSync(noId, 'timestamp,location-long,location-lat\n2024-01-01 00:00:00.000,8,47\n');
      await expect(importMovebank(services, { file: noId, orgId, folderId })).rejects.toThrow(/neither an "individual-local-identifier" nor a "tag-local-identifier" column/);
      const empty = path.join(t.dataDir, 'empty.csv');
      fs.writeFileSync(empty, '');
      await expect(importMovebank(services, { file: empty, orgId, folderId })).rejects.toThrow(/empty file/);
      await expect(importMovebank(services, { file: path.join(t.dataDir, 'nope.csv'), orgId, folderId })).rejects.toThrow(/no such file/);
    });
  });
});

describe('Movebank values', () => {
  it('reads UTC timestamps to the millisecond and refuses what is not one', () => {
    expect(parseTimestamp('2021-03-03 00:57:06.049')).toBe(Date.UTC(2021, 2, 3, 0, 57, 6, 49));
    expect(parseTimestamp('2008-07-27 00:00:56')).toBe(Date.UTC(2008, 6, 27, 0, 0, 56));
    expect(parseTimestamp('2008-07-27T00:00:56.5Z')).toBe(Date.UTC(2008, 6, 27, 0, 0, 56, 500));
    expect(parseTimestamp('2021-02-31 00:00:00.000')).toBeUndefined();
    expect(parseTimestamp('27/07/2008 00:00')).toBeUndefined();
  });

  it('makes device ids of [A-Za-z0-9_.:-], at most 40 characters, distinct for distinct tags', () => {
    expect(movebankImei('134', '4266-84831108')).toBe('MB-134-4266-84831108');
    const spaced = movebankImei('tag 7', 'Ängel #2');
    expect(spaced).toMatch(/^MB-tag_7-_ngel__2\.[0-9a-f]{8}$/);
    const long = movebankImei('A'.repeat(30), 'B'.repeat(30));
    expect(long).toHaveLength(40);
    expect(long).toMatch(/^[A-Za-z0-9_.:-]+$/);
    expect(movebankImei('A'.repeat(30), `${'B'.repeat(29)}C`)).not.toBe(long);
  });

  it('tells birds, beasts and others from the taxon, and Unknown otherwise', () => {
    expect(speciesTypeOf('Larus fuscus')).toBe(SpeciesType.Bird);
    expect(speciesTypeOf('Martes pennanti')).toBe(SpeciesType.Beast);
    expect(speciesTypeOf('Chelonia mydas')).toBe(SpeciesType.OtherSpecies);
    expect(speciesTypeOf('Aves')).toBe(SpeciesType.Bird);
    expect(speciesTypeOf('Nonexistentia fictiva')).toBe(SpeciesType.Unknown);
    expect(speciesTypeOf('')).toBe(SpeciesType.Unknown);
  });
});
