// Export → import round trip (issue 16 item 2): each shared Movebank file is imported into one organisation,
// every device's positions and acceleration exported as Movebank CSV (writeExport), those files imported
// into a second organisation, and every record compared field by field with the first import's.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS, SHARED_DATA, type TestApp } from '../../test/helper.js';
import { movebankServices } from '../../app.js';
import { importMovebank } from '../movebank/index.js';
import { burstSamples } from '../sensor/burst-samples.js';
import { addSampleDevices } from '../../test/samples.js';
import { writeExport } from './index.js';
import { NOW } from '../../test/fixed-time.js';
import { useFixedClock } from '../../test/clock.js';

// fishers: `visible` and `manually-marked-outlier` on every row, rows without a position, eobs:temperature and eobs:battery-voltage
const FILES = ['movebank_oystercatchers_o_assen_2018.csv', 'movebank_gulls_gps_acc.csv', 'movebank_albatrosses_gps_acc.csv', 'fishers_move2.csv'];
const ALL = { startTime: 0, endTime: Date.UTC(2100, 0, 1) };
/** Heights of two datums, and DOP, temperature and voltage as Movebank spells them. */
const SPELLED_APART = ['height-above-msl', 'height-above-ellipsoid', 'gps:dop', 'gps:hdop', 'eobs:temperature', 'external-temperature', 'eobs:battery-voltage', 'tag-voltage'];

