import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// An independent reader of the KML: fast-xml-parser (a well-kept parser already in node_modules), never the writer's code.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { API_BASE, calls, Code, DeviceType, distanceMeters, type Fence, LanguageId, signedHeaders, SpeciesType } from '@wildtrack/contract';
import { contractCalls } from '../../test/contract-calls.js';
import { ZONE } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { type FenceFeature, writeFences } from './export-file.js';

const OGRINFO = spawnSync('ogrinfo', ['--version'], { encoding: 'utf8' }).status === 0;
const T0 = Date.UTC(2026, 10, 20, 2, 0, 0, 250);

type Pos = [number, number];
/** A polygon given clockwise, with vertices to the last bit. */
const CLOCKWISE: Pos[] = [[121.12345678901234, 31.000000000000004], [121.1, 31.2], [121.3, 31.2], [121.3, 31]];
const CENTER: Pos = [116.4, 39.9];
const RADIUS = 1500;

const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => ['Placemark', 'Data', 'innerBoundaryIs'].includes(name) });

/** Twice the signed area of a closed ring (> 0: counterclockwise), computed here, not by the writer. */
const signed = (ring: Pos[]) => ring.slice(0, -1).reduce((s, p, i) => s + p[0] * ring[i + 1]![1] - ring[i + 1]![0] * p[1], 0);

/** RFC 7946's rules for polygon features: closed rings of >= 4 positions, exterior counterclockwise, holes clockwise, lon/lat in range. */
function checkPolygons(doc: { type: string; features: { type: string; geometry: { type: string; coordinates: Pos[][] }; properties: Record<string, unknown> }[] }) {
  expect(doc.type).toBe('FeatureCollection');
  expect(doc).not.toHaveProperty('crs');
  for (const f of doc.features) {
    expect(f.type).toBe('Feature');
    expect(f.geometry.type).toBe('Polygon');
    f.geometry.coordinates.forEach((ring, i) => {
      expect(ring.length).toBeGreaterThanOrEqual(4);
      expect(ring[ring.length - 1]).toEqual(ring[0]);
      for (const [x, y] of ring) expect(Math.abs(x) <= 180 && Math.abs(y) <= 90).toBe(true);
      expect(signed(ring) > 0, `ring ${i} of ${String(f.properties.name)}`).toBe(i === 0);
    });
  }
  return doc.features;
}

/** The KML's placemarks as read back: name, data, outer ring and inner rings as positions. */
function readKml(text: string) {
  expect(XMLValidator.validate(text)).toBe(true);
  const doc = xml.parse(text);
  expect(doc.kml['@xmlns']).toBe('http://www.opengis.net/kml/2.2');
  const ring = (b: { LinearRing: { coordinates: string } }) => b.LinearRing.coordinates.trim().split(/\s+/).map((p) => p.split(',').map(Number) as Pos);
  type Boundary = { LinearRing: { coordinates: string } };
  type Placemark = { name: string; description?: string; ExtendedData: { Data: { '@name': string; value: string }[] }; Polygon: { outerBoundaryIs: Boundary; innerBoundaryIs?: Boundary[] } };
  return ((doc.kml.Document.Placemark ?? []) as Placemark[]).map((p) => ({
    name: p.name,
    description: p.description,
    data: Object.fromEntries(p.ExtendedData.Data.map((d) => [d['@name'], d.value])),
    outer: ring(p.Polygon.outerBoundaryIs),
    inner: (p.Polygon.innerBoundaryIs ?? []).map(ring),
  }));
}

