import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// An independent reader of the GPX: fast-xml-parser (a well-kept parser already in node_modules), never the writer's code.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { API_BASE, calls, Code, DeviceType, LanguageId, signedHeaders, SpeciesType } from '@wildtrack/contract';
import { BASE, DAY, local, NOW, ZONE } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';

const POIS = [
  { t: BASE + 1, name: 'Nest <A>', target: 'Oriental stork', lon: 121.48123456789013, lat: 31.230000000000004, alt: 4.25, address: 'Chongming & east', description: 'two eggs' },
  { t: BASE + 3_600_999, name: 'Footprints', target: '', lon: -0.5, lat: -45.123456789, alt: null, address: '', description: '' },
];

describe.each(DIALECTS)('POI exports on %s', (dialect) => {
  useFixedClock(NOW);
  let t: TestApp;
  let alice: string;
  let bob: string;
  const exportPois = async (body: Record<string, unknown>, token = alice, lang: 'en' | 'zh' = 'en') => {
    const payload = JSON.stringify({ imei: 'P-PHONE', startTime: local(BASE - DAY), endTime: local(BASE + DAY), timeZone: ZONE, ...body });
    const p = calls.ExportPois.path;
    const res = await t.app.inject({ method: 'POST', url: API_BASE + p, headers: { ...signedHeaders({ token, path: p, body: payload, lcid: LanguageId[lang], now: clockNow() }), 'content-type': 'application/json' }, payload });
    const disposition = String(res.headers['content-disposition'] ?? '');
    return disposition.startsWith('attachment') ? { name: decodeURIComponent(/filename\*=UTF-8''([^;]+)/.exec(disposition)?.[1] ?? ''), text: res.body } : { envelope: res.json() as { Code: number; Msg: string } };
  };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Ranger Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Other Lab' }));
    const orgId = await t.services.devices.orgIdByName('Ranger Lab');
    const device = Number((await t.services.devices.register({ orgId, imei: 'P-PHONE', caption: 'Ranger phone', type: DeviceType.Phone, speciesType: SpeciesType.Bird, sensors: ['GNSS'] })).id);
    await t.database.db
      .insertInto('poi_records')
      .values(POIS.map((p) => ({ device_id: device, record_time: p.t, recorder: 5, recorder_name: 'Li', name: p.name, target: p.target, lon: p.lon, lat: p.lat, alt: p.alt, address: p.address, description: p.description, photos: '[]', received_at: NOW })))
      .execute();
  }, 60_000);
  /**
   * The positions as stored: poi_records' lon/lat/alt are `real`, 8 bytes on SQLite but 4 on PostgreSQL
   * (float4, ~1 m at 121°E; migration 2026-11-24T20-00-00): the file must carry exactly what is stored.
   */
  const stored = async () => (await t.database.db.selectFrom('poi_records').select(['lon', 'lat', 'alt']).orderBy('record_time').execute()).map((r) => ({ lon: Number(r.lon), lat: Number(r.lat), alt: r.alt === null ? null : Number(r.alt) }));
  afterAll(async () => {
    await t?.close();
  });

  it('GeoJSON: a Point feature a POI, [lon, lat, ele] to the bit, ISO UTC ms time, its fields', async () => {
    const got = await exportPois({ fileType: 'geojson' });
    expect(got.name).toBe('Ranger phone-POI(P-PHONE).geojson');
    const doc = JSON.parse(got.text!) as { type: string; features: { type: string; geometry: { type: string; coordinates: number[] }; properties: Record<string, unknown> }[] };
    expect(doc.type).toBe('FeatureCollection');
    expect(doc).not.toHaveProperty('crs');
    expect(doc.features.map((f) => [f.type, f.geometry.type])).toEqual(POIS.map(() => ['Feature', 'Point']));
    expect(doc.features.map((f) => f.geometry.coordinates)).toEqual((await stored()).map((p) => (p.alt === null ? [p.lon, p.lat] : [p.lon, p.lat, p.alt])));
    if (dialect === 'sqlite') expect(await stored()).toEqual(POIS.map(({ lon, lat, alt }) => ({ lon, lat, alt })));
    expect(doc.features.map((f) => f.properties.time)).toEqual(POIS.map((p) => new Date(p.t).toISOString()));
    expect(doc.features[0]!.properties).toMatchObject({ imei: 'P-PHONE', name: 'Nest <A>', target: 'Oriental stork', recorderName: 'Li', address: 'Chongming & east', description: 'two eggs', photos: [] });
  });

  it('GPX 1.1: a wpt a POI with lat, lon, ele, time, name, type as stored', async () => {
    const got = await exportPois({ fileType: 'gpx' });
    expect(XMLValidator.validate(got.text!)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (n) => n === 'wpt' }).parse(got.text!);
    expect(doc.gpx['@version']).toBe('1.1');
    const wpts = (doc.gpx.wpt as Record<string, string>[]).map((w) => ({ lat: Number(w['@lat']), lon: Number(w['@lon']), ele: w.ele === undefined ? null : Number(w.ele), time: w.time, name: w.name, type: w.type ?? '' }));
    const pos = await stored();
    expect(wpts).toEqual(POIS.map((p, i) => ({ lat: pos[i]!.lat, lon: pos[i]!.lon, ele: pos[i]!.alt, time: new Date(p.t).toISOString(), name: p.name, type: p.target })));
  });

  it('refuses a stranger (not found) and a bad file type in the caller language', async () => {
    expect((await exportPois({ fileType: 'gpx' }, bob)).envelope).toMatchObject({ Code: Code.NotFound });
    const bad = (await exportPois({ fileType: 'kml' }, alice, 'zh')).envelope!;
    expect(bad.Code).toBe(Code.Invalid);
    expect(bad.Msg).toContain('文件格式只能是 geojson 或 gpx。');
  });
});