describe.each(DIALECTS)('Movebank export → import round trip on %s', (dialect) => {
  let t: TestApp;
  let services: ReturnType<typeof movebankServices>;
  const db = () => t.database.db;
  // The sample devices' history is made up to the server's clock: fixed at NOW.
  useFixedClock(NOW);
  /** The devices of a folder by their tag and individual. */
  const devicesOf = async (folderId: number) => {
    const rows = await db().selectFrom('devices').select(['id', 'imei', 'attributes']).where('folder_id', '=', folderId).execute();
    return new Map(
      rows.map((d) => {
        const a = JSON.parse(d.attributes) as Record<string, string>;
        return [`${a['tag-local-identifier']}|${a['individual-local-identifier']}`, { id: Number(d.id), imei: d.imei }];
      }),
    );
  };
  const fixesOf = (deviceId: number) =>
    db()
      .selectFrom('fixes')
      .select(['pick_time', 'lon', 'lat', 'alt', 'speed', 'course', 'temperature', 'voltage', 'satellites', 'hdop', 'vdop', 'valid', 'invalid_by', 'invalid_reason', 'extra'])
      .where('device_id', '=', deviceId)
      .orderBy('pick_time')
      .execute();
  const burstsOf = async (deviceId: number) =>
    (
      await db()
        .selectFrom('acc_bursts')
        .select(['start_time', 'hz', 'axes', 'sample_count', 'samples', 'odba', 'mean_odba', 'calibration', 'encoding'])
        .where('device_id', '=', deviceId)
        .orderBy('start_time')
        .execute()
    ).map((b) => ({ start: Number(b.start_time), hz: Number(b.hz), axes: b.axes, n: Number(b.sample_count), raw: [...burstSamples({ ...b, encoding: Number(b.encoding) }).raw] }));

  /** Exports each device's fixes and bursts as Movebank CSV, imports the files into folderB, compares the records. */
  const roundTrip = async (first: Map<string, { id: number; imei: string }>, orgB: number, folderB: number, sourceHeader: string[] = []) => {
    // the columns Movebank spells more than one way go back out under the source's own spelling (issue 29)
    const named = sourceHeader.filter((h) => SPELLED_APART.includes(h));
    let fixes = 0;
    let bursts = 0;
    for (const [key, d] of first) {
      let exportedHeader: string[] = [];
      for (const kind of ['fix', 'acceleration'] as const) {
        const out = path.join(t.dataDir, `${d.imei}-${kind}.csv`);
        const { rows } = await writeExport(db(), { imei: d.imei, kind, ...ALL, timeZone: '+00:00', language: 'en', fileType: 'movebank' }, fs.createWriteStream(out));
        if (rows > 0) await importMovebank(services, { file: out, orgId: orgB, folderId: folderB });
        if (rows > 0 && kind === 'fix') exportedHeader = fs.readFileSync(out, 'utf8').split(/\r?\n/, 1)[0]!.replace(/^\uFEFF/, '').split(',');
      }
      const again = (await devicesOf(folderB)).get(key);
      const [a, b] = [await fixesOf(d.id), again ? await fixesOf(again.id) : []];
      expect(b.length, key).toBe(a.length);
      // an extra column goes out when a fix of the device holds it
      const held = named.filter((n) => n !== 'height-above-ellipsoid' || a.some((f) => f.extra?.includes('"height-above-ellipsoid"')));
      if (a.length > 0) expect(exportedHeader, key).toEqual(expect.arrayContaining(held));
      a.forEach((f, i) => {
        const g = b[i]!;
        const parsed = (x: { extra: string | null }) => (x.extra ? JSON.parse(x.extra) : null);
        expect({ ...g, speed: null, voltage: null, extra: parsed(g) }, `${key} fix ${i}`).toEqual({ ...f, speed: null, voltage: null, extra: parsed(f) });
        for (const k of ['speed', 'voltage'] as const) {
          // Speed -1 is 'none' (§5): written empty, read back as none.
          if (f[k] === null || (k === 'speed' && f[k]! < 0)) expect(g[k]).toBeNull();
          else expect(g[k]!).toBeCloseTo(f[k]!, 9);
        }
      });
      fixes += a.length;
      const [ba, bb] = [await burstsOf(d.id), again ? await burstsOf(again.id) : []];
      expect(bb.map((x) => ({ ...x, hz: Math.round(x.hz * 1000) / 1000 })), key).toEqual(ba.map((x) => ({ ...x, hz: Math.round(x.hz * 1000) / 1000 })));
      bursts += ba.length;
    }
    return { fixes, bursts };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    services = movebankServices(t.database, t.dataDir);
  });
  afterAll(async () => t.close());

  it.each(FILES)('%s: every fix and burst comes back the same', async (file) => {
    const now = NOW;
    const orgA = await services.folders.createOrg(`A ${file}`, false, now);
    const folderA = await services.folders.findOrCreateFolder(orgA, 'Movebank', now);
    await importMovebank(services, { file: path.join(SHARED_DATA, file), orgId: orgA, folderId: folderA });
    const orgB = await services.folders.createOrg(`B ${file}`, false, now);
    const folderB = await services.folders.findOrCreateFolder(orgB, 'Movebank', now);
    const first = await devicesOf(folderA);
    expect(first.size).toBeGreaterThan(0);

    const header = fs.readFileSync(path.join(SHARED_DATA, file), 'utf8').split(/\r?\n/, 1)[0]!.split(',');
    const { fixes, bursts } = await roundTrip(first, orgB, folderB, header);
    expect(fixes).toBeGreaterThan(0);
    if (file !== FILES[0] && file !== 'fishers_move2.csv') expect(bursts).toBeGreaterThan(0);
  }, 300_000);

  it('the sample devices: every fix (the fields Movebank carries) and burst comes back the same', async () => {
    const now = NOW;
    await addSampleDevices(t, { days: 2 });
    const samples = await db().selectFrom('devices').innerJoin('organisations', 'organisations.id', 'devices.org_id').select(['devices.id', 'devices.imei', 'devices.caption']).where('organisations.is_samples', '=', 1).execute();
    expect(samples.length).toBeGreaterThan(0);
    const orgB = await services.folders.createOrg('B samples', false, now);
    const folderB = await services.folders.findOrCreateFolder(orgB, 'Movebank', now);
    const first = new Map(samples.map((d) => [`${d.imei}|${d.caption || d.imei}`, { id: Number(d.id), imei: d.imei }]));
    const { fixes, bursts } = await roundTrip(first, orgB, folderB);
    expect(fixes).toBeGreaterThan(0);
    expect(bursts).toBeGreaterThan(0);
  }, 300_000);
});
