import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, type CallDef, calls, Code, DeviceType, formatTime, LanguageId, message, packSamples, signedHeaders, SpeciesType } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { BASE, DAY, HOUR, local, MIN, NOW, ZONE } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';
import { zipEntries } from '../../test/zip-entries.js';

/** A date cell's number (days since 1899-12-30 in the file's local time) as the CSV's text of that time, '.SSS' for style 2. */
const dateText = (serial: string, style: string) => {
  const localMs = Math.round((Number(serial) - 25569) * DAY);
  return formatTime(localMs, '+00:00') + (style === '2' ? `.${String(localMs % 1000).padStart(3, '0')}` : '');
};

/** The rows of an XLSX's first sheet as text (inline strings, numbers, and date cells as dateText), as the writer makes them. */
function sheetRows(xlsx: Buffer, sheet = 1): string[][] {
  const xml = zipEntries(xlsx).get(`xl/worksheets/sheet${sheet}.xml`)!.toString('utf8');
  const unescape = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
  return [...xml.matchAll(/<row r="\d+">(.*?)<\/row>/g)].map(([, cells]) => {
    const row: string[] = [];
    for (const [, ref, attrs, body] of cells!.matchAll(/<c r="([A-Z]+)\d+"([^>]*)>(.*?)<\/c>/g)) {
      const col = [...ref!].reduce((n, ch) => n * 26 + ch.charCodeAt(0) - 64, 0) - 1;
      while (row.length < col) row.push('');
      const style = / s="(\d+)"/.exec(attrs!)?.[1];
      const value = /<v>(.*)<\/v>/.exec(body!)?.[1];
      row.push(style && value !== undefined ? dateText(value, style) : unescape(/<t>(.*)<\/t>/.exec(body!)?.[1] ?? value ?? ''));
    }
    return row;
  });
}

const csvRows = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n')
    .map((l) => l.split(','));

