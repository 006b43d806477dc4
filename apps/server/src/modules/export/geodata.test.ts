import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// An independent reader of the XML files: fast-xml-parser (a well-kept parser already in node_modules), never the writer's code.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { API_BASE, calls, Code, DeviceType, type DownloadTask, LanguageId, signedHeaders, SpeciesType } from '@wildtrack/contract';
import { contractCalls } from '../../test/contract-calls.js';
import { BASE, DAY, local, MIN, NOW, type Page, ZONE } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { zipEntries } from '../../test/zip-entries.js';

/** GDAL's ogrinfo, when installed (`make test` may install gdal-bin): a second independent reader. */
const OGRINFO = spawnSync('ogrinfo', ['--version'], { encoding: 'utf8' }).status === 0;

const CAPTION = 'Crane <"A&B">';
const IMEI = 'GEO-CRANE';
const LONG = 5_000;

/** The stored fixes: full-precision coordinates, times with milliseconds, an invalid, a marked-invalid and a positionless row. */
const FIXES = [
  { t: BASE + 123, lon: 116.39748123456789, lat: 39.90871234567891, alt: 43.219, valid: 1, marked: false },
  { t: BASE + 10 * MIN + 7, lon: -0.000001234, lat: -33.12345678901234, alt: null, valid: 1, marked: false },
  { t: BASE + 20 * MIN, lon: 116.5, lat: 39.95, alt: 60, valid: 0, marked: false },
  { t: BASE + 30 * MIN, lon: null, lat: null, alt: null, valid: 0, marked: false },
  { t: BASE + 40 * MIN + 1, lon: 116.6, lat: 39.96, alt: 61, valid: 1, marked: true },
  { t: BASE + 50 * MIN + 999, lon: 179.99999999999997, lat: -89.5, alt: -12.5, valid: 1, marked: false },
];
const located = FIXES.filter((f) => f.lon !== null);
const track = located.filter((f) => f.valid === 1 && !f.marked);
const iso = (ms: number) => new Date(ms).toISOString();

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => ['trkpt', 'when', 'gx:coord', 'gx:Track', 'Placemark'].includes(name) });

/** RFC 7946's rules a reader relies on, checked on the parsed file: the object types, positions of 2-3 numbers in lon/lat order and range, no crs. */
function checkRfc7946(doc: Record<string, unknown>) {
  expect(doc.type).toBe('FeatureCollection');
  expect(doc).not.toHaveProperty('crs');
  const features = doc.features as { type: string; geometry: { type: string; coordinates: number[] }; properties: Record<string, unknown> }[];
  expect(Array.isArray(features)).toBe(true);
  for (const f of features) {
    expect(f.type).toBe('Feature');
    expect(f.geometry.type).toBe('Point');
    expect(f.geometry.coordinates.length).toBeGreaterThanOrEqual(2);
    expect(f.geometry.coordinates.length).toBeLessThanOrEqual(3);
    for (const c of f.geometry.coordinates) expect(typeof c).toBe('number');
    expect(Math.abs(f.geometry.coordinates[0]!)).toBeLessThanOrEqual(180);
    expect(Math.abs(f.geometry.coordinates[1]!)).toBeLessThanOrEqual(90);
    expect(typeof f.properties).toBe('object');
  }
  return features;
}

/** The GPX's points as read back: lat, lon, ele and time of each trkpt of its one trk. */
function readGpx(text: string) {
  expect(XMLValidator.validate(text)).toBe(true);
  const doc = xml.parse(text);
  expect(doc.gpx['@version']).toBe('1.1');
  expect(doc.gpx['@xmlns']).toBe('http://www.topografix.com/GPX/1/1');
  const trk = doc.gpx.trk;
  expect(Array.isArray(trk)).toBe(false);
  return { name: trk.name as string, points: ((trk.trkseg.trkpt ?? []) as Record<string, string>[]).map((p) => ({ lat: Number(p['@lat']), lon: Number(p['@lon']), ele: p.ele === undefined ? null : Number(p.ele), time: p.time })) };
}