describe.each(DIALECTS)('fence exports on %s', (dialect) => {
  useFixedClock(T0);
  let t: TestApp;
  let alice: string;
  let bob: string;
  const { data } = contractCalls(() => t, () => alice, { timeZone: ZONE });
  const settings = (imeis: string[]) => ({ inOrOut: 'BOTH', ruleType: 1, imeis, collection: { Mode: 'INTERVAL', IntervalMinutes: 5 }, postback: { Mode: 'DATA_CNT', PacketCount: 10, PacketSize: 512 } });

  const exportFences = async (body: Record<string, unknown>, token = alice, lang: 'en' | 'zh' = 'en') => {
    const payload = JSON.stringify({ timeZone: ZONE, ...body });
    const p = calls.ExportFences.path;
    const res = await t.app.inject({
      method: 'POST',
      url: API_BASE + p,
      headers: { ...signedHeaders({ token, path: p, body: payload, lcid: LanguageId[lang], now: clockNow() }), 'content-type': 'application/json' },
      payload,
    });
    const disposition = String(res.headers['content-disposition'] ?? '');
    return disposition.startsWith('attachment') ? { name: decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? ''), text: res.body } : { envelope: res.json() as { Code: number; Msg: string } };
  };

  let polygon: Fence;
  let circle: Fence;
  let foreign: Fence;
  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Heron Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Crane Lab' }));
    const orgId = await t.services.devices.orgIdByName('Heron Lab');
    const reg = async (org: number, imei: string, caption: string) => t.services.devices.register({ orgId: org, imei, caption, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'] });
    await reg(orgId, 'F-ONE', 'Heron <1>');
    await reg(orgId, 'F-TWO', 'Heron 2');
    await reg(await t.services.devices.orgIdByName('Crane Lab'), 'B-ONE', 'Crane 1');
    polygon = await data<Fence>(calls.CreateFence, { label: 'Lake & reeds', shape: { Type: 'Polygon', Coordinates: CLOCKWISE }, ...settings(['F-ONE']) });
    circle = await data<Fence>(calls.CreateFence, { label: '水库', shape: { Type: 'Circle', Center: CENTER, Radius: RADIUS }, ...settings(['F-TWO']) });
    foreign = await data<Fence>(calls.CreateFence, { label: 'Crane field', shape: { Type: 'Circle', Center: [100, 10], Radius: 100 }, ...settings(['B-ONE']) }, { token: bob });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('GeoJSON: every fence the caller sees as an RFC 7946 polygon, vertices as stored, a circle as a polygon with its centre and radius noted', async () => {
    const got = await exportFences({ fileType: 'geojson' });
    expect(got.name).toBe('geofences.geojson');
    const features = checkPolygons(JSON.parse(got.text!));
    expect(features.map((f) => f.properties.name)).toEqual(['水库', 'Lake & reeds']);
    const [c, p] = features;
    // the polygon's vertices come back to the bit, turned counterclockwise
    const ring = p!.geometry.coordinates[0]!;
    expect(new Set(ring.map((x) => x.join()))).toEqual(new Set(CLOCKWISE.map((x) => x.join())));
    expect(p!.properties).toMatchObject({ id: polygon.IdStr, shape: 'Polygon', area: polygon.Area, enabled: true, inOrOut: 'BOTH', ruleType: 1, devices: ['F-ONE'], deviceNames: ['Heron <1>'], createTime: new Date(T0).toISOString() });
    expect(c!.properties).toMatchObject({ id: circle.IdStr, shape: 'Circle', center: CENTER, radius: RADIUS, devices: ['F-TWO'] });
    const edge = c!.geometry.coordinates[0]!;
    expect(edge).toHaveLength(65);
    for (const v of edge) expect(Math.abs(distanceMeters(CENTER, v) - RADIUS)).toBeLessThan(0.05);
  });

  it('KML 2.2: a Placemark a fence with its name, data and Polygon; the circle says its centre and radius', async () => {
    const got = await exportFences({ fileType: 'kml' }, alice, 'zh');
    expect(got.name).toBe('围栏.kml');
    const placemarks = readKml(got.text!);
    expect(placemarks.map((p) => p.name)).toEqual(['水库', 'Lake & reeds']);
    const [c, p] = placemarks;
    expect(new Set(p!.outer.map((x) => x.join()))).toEqual(new Set(CLOCKWISE.map((x) => x.join())));
    expect(p!.outer[0]).toEqual(p!.outer[p!.outer.length - 1]);
    expect(p!.data).toMatchObject({ id: polygon.IdStr, shape: 'Polygon', devices: 'F-ONE', inOrOut: 'BOTH' });
    expect(c!.data).toMatchObject({ shape: 'Circle', centerLongitude: '116.4', centerLatitude: '39.9', radius: '1500' });
    expect(c!.description).toBe('Circle: centre 116.4,39.9, radius 1500 m');
    expect(c!.outer).toHaveLength(65);
  });

  it('only the fences named, each checked: another organisation\'s is not found, a bad file type is refused naming the field', async () => {
    const one = checkPolygons(JSON.parse((await exportFences({ fileType: 'geojson', fenceIds: [polygon.IdStr] })).text!));
    expect(one.map((f) => f.properties.id)).toEqual([polygon.IdStr]);
    expect((await exportFences({ fileType: 'geojson', fenceIds: [foreign.IdStr] })).envelope).toMatchObject({ Code: Code.NotFound });
    const bad = (await exportFences({ fileType: 'gpx' })).envelope!;
    expect(bad.Code).toBe(Code.Invalid);
    expect(bad.Msg).toContain('The file format must be geojson or kml.');
    expect((await exportFences({ fileType: 'gpx' }, alice, 'zh')).envelope!.Msg).toContain('文件格式只能是 geojson 或 kml。');
    // bob sees his own only; a keyword filters as the list does
    expect(checkPolygons(JSON.parse((await exportFences({ fileType: 'geojson' }, bob)).text!)).map((f) => f.properties.name)).toEqual(['Crane field']);
    expect(checkPolygons(JSON.parse((await exportFences({ fileType: 'geojson', keyword: 'lake' })).text!)).map((f) => f.properties.name)).toEqual(['Lake & reeds']);
  });

  it.skipIf(!OGRINFO)(`GDAL's ogrinfo reads both files with their fence count${OGRINFO ? '' : ' (skipped: ogrinfo is not installed)'}`, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fences-'));
    try {
      for (const fileType of ['geojson', 'kml']) {
        const file = path.join(dir, `fences.${fileType}`);
        fs.writeFileSync(file, (await exportFences({ fileType })).text!);
        // the features themselves, not the summary alone: LIBKML's summary names no geometry type (Unknown (any))
        const r = spawnSync('ogrinfo', ['-ro', '-al', file], { encoding: 'utf8' });
        expect(r.status, r.stderr).toBe(0);
        expect(r.stdout).toMatch(/Feature Count: 2\b/);
        expect(r.stdout.match(/^\s*POLYGON (Z )?\(\(/gm)?.length, `${fileType}: two polygons read`).toBe(2);
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('fence files keep a polygon\'s holes', () => {
  const outer: Pos[] = [[0, 0], [10, 0], [10, 10], [0, 10], [0, 0]];
  const hole: Pos[] = [[2, 2], [4, 2], [4, 4], [2, 4], [2, 2]];
  const fence: FenceFeature = {
    id: '7', name: 'ring', shape: { Type: 'Polygon', Coordinates: outer, Holes: [hole] } as FenceFeature['shape'], area: 1, enabled: true, inOrOut: 'IN', ruleType: 1, devices: [], createdAt: 0, updatedAt: 0,
  };
  const write = async (type: 'geojson' | 'kml') => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    await writeFences(type, 'x', [[fence]], out);
    return Buffer.concat(chunks).toString('utf8');
  };
  it('as an inner ring, wound clockwise in GeoJSON, an innerBoundaryIs in KML', async () => {
    const [f] = checkPolygons(JSON.parse(await write('geojson')));
    expect(f!.geometry.coordinates).toHaveLength(2);
    expect(new Set(f!.geometry.coordinates[1]!.map((x) => x.join()))).toEqual(new Set(hole.map((x) => x.join())));
    const [p] = readKml(await write('kml'));
    expect(p!.inner).toHaveLength(1);
    expect(new Set(p!.inner[0]!.map((x) => x.join()))).toEqual(new Set(hole.map((x) => x.join())));
  });
});