describe.each(DIALECTS)('exports on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  // The shares' windows are read against the server's clock: fixed at NOW, the records made around it.
  const now = NOW;
  useFixedClock(NOW);
  const range = { startTime: local(BASE), endTime: local(BASE + DAY), timeZone: ZONE };

  const post = (def: CallDef, body: unknown, token = alice, lang: 'en' | 'zh' = 'en') => {
    const payload = JSON.stringify(body);
    return t.app.inject({
      method: 'POST',
      url: API_BASE + def.path,
      headers: { ...signedHeaders({ token, path: def.path, body: payload, lcid: LanguageId[lang], now: clockNow() }), 'content-type': 'application/json' },
      payload,
    });
  };
  const envelope = async (body: unknown, token = alice, lang: 'en' | 'zh' = 'en') => JSON.parse((await post(calls.ExportData, body, token, lang)).body) as { Code: number; Msg: string; Data: unknown };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Stork Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Heron Lab' }));
    const aliceOrg = await t.services.devices.orgIdByName('Stork Lab');
    const bobOrg = await t.services.devices.orgIdByName('Heron Lab');
    const userOf = async (org: number) => Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', org).executeTakeFirstOrThrow()).id);
    const aliceId = await userOf(aliceOrg);
    const bobId = await userOf(bobOrg);
    const reg = async (orgId: number, imei: string, caption: string) =>
      (await t.services.devices.register({ orgId, imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS', 'Acceleration', 'Temperature'], caption })).id;
    const stork = await reg(aliceOrg, 'EXP-STORK', 'Stork, "Max"');
    const noRight = await reg(bobOrg, 'EXP-NORIGHT', 'Heron 1');
    const expired = await reg(bobOrg, 'EXP-EXPIRED', 'Heron 2');
    const shared = await reg(bobOrg, 'EXP-SHARED', 'Heron 3');
    await reg(bobOrg, 'EXP-PRIVATE', 'Heron 4');

    const fix = (device_id: number, i: number) => ({
      device_id,
      pick_time: BASE + i * 10 * MIN,
      lon: 116.5 + i / 1000,
      lat: 39.9 - i / 1000,
      alt: 50 + i,
      speed: i * 1.8,
      course: (i * 7) % 360,
      temperature: 20 + i / 10,
      activity: i,
      voltage: 3.9,
      channel: 1,
      satellites: 8,
      hdop: 1.2,
      vdop: 1.5,
      grade: 1 + (i % 7),
      valid: 1,
      tx_time: BASE + i * 10 * MIN + 30_000,
      received_at: now,
      invalid_by: null,
      invalid_at: null,
      invalid_reason: null,
      extra: null,
    });
    // 30 fixes of the stork every 10 minutes; one more the day after (outside the range).
    await t.database.db.insertInto('fixes').values([...Array.from({ length: 30 }, (_, i) => fix(stork, i)), fix(stork, 200)]).execute();
    await t.database.db.insertInto('fixes').values([fix(noRight, 1), fix(expired, 1), fix(shared, 1)]).execute();
    await t.services.ingest.writeBatch(
      stork,
      {
        sensors: [{ kind: 'temperature', t: [BASE + HOUR, BASE + 2 * HOUR], v: [[21.5], [22.25]] }],
        bursts: [{ t: BASE + 3 * HOUR, hz: 10, axes: 'XYZ', samples: packSamples([2048, 2100, 2400, 2058, 2090, 2410]), scale: [0.002, 0.003, 0.004], offset: [2048, 2048, 2048] }],
      },
      null,
      now,
    );
    await t.database.db
      .insertInto('device_shares')
      .values([
        { device_id: noRight, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 1, remote_instr: 1, download_data: 0, effective_time: now - DAY, failure_time: now + DAY, created_at: now },
        { device_id: expired, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 1, remote_instr: 1, download_data: 1, effective_time: now - 3 * DAY, failure_time: now - HOUR, created_at: now },
        { device_id: shared, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 0, remote_instr: 0, download_data: 1, effective_time: BASE - DAY, failure_time: now + DAY, created_at: now },
      ])
      .execute();
  });
  afterAll(async () => t.close());

  it('exports positions as CSV: headers in the language, times in the zone asked, the range only, named device-sensor-type(IMEI).csv', async () => {
    const res = await post(calls.ExportData, { imei: 'EXP-STORK', kind: 'fix', fileType: 'csv', ...range });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    expect(decodeURIComponent(String(res.headers['content-disposition']).split("''")[1]!)).toBe('Stork, _Max_-positions-CSV(EXP-STORK).csv');
    const rows = csvRows(res.body);
    expect(rows[0]!.slice(0, 4)).toEqual(['IMEI', 'PickTime (UTC+08:00)', 'Longitude', 'Latitude']);
    expect(rows).toHaveLength(31);
    expect(rows[1]!.slice(0, 6)).toEqual(['EXP-STORK', local(BASE), '116.5', '39.9', '50', '0']);
    expect(rows[30]![1]).toBe(local(BASE + 29 * 10 * MIN));
    const utc = csvRows((await post(calls.ExportData, { imei: 'EXP-STORK', kind: 'fix', fileType: 'csv', startTime: local(BASE, '+00:00'), endTime: local(BASE + DAY, '+00:00'), timeZone: '+00:00' })).body);
    expect(utc[0]![1]).toBe('PickTime (UTC+00:00)');
    expect(utc[1]![1]).toBe(local(BASE, '+00:00'));
    const zh = csvRows((await post(calls.ExportData, { imei: 'EXP-STORK', kind: 'fix', fileType: 'csv', ...range }, alice, 'zh')).body);
    expect(zh[0]!.slice(0, 3)).toEqual(['IMEI', '定位时间 (UTC+08:00)', '经度']);
    // A page of the range: rows 11-20.
    const page = csvRows((await post(calls.ExportData, { imei: 'EXP-STORK', kind: 'fix', fileType: 'csv', ...range, currentPage: 2, pageSize: 10 })).body);
    expect(page.map((r) => r[1])).toEqual(['PickTime (UTC+08:00)', ...Array.from({ length: 10 }, (_, i) => local(BASE + (10 + i) * 10 * MIN))]);
  });

  it('exports positions as XLSX with the same rows, and sensors, acceleration samples and events', async () => {
    const res = await post(calls.ExportData, { imei: 'EXP-STORK', kind: 'fix', fileType: 'xls', ...range }, alice, 'zh');
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain('.xlsx');
    // The sheet leaves empty cells out: padded to the header's width to compare with the CSV.
    const rows = sheetRows(res.rawPayload).map((r, _, all) => [...r, ...Array<string>(all[0]!.length - r.length).fill('')]);
    const csv = csvRows((await post(calls.ExportData, { imei: 'EXP-STORK', kind: 'fix', fileType: 'csv', ...range }, alice, 'zh')).body);
    expect(rows).toEqual(csv);

    const temp = csvRows((await post(calls.ExportData, { imei: 'EXP-STORK', kind: 'temperature', fileType: 'csv', ...range })).body);
    expect(temp).toEqual([
      ['IMEI', 'Time (UTC+08:00)', 'Temperature (°C)'],
      ['EXP-STORK', local(BASE + HOUR), '21.5'],
      ['EXP-STORK', local(BASE + 2 * HOUR), '22.25'],
    ]);
    const acc = csvRows((await post(calls.ExportData, { imei: 'EXP-STORK', kind: 'acceleration', fileType: 'csv', ...range })).body);
    expect(acc).toHaveLength(3);
    expect(acc[1]!.slice(0, 8)).toEqual(['EXP-STORK', local(BASE + 3 * HOUR), `${local(BASE + 3 * HOUR)}.000`, '10', 'XYZ', '2048', '2100', '2400']);
    expect(acc[1]!.slice(8, 11)).toEqual(['0', '0.156', '1.408']);
    const events = csvRows((await post(calls.ExportData, { imei: 'EXP-STORK', kind: 'event', fileType: 'csv', ...range })).body);
    expect(events[0]).toEqual(['IMEI', 'Time (UTC+08:00)', 'Event', 'Content']);
  });

  it('states the zone in the time headers, keeps milliseconds where a time has them, and writes XLSX times as date cells (issue 28 item 3)', async () => {
    const device = await t.services.devices.register({ orgId: await t.services.devices.orgIdByName('Stork Lab'), imei: 'EXP-MS', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS'], caption: 'Ms' });
    const at = BASE + 2 * HOUR + 250;
    await t.database.db
      .insertInto('fixes')
      .values({ device_id: device.id, pick_time: at, lon: 116.5, lat: 39.9, alt: 5, speed: 1, course: 2, temperature: 20, activity: 1, voltage: 3.9, channel: 1, satellites: 8, hdop: 1.2, vdop: 1.5, grade: 1, valid: 1, tx_time: at + 29_750, received_at: now, invalid_by: null, invalid_at: null, invalid_reason: null, extra: null })
      .execute();
    const body = { imei: 'EXP-MS', kind: 'fix', startTime: local(BASE, '-05:00'), endTime: local(BASE + DAY, '-05:00'), timeZone: '-05:00' };
    const csv = csvRows((await post(calls.ExportData, { ...body, fileType: 'csv' })).body);
    expect(csv[0]![1]).toBe('PickTime (UTC-05:00)');
    expect(csv[0]![16]).toBe('TransmissionTime (UTC-05:00)');
    expect(csv[1]![1]).toBe(`${local(at, '-05:00')}.250`);
    expect(csv[1]![16]).toBe(local(at + 29_750, '-05:00'));

    const xlsx = (await post(calls.ExportData, { ...body, fileType: 'xls' })).rawPayload;
    const files = zipEntries(xlsx);
    const sheet = files.get('xl/worksheets/sheet1.xml')!.toString('utf8');
    const styles = files.get('xl/styles.xml')!.toString('utf8');
    // The time is a number in a date style, not text: the milliseconds' format for the fix, the seconds' for the transmission.
    const cell = (ref: string) => new RegExp(`<c r="${ref}"([^>]*)><v>([^<]*)</v></c>`).exec(sheet);
    expect(cell('B2')?.[1]).toBe(' s="2"');
    expect(cell('Q2')?.[1]).toBe(' s="1"');
    expect(sheet).toContain('<c r="B1" t="inlineStr"><is><t>PickTime (UTC-05:00)</t></is></c>');
    expect(styles).toContain('<numFmt numFmtId="164" formatCode="yyyy-mm-dd hh:mm:ss"/>');
    expect(styles).toContain('<numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm:ss.000"/>');
    expect(styles).toMatch(/<cellXfs count="3"><xf [^>]*\/><xf numFmtId="164"[^>]*applyNumberFormat="1"\/><xf numFmtId="165"[^>]*applyNumberFormat="1"\/><\/cellXfs>/);
    expect(files.get('xl/_rels/workbook.xml.rels')!.toString('utf8')).toContain('Target="styles.xml"');
    expect(files.get('[Content_Types].xml')!.toString('utf8')).toContain('PartName="/xl/styles.xml"');
    // Its number is the local time in the zone asked: -05:00.
    expect(dateText(cell('B2')![2]!, '2')).toBe(`${local(at, '-05:00')}.250`);
    expect(sheetRows(xlsx)[1]!.slice(0, 2)).toEqual(['EXP-MS', `${local(at, '-05:00')}.250`]);
  });

  it('writes a header only for an empty range, and a share only its window', async () => {
    const empty = csvRows((await post(calls.ExportData, { imei: 'EXP-STORK', kind: 'fix', fileType: 'csv', startTime: local(BASE - 2 * DAY), endTime: local(BASE - DAY), timeZone: ZONE })).body);
    expect(empty).toHaveLength(1);
    const shared = await post(calls.ExportData, { imei: 'EXP-SHARED', kind: 'fix', fileType: 'csv', ...range });
    expect(shared.statusCode).toBe(200);
    expect(csvRows(shared.body)).toHaveLength(2);
  });

  it('refuses a stranger, an expired share, a share without DownloadData and no token', async () => {
    const stranger = await envelope({ imei: 'EXP-STORK', kind: 'fix', fileType: 'csv', ...range }, bob);
    expect(stranger.Code).toBe(Code.NotFound);
    const expired = await envelope({ imei: 'EXP-EXPIRED', kind: 'fix', fileType: 'csv', ...range });
    expect(expired.Code).toBe(Code.NotFound);
    const private_ = await envelope({ imei: 'EXP-PRIVATE', kind: 'fix', fileType: 'csv', ...range });
    expect(private_.Code).toBe(Code.NotFound);
    const noRight = await envelope({ imei: 'EXP-NORIGHT', kind: 'fix', fileType: 'xls', ...range }, alice, 'zh');
    expect(noRight).toMatchObject({ Code: Code.Forbidden, Msg: message('zh', 'export.noDownloadRight') });
    const payload = JSON.stringify({ imei: 'EXP-STORK', kind: 'fix', fileType: 'csv', ...range });
    const anonymous = await t.app.inject({ method: 'POST', url: API_BASE + calls.ExportData.path, headers: { 'content-type': 'application/json' }, payload });
    expect(anonymous.headers['content-type']).toMatch(/json/);
    expect(JSON.parse(anonymous.body).Code).not.toBe(Code.Success);
  });

  it('refuses bad input with 601 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ imei: 'EXP-STORK', kind: 'fix', fileType: 'pdf', ...range }, 'fileType'],
      [{ imei: 'EXP-STORK', kind: 'gossip', fileType: 'csv', ...range }, 'kind'],
      [{ imei: 'EXP-STORK', kind: 'fix', fileType: 'csv', startTime: range.endTime, endTime: range.startTime, timeZone: ZONE }, 'endTime'],
      [{ imei: 'EXP-STORK', kind: 'fix', fileType: 'csv', startTime: local(BASE - 4000 * DAY), endTime: local(BASE), timeZone: ZONE }, 'endTime'],
      [{ imei: 'EXP-STORK', kind: 'temperature', fileType: 'movebank', ...range }, 'kind'],
    ];
    for (const [body, field] of cases) {
      const res = await envelope(body);
      expect(res.Code, field).toBe(601);
      expect(res.Msg, JSON.stringify(body)).toBeTruthy();
      expect(JSON.stringify(res.Data ?? res.Msg)).toContain(field);
    }
  });
});