/** The KML's one Placemark's track as read back: its when and gx:coord pairs over every gx:Track piece. */
function readKml(text: string) {
  expect(XMLValidator.validate(text)).toBe(true);
  const doc = xml.parse(text);
  expect(doc.kml['@xmlns']).toBe('http://www.opengis.net/kml/2.2');
  type Track = { altitudeMode: string; when: string[]; 'gx:coord': string[] };
  const placemarks = doc.kml.Document.Placemark as { name: string; 'gx:MultiTrack': { 'gx:Track': Track[] } }[];
  expect(placemarks).toHaveLength(1);
  const points: { time: string; lon: number; lat: number; ele: number; mode: string }[] = [];
  for (const piece of placemarks[0]!['gx:MultiTrack']['gx:Track']) {
    const whens = piece.when;
    const coords = piece['gx:coord'];
    expect(coords.length).toBe(whens.length);
    whens.forEach((w, i) => {
      const [lon, lat, ele] = coords[i]!.split(' ').map(Number);
      points.push({ time: w, lon: lon!, lat: lat!, ele: ele!, mode: piece.altitudeMode });
    });
  }
  return { name: placemarks[0]!.name, points };
}

describe.each(DIALECTS)('geodata exports on %s', (dialect) => {
  useFixedClock(NOW);
  let t: TestApp;
  let alice: string;
  const { call, data } = contractCalls(() => t, () => alice, { timeZone: ZONE });
  const range = { startTime: local(BASE - DAY), endTime: local(BASE + DAY), timeZone: ZONE };

  /** The export call's answer: the file (name, text) or the refusal's envelope. */
  const exportFile = async (body: Record<string, unknown>, lang: 'en' | 'zh' = 'en') => {
    const payload = JSON.stringify({ imei: IMEI, kind: 'fix', ...range, ...body });
    const p = calls.ExportData.path;
    const res = await t.app.inject({
      method: 'POST',
      url: API_BASE + p,
      headers: { ...signedHeaders({ token: alice, path: p, body: payload, lcid: LanguageId[lang], now: clockNow() }), 'content-type': 'application/json' },
      payload,
    });
    const disposition = String(res.headers['content-disposition'] ?? '');
    return disposition.startsWith('attachment') ? { name: decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? ''), text: res.body } : { envelope: res.json() as { Code: number; Msg: string } };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Crane Lab' }));
    const orgId = await t.services.devices.orgIdByName('Crane Lab');
    const device = Number((await t.services.devices.register({ orgId, imei: IMEI, caption: CAPTION, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'] })).id);
    await t.database.db
      .insertInto('fixes')
      .values(
        FIXES.map((f, i) => ({
          device_id: device, pick_time: f.t, lon: f.lon, lat: f.lat, alt: f.alt, speed: i * 1.8, course: i * 10, temperature: 20.5, activity: i, voltage: 3.9, channel: 1, satellites: 7 + i,
          hdop: 1.25, vdop: 1.5, grade: 2, valid: f.valid, tx_time: f.t + 30_000, received_at: NOW, invalid_by: null, invalid_at: f.marked ? NOW - DAY : null, invalid_reason: null, extra: null,
        })),
      )
      .execute();
    // A long track, read and written in several batches (the repository reads 1,024-2,048 fixes a batch).
    const long = Number((await t.services.devices.register({ orgId, imei: 'GEO-LONG', caption: 'Long', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'] })).id);
    const rows = Array.from({ length: LONG }, (_, i) => ({
      device_id: long, pick_time: BASE + i * 1000 + (i % 1000), lon: 100 + i / 1e7, lat: 30 + i / 3e7, alt: i / 8, speed: null, course: null, temperature: null, activity: null, voltage: null, channel: null,
      satellites: null, hdop: null, vdop: null, grade: null, valid: 1, tx_time: null, received_at: NOW, invalid_by: null, invalid_at: null, invalid_reason: null, extra: null,
    }));
    for (let i = 0; i < rows.length; i += 500) await t.database.db.insertInto('fixes').values(rows.slice(i, i + 500)).execute();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('GeoJSON: a FeatureCollection by RFC 7946 of every located fix, [lon, lat, ele] to full precision, ISO UTC times to the ms, the device and the fix fields', async () => {
    const got = await exportFile({ fileType: 'geojson' });
    expect(got.name).toBe(`${CAPTION.replace(/[<>"]/g, '_')}-positions-GeoJSON(${IMEI}).geojson`);
    const features = checkRfc7946(JSON.parse(got.text!));
    expect(features.map((f) => f.geometry.coordinates)).toEqual(located.map((f) => (f.alt === null ? [f.lon, f.lat] : [f.lon, f.lat, f.alt])));
    expect(features.map((f) => f.properties.time)).toEqual(located.map((f) => iso(f.t)));
    expect(features.map((f) => f.properties.valid)).toEqual(located.map((f) => f.valid === 1 && !f.marked));
    expect(features[0]!.properties).toMatchObject({ imei: IMEI, name: CAPTION, altitude: 43.219, speed: 0, course: 0, temperature: 20.5, satellites: 7, hdop: 1.25, vdop: 1.5, grade: 'B', transmissionTime: iso(FIXES[0]!.t + 30_000), markedInvalidAt: null });
    expect(features[3]!.properties.markedInvalidAt).toBe(iso(NOW - DAY));
  });

  it('GPX 1.1: one trk of the device, a trkpt of each valid located fix with its lat, lon, ele and time as stored', async () => {
    const got = await exportFile({ fileType: 'gpx' });
    expect(got.name).toMatch(/-GPX\(GEO-CRANE\)\.gpx$/);
    const gpx = readGpx(got.text!);
    expect(gpx.name).toBe(CAPTION);
    expect(gpx.points).toEqual(track.map((f) => ({ lat: f.lat, lon: f.lon, ele: f.alt, time: iso(f.t) })));
  });

  it('KML 2.2: one Placemark of the device with gx:Track when/gx:coord pairs of each valid located fix as stored', async () => {
    const got = await exportFile({ fileType: 'kml' });
    expect(got.name).toMatch(/-KML\(GEO-CRANE\)\.kml$/);
    const kml = readKml(got.text!);
    expect(kml.name).toBe(CAPTION);
    expect(kml.points.map(({ time, lon, lat }) => ({ time, lon, lat }))).toEqual(track.map((f) => ({ time: iso(f.t), lon: f.lon, lat: f.lat })));
    // A piece with a fix without altitude is clamped to the ground; the altitudes stored are written as they are.
    expect(kml.points.map((p) => p.mode)).toEqual(track.map(() => 'clampToGround'));
    expect(kml.points.map((p) => p.ele)).toEqual(track.map((f) => f.alt ?? 0));
  });

  it('a long track comes back whole from each type, written a batch at a time (GeoJSON features joined across batches, KML gx:Track pieces)', async () => {
    const times = Array.from({ length: LONG }, (_, i) => iso(BASE + i * 1000 + (i % 1000)));
    const geo = checkRfc7946(JSON.parse((await exportFile({ imei: 'GEO-LONG', fileType: 'geojson' })).text!));
    expect(geo.map((f) => f.properties.time)).toEqual(times);
    expect(geo.map((f) => f.geometry.coordinates)).toEqual(times.map((_, i) => [100 + i / 1e7, 30 + i / 3e7, i / 8]));
    const gpx = readGpx((await exportFile({ imei: 'GEO-LONG', fileType: 'gpx' })).text!);
    expect(gpx.points.map((p) => [p.lon, p.lat, p.ele, p.time])).toEqual(times.map((time, i) => [100 + i / 1e7, 30 + i / 3e7, i / 8, time]));
    const kmlText = (await exportFile({ imei: 'GEO-LONG', fileType: 'kml' })).text!;
    expect(kmlText.match(/<gx:Track>/g)!.length).toBeGreaterThan(1);
    const kml = readKml(kmlText);
    expect(kml.points.map((p) => [p.lon, p.lat, p.ele, p.time, p.mode])).toEqual(times.map((time, i) => [100 + i / 1e7, 30 + i / 3e7, i / 8, time, 'absolute']));
  });

  it('an empty range is a valid empty file of each type', async () => {
    const empty = { startTime: local(BASE + 2 * DAY), endTime: local(BASE + 3 * DAY) };
    expect(checkRfc7946(JSON.parse((await exportFile({ fileType: 'geojson', ...empty })).text!))).toEqual([]);
    expect(readGpx((await exportFile({ fileType: 'gpx', ...empty })).text!).points).toEqual([]);
    expect(XMLValidator.validate((await exportFile({ fileType: 'kml', ...empty })).text!)).toBe(true);
  });

  it('refuses a kind other than positions for geodata, in the caller language, naming the field', async () => {
    for (const fileType of ['geojson', 'gpx', 'kml']) {
      const en = await exportFile({ fileType, kind: 'event' });
      expect(en.envelope).toMatchObject({ Code: Code.Invalid });
      expect(en.envelope!.Msg).toContain('A GeoJSON, GPX or KML file holds only positions.');
      const zh = await exportFile({ fileType, kind: 'event' }, 'zh');
      expect(zh.envelope!.Msg).toContain('GeoJSON、GPX 和 KML 文件只能导出位置。');
    }
    const task = await call(calls.CreateDownloadTask, { imeis: [IMEI], kinds: ['fix', 'temperature'], fileType: 'gpx', ...range });
    expect(task).toMatchObject({ Code: Code.Invalid });
    expect(task.Msg).toContain('A GeoJSON, GPX or KML file holds only positions.');
  });

  it('a download task writes each geodata type into its zip, read back as the export call writes it', async () => {
    const tasks = async () => (await data<Page<DownloadTask>>(calls.GetDownloadTaskListByPage, { currentPage: 1, pageSize: 10 })).List;
    for (const fileType of ['geojson', 'gpx', 'kml'] as const) {
      const created = await data<DownloadTask>(calls.CreateDownloadTask, { imeis: [IMEI], kinds: ['fix'], fileType, ...range });
      await expect.poll(async () => (await tasks()).find((x) => x.IdStr === created.IdStr)?.Status, { timeout: 30_000, interval: 100 }).toBe('SUCCESSFUL');
      const done = (await tasks()).find((x) => x.IdStr === created.IdStr)!;
      expect(done.Rows).toBe(fileType === 'geojson' ? located.length : track.length);
      const payload = JSON.stringify({ id: created.IdStr, timeZone: ZONE });
      const p = calls.DownloadDownloadTask.path;
      const res = await t.app.inject({ method: 'POST', url: API_BASE + p, headers: { ...signedHeaders({ token: alice, path: p, body: payload, lcid: LanguageId.en, now: clockNow() }), 'content-type': 'application/json' }, payload });
      const entries = [...zipEntries(res.rawPayload)];
      expect(entries).toHaveLength(1);
      const [name, bytes] = entries[0]!;
      expect(name.endsWith(`.${fileType}`)).toBe(true);
      const text = bytes.toString('utf8');
      if (fileType === 'geojson') expect(checkRfc7946(JSON.parse(text)).map((f) => f.properties.time)).toEqual(located.map((f) => iso(f.t)));
      else if (fileType === 'gpx') expect(readGpx(text).points.map((pt) => pt.time)).toEqual(track.map((f) => iso(f.t)));
      else expect(readKml(text).points.map((pt) => pt.time)).toEqual(track.map((f) => iso(f.t)));
    }
  });

  it.skipIf(!OGRINFO)(`GDAL's ogrinfo reads each file with its feature count${OGRINFO ? '' : ' (skipped: ogrinfo is not installed)'}`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'geodata-'));
    try {
      for (const [fileType, layer, count] of [
        ['geojson', null, located.length],
        ['gpx', 'track_points', track.length],
        ['kml', null, 1],
      ] as const) {
        const file = path.join(dir, `crane.${fileType}`);
        fs.writeFileSync(file, (await exportFile({ fileType })).text!);
        const r = spawnSync('ogrinfo', layer ? ['-ro', '-so', file, layer] : ['-ro', '-so', '-al', file], { encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout, r.stdout).toMatch(new RegExp(`Feature Count: ${count}\\b`));
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
