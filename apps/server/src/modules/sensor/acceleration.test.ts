import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ACCELERATION_CSV_COLUMNS,
  API_BASE,
  type CallDef,
  calls,
  Code,
  decodeAccelerationSeries,
  DeviceType,
  LanguageId,
  message,
  packSamples,
  signedHeaders,
  SpeciesType,
} from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { BurstRepository } from './burst-repository.js';
import { BASE, DAY, HOUR, local, ZONE } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';

const scale = [0.002, 0.003, 0.004];
const offset = [2048, 2048, 2048];

/** X a ramp, Y a square wave, Z constant. */
function burstRaw(n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(2048 + 10 * i, i % 2 === 0 ? 2148 : 1948, 2048 + 370);
  return out;
}

describe.each(DIALECTS)('acceleration downloads, binary and archives on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  /** 2026-11-20 10:00 UTC, the server's clock held there: "today" and its archive days are the same on any date. */
  const now = Date.UTC(2026, 10, 20, 10, 0, 0);
  useFixedClock(now);
  const today = Math.floor(now / DAY) * DAY;
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
  const envelope = async (def: CallDef, body: unknown, token = alice, lang: 'en' | 'zh' = 'en') => JSON.parse((await post(def, body, token, lang)).body) as { Code: number; Msg: string; Data: unknown };

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Stork Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Heron Lab' }));
    const aliceOrg = await t.services.devices.orgIdByName('Stork Lab');
    const bobOrg = await t.services.devices.orgIdByName('Heron Lab');
    const aliceId = Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', aliceOrg).executeTakeFirstOrThrow()).id);
    const bobId = Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', bobOrg).executeTakeFirstOrThrow()).id);
    const reg = async (orgId: number, imei: string, sensors: ('GNSS' | 'Acceleration' | 'Temperature')[]) =>
      (await t.services.devices.register({ orgId, imei, type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors, caption: imei })).id;
    const stork = await reg(aliceOrg, 'ACC-STORK', ['GNSS', 'Acceleration']);
    await reg(aliceOrg, 'ACC-NONE', ['GNSS', 'Temperature']);
    const shared = await reg(bobOrg, 'ACC-SHARED', ['GNSS', 'Acceleration']);
    const expired = await reg(bobOrg, 'ACC-EXPIRED', ['GNSS', 'Acceleration']);

    await t.services.ingest.writeBatch(
      stork,
      {
        bursts: [
          { t: BASE + 2 * HOUR + 250, hz: 20, axes: 'XYZ', samples: packSamples(burstRaw(40)), scale, offset },
          { t: BASE + 3 * HOUR, hz: 10, axes: 'XYZ', samples: packSamples(burstRaw(8)), scale, offset },
          // Yesterday and the day before (UTC): the archive job's days.
          { t: today - DAY + HOUR, hz: 20, axes: 'XYZ', samples: packSamples(burstRaw(20)), scale, offset },
          { t: today - DAY + 2 * HOUR, hz: 20, axes: 'XYZ', samples: packSamples(burstRaw(20)), scale, offset },
          { t: today - 2 * DAY + HOUR, hz: 20, axes: 'XYZ', samples: packSamples(burstRaw(10)), scale, offset },
        ],
      },
      null,
      now,
    );
    // The shared device: a burst the day before yesterday (before the window opened) and one yesterday.
    await t.services.ingest.writeBatch(
      shared,
      { bursts: [today - 2 * DAY + HOUR, today - DAY + HOUR].map((time) => ({ t: time, hz: 1, axes: 'X' as const, samples: packSamples([2048, 2050]) })) },
      null,
      now,
    );
    await t.services.ingest.writeBatch(expired, { bursts: [{ t: today - DAY + HOUR, hz: 1, axes: 'X' as const, samples: packSamples([2048, 2050]) }] }, null, now);
    await t.database.db
      .insertInto('device_shares')
      .values([
        { device_id: shared, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 0, remote_instr: 0, download_data: 0, effective_time: today - DAY, failure_time: now + HOUR, created_at: now },
        { device_id: expired, owner_user_id: bobId, recipient_user_id: aliceId, edit_device: 1, remote_instr: 1, download_data: 1, effective_time: now - 3 * DAY, failure_time: now - HOUR, created_at: now },
      ])
      .execute();
  });
  afterAll(async () => t.close());

  it('downloads the range as CSV: a row per sample, raw, calibrated and ODBA as the JSON page has them', async () => {
    const res = await post(calls.DownLoadAccelerationDataV2, { imei: 'ACC-STORK', ...range });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('acceleration(ACC-STORK).csv');
    const lines = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    // the time columns name the zone asked (issue 28 item 3)
    expect(lines[0]).toBe(ACCELERATION_CSV_COLUMNS.map((c) => (c === 'BurstTime' || c === 'Time' ? `${c} (UTC${range.timeZone})` : c)).join(','));
    expect(lines).toHaveLength(1 + 40 + 8);
    const page = (await envelope(calls.GetAccelerationListV2, { imei: 'ACC-STORK', ...range, sortOrder: 'ascend' })).Data as {
      List: { Time: string; Samples: { Time: string; OriginX: number; OriginY: number; OriginZ: number; X: number; Y: number; Z: number; ODBA: number }[] }[];
    };
    const s = page.List[0]!.Samples[3]!;
    // the file keeps the burst's milliseconds (its start is 250 ms past the second), the page its seconds
    expect(lines[4]).toBe(['ACC-STORK', `${page.List[0]!.Time}.250`, s.Time, 20, 'XYZ', s.OriginX, s.OriginY, s.OriginZ, s.X, s.Y, s.Z, s.ODBA].join(','));
    expect(s.Time).toBe(`${local(BASE + 2 * HOUR)}.400`);
  });

  it('answers the range with every sample as base64 binary that decodes to the JSON page', async () => {
    const r = await envelope(calls.GetAccelerationBinaryV2, { imei: 'ACC-STORK', ...range });
    expect(r.Code, r.Msg).toBe(Code.Success);
    const d = calls.GetAccelerationBinaryV2.data.parse(r.Data);
    expect(d).toMatchObject({ Count: 2, SampleCount: 48 });
    const series = decodeAccelerationSeries(Buffer.from(d.Data, 'base64'));
    expect(series.burstCount).toBe(2);
    expect(Array.from(series.count)).toEqual([40, 8]);
    expect(series.start[0]).toBe(BASE + 2 * HOUR + 250);
    expect(series.time[3]).toBe(BASE + 2 * HOUR + 250 + 150);
    // X = (2048 + 30 − 2048) × 0.002, Z constant 370 × 0.004
    expect(series.x[3]).toBeCloseTo(0.06, 5);
    expect(series.z[3]).toBeCloseTo(1.48, 5);
    const page = (await envelope(calls.GetAccelerationListV2, { imei: 'ACC-STORK', ...range, sortOrder: 'ascend' })).Data as { List: { Samples: { ODBA: number }[] }[] };
    expect(series.odba[3]).toBeCloseTo(page.List[0]!.Samples[3]!.ODBA, 2);
    expect(series.odba[40]).toBeCloseTo(page.List[1]!.Samples[0]!.ODBA, 2);
  });

  it('answers a range asked again from its kept hours, with a burst that arrived since in a kept hour, and a range that cuts an hour with that part only', async () => {
    const stork = Number((await t.database.db.selectFrom('devices').select('id').where('imei', '=', 'ACC-STORK').executeTakeFirstOrThrow()).id);
    const hour = BASE + 5 * DAY + HOUR;
    const burst = (at: number) => ({ t: at, hz: 20, axes: 'XYZ' as const, samples: packSamples(burstRaw(10)), scale, offset });
    await t.services.ingest.writeBatch(stork, { bursts: [burst(hour), burst(hour + 10 * 60_000)] }, null, now);
    const day = { imei: 'ACC-STORK', startTime: local(BASE + 5 * DAY), endTime: local(BASE + 6 * DAY), timeZone: ZONE };
    const ask = async (body: typeof day) => {
      const d = calls.GetAccelerationBinaryV2.data.parse((await envelope(calls.GetAccelerationBinaryV2, body)).Data);
      const s = decodeAccelerationSeries(Buffer.from(d.Data, 'base64'));
      expect(s.burstCount).toBe(d.Count);
      return { count: d.Count, samples: d.SampleCount, starts: Array.from(s.start) };
    };
    const walks = vi.spyOn(BurstRepository.prototype, 'walk');
    try {
      expect(await ask(day)).toEqual({ count: 2, samples: 20, starts: [hour, hour + 10 * 60_000] });
      expect(walks).toHaveBeenCalledTimes(1);
      // Asked again: the kept hour, no burst read.
      expect(await ask(day)).toEqual({ count: 2, samples: 20, starts: [hour, hour + 10 * 60_000] });
      expect(walks).toHaveBeenCalledTimes(1);
      // A burst arrives late in that hour (or through another server process): the hour is read again.
      await t.services.ingest.writeBatch(stork, { bursts: [burst(hour + 5 * 60_000)] }, null, now);
      expect((await ask(day)).starts).toEqual([hour, hour + 5 * 60_000, hour + 10 * 60_000]);
      expect(walks).toHaveBeenCalledTimes(2);
      // A range from the middle of the kept hour: only its part.
      expect((await ask({ ...day, startTime: local(hour + 4 * 60_000) })).starts).toEqual([hour + 5 * 60_000, hour + 10 * 60_000]);
    } finally {
      walks.mockRestore();
    }
  });

  it('refuses a device without acceleration, a long binary range and bad input with 601 naming the field', async () => {
    const none = await envelope(calls.DownLoadAccelerationDataV2, { imei: 'ACC-NONE', ...range }, alice, 'zh');
    expect(none.Code).toBe(Code.Invalid);
    expect(none.Data).toMatchObject({ Field: 'imei' });
    const long = await envelope(calls.GetAccelerationBinaryV2, { imei: 'ACC-STORK', startTime: local(BASE), endTime: local(BASE + 100 * DAY), timeZone: ZONE });
    expect(long.Code).toBe(Code.Invalid);
    expect(long.Msg).toBe(message('en', 'validation.timeSpan', { days: 62 }));
    const reversed = await envelope(calls.DownLoadAccelerationDataV2, { imei: 'ACC-STORK', startTime: range.endTime, endTime: range.startTime });
    expect(reversed.Code).toBe(Code.Invalid);
    expect(reversed.Data).toMatchObject({ Field: 'endTime' });
    const date = await envelope(calls.DownloadAccelerationArchive, { imei: 'ACC-STORK', archiveDate: '2026/11/01' });
    expect(date.Code).toBe(Code.Invalid);
    expect(date.Msg).toBe('The archive date must look like YYYY-MM-DD.');
  });

  it('refuses a stranger and an expired share; a share sees only its window', async () => {
    for (const def of [calls.DownLoadAccelerationDataV2, calls.GetAccelerationBinaryV2]) {
      const stranger = await envelope(def, { imei: 'ACC-STORK', ...range }, bob);
      expect(stranger).toMatchObject({ Code: Code.NotFound, Msg: message('en', 'device.notFound') });
      const lapsed = await envelope(def, { imei: 'ACC-EXPIRED', startTime: local(today - 3 * DAY), endTime: local(now), timeZone: ZONE });
      expect(lapsed).toMatchObject({ Code: Code.NotFound, Msg: message('en', 'device.notFound') });
    }
    const window = { imei: 'ACC-SHARED', startTime: local(today - 3 * DAY), endTime: local(now), timeZone: ZONE };
    const csv = await post(calls.DownLoadAccelerationDataV2, window);
    expect(csv.body.trimEnd().split('\r\n')).toHaveLength(1 + 2);
    const bin = calls.GetAccelerationBinaryV2.data.parse((await envelope(calls.GetAccelerationBinaryV2, window)).Data);
    expect(bin).toMatchObject({ Count: 1, SampleCount: 2 });
  });

  it('reads a burst stored in the first encoding (int16 counts, stored ODBA) as the packed one', async () => {
    const stork = Number((await t.database.db.selectFrom('devices').select('id').where('imei', '=', 'ACC-STORK').executeTakeFirstOrThrow()).id);
    const packedAt = BASE + 2 * DAY;
    const oldAt = BASE + 2 * DAY + HOUR;
    await t.services.ingest.writeBatch(stork, { bursts: [{ t: packedAt, hz: 20, axes: 'XYZ', samples: packSamples(burstRaw(30)), scale, offset }] }, null, now);
    const day = { imei: 'ACC-STORK', startTime: local(BASE + 2 * DAY), endTime: local(BASE + 3 * DAY), timeZone: ZONE };
    type Page = { List: { Id: string; MeanODBA: number; Samples: { OriginX: number; X: number; Y: number; Z: number; ODBA: number }[] }[] };
    const packed = ((await envelope(calls.GetAccelerationListV2, day)).Data as Page).List[0]!;
    // The same counts as the first encoding wrote them: int16 little-endian, ODBA as uint16 milli-g.
    const raw = Buffer.alloc(30 * 3 * 2);
    burstRaw(30).forEach((v, i) => raw.writeInt16LE(v, i * 2));
    const odba = Buffer.alloc(30 * 2);
    packed.Samples.forEach((p, i) => odba.writeUInt16LE(Math.round(p.ODBA * 1000), i * 2));
    await t.database.db
      .insertInto('acc_bursts')
      .values({ device_id: stork, start_time: oldAt, hz: 20, axes: 'XYZ', sample_count: 30, samples: raw, odba, mean_odba: packed.MeanODBA, calibration: JSON.stringify({ scale, offset }), received_at: now, extra: null, encoding: 0 })
      .execute();
    const both = ((await envelope(calls.GetAccelerationListV2, { ...day, sortOrder: 'ascend' })).Data as Page).List;
    expect(both.map((b) => b.Id)).toEqual([String(packedAt), String(oldAt)]);
    const strip = (b: Page['List'][number]) => b.Samples.map(({ OriginX, X, Y, Z, ODBA }) => ({ OriginX, X, Y, Z, ODBA }));
    expect(strip(both[1]!)).toEqual(strip(both[0]!));
    const bin = decodeAccelerationSeries(Buffer.from(calls.GetAccelerationBinaryV2.data.parse((await envelope(calls.GetAccelerationBinaryV2, day)).Data).Data, 'base64'));
    expect(Array.from(bin.x.slice(30, 60))).toEqual(Array.from(bin.x.slice(0, 30)));
    expect(Array.from(bin.odba.slice(30, 60))).toEqual(Array.from(bin.odba.slice(0, 30)));
    const csv = (await post(calls.DownLoadAccelerationDataV2, day)).body.trimEnd().split('\r\n');
    expect(csv.slice(31).map((l) => l.split(',').slice(5).join())).toEqual(csv.slice(1, 31).map((l) => l.split(',').slice(5).join()));
  });

  it('the job archives each closed day once, with its record count and size; readers list and download them', async () => {
    expect(await t.services.archives.tick(now)).toBe(2 + 2 + 1);
    // A second pass (or a second server) writes nothing again.
    expect(await t.services.archives.tick(now)).toBe(0);
    const count = await envelope(calls.GetAccelerationArchiveCount, { imei: 'ACC-STORK' });
    expect(count.Data).toEqual({ Count: 2 });
    const list = calls.GetAccelerationArchiveList.data.parse((await envelope(calls.GetAccelerationArchiveList, { imei: 'ACC-STORK', timeZone: ZONE })).Data);
    const yesterday = new Date(today - DAY).toISOString().slice(0, 10);
    expect(list.Total).toBe(2);
    expect(list.List.map((r) => [r.ArchiveDate, r.RecordCount])).toEqual([
      [yesterday, 40],
      [new Date(today - 2 * DAY).toISOString().slice(0, 10), 10],
    ]);
    const file = await post(calls.DownloadAccelerationArchive, { imei: 'ACC-STORK', archiveDate: yesterday });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toContain(`acceleration(ACC-STORK)-${yesterday}.csv`);
    expect(file.rawPayload.byteLength).toBe(list.List[0]!.FileSize);
    expect(file.body.trimEnd().split('\r\n')).toHaveLength(41);
    // Times in UTC, the archive's day.
    expect(file.body.split('\r\n')[1]).toContain(`${yesterday} 01:00:00`);

    // The share sees only the day its window touches; the stranger and the lapsed share nothing.
    const sharedList = calls.GetAccelerationArchiveList.data.parse((await envelope(calls.GetAccelerationArchiveList, { imei: 'ACC-SHARED' })).Data);
    expect(sharedList.List.map((r) => r.ArchiveDate)).toEqual([yesterday]);
    const before = await envelope(calls.DownloadAccelerationArchive, { imei: 'ACC-SHARED', archiveDate: new Date(today - 2 * DAY).toISOString().slice(0, 10) });
    expect(before).toMatchObject({ Code: Code.NotFound, Msg: message('en', 'archive.notFound') });
    for (const def of [calls.GetAccelerationArchiveList, calls.GetAccelerationArchiveCount]) {
      expect(await envelope(def, { imei: 'ACC-STORK' }, bob)).toMatchObject({ Code: Code.NotFound, Msg: message('en', 'device.notFound') });
      expect(await envelope(def, { imei: 'ACC-EXPIRED' })).toMatchObject({ Code: Code.NotFound, Msg: message('en', 'device.notFound') });
    }
    expect(await envelope(calls.DownloadAccelerationArchive, { imei: 'ACC-STORK', archiveDate: yesterday }, bob)).toMatchObject({ Code: Code.NotFound, Msg: message('en', 'device.notFound') });

    // Four days on, every archive has left the window: its rows and files are gone.
    await t.services.archives.tick(now + 4 * DAY);
    expect(await t.database.db.selectFrom('acc_archives').select('day').execute()).toEqual([]);
    expect(fs.readdirSync(path.join(t.dataDir, 'archives', 'acc')).flatMap((d) => fs.readdirSync(path.join(t.dataDir, 'archives', 'acc', d)))).toEqual([]);
  });
});

describe.each(DIALECTS)("a share's window that cuts an archive day, on %s", (dialect) => {
  let t: TestApp;
  let alice: string;
  /** 2026-11-20 10:00 UTC: yesterday (UTC) is an archive day; the share opens at its noon. */
  const NOW = Date.UTC(2026, 10, 20, 10, 0, 0);
  const YESTERDAY = Date.UTC(2026, 10, 19);
  const OPENS = YESTERDAY + 12 * HOUR;
  const date = '2026-11-19';
  useFixedClock(NOW);
  const envelope = async (def: CallDef, body: unknown) =>
    (await t.call(def.path, body, { token: alice })).body;

  beforeAll(async () => {
    t = await createTestApp(dialect, { DOWNLOAD_TASKS: 'off' });
    ({ token: alice } = await t.userWithToken({ org: 'Stork Lab' }));
    await t.userWithToken({ org: 'Heron Lab' });
    const aliceOrg = await t.services.devices.orgIdByName('Stork Lab');
    const bobOrg = await t.services.devices.orgIdByName('Heron Lab');
    const userOf = async (org: number) => Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', org).executeTakeFirstOrThrow()).id);
    const { id } = await t.services.devices.register({ orgId: bobOrg, imei: 'ACC-MIDDAY', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, sensors: ['GNSS', 'Acceleration'], caption: 'ACC-MIDDAY' });
    // the morning's burst, one 30 s before the window opens, one inside it
    const bursts = [YESTERDAY + 8 * HOUR, OPENS - 30_000, OPENS + HOUR].map((time, i) => ({ t: time, hz: 1, axes: 'X' as const, samples: packSamples(Array.from({ length: 3 + i }, (_, k) => 2048 + k)) }));
    await t.services.ingest.writeBatch(id, { bursts }, null, NOW);
    await t.database.db
      .insertInto('device_shares')
      .values({ device_id: id, owner_user_id: await userOf(bobOrg), recipient_user_id: await userOf(aliceOrg), edit_device: 0, remote_instr: 0, download_data: 1, effective_time: OPENS, failure_time: NOW + 30 * DAY, created_at: NOW })
      .execute();
    expect(await t.services.archives.tick(NOW)).toBe(1);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  it('lists and downloads only the bursts inside the window', async () => {
    const list = calls.GetAccelerationArchiveList.data.parse((await envelope(calls.GetAccelerationArchiveList, { imei: 'ACC-MIDDAY', timeZone: ZONE })).Data);
    // the day's file holds 3 + 4 + 5 samples; the window, the last burst's 5
    expect(list.List.map((r) => [r.ArchiveDate, r.RecordCount])).toEqual([[date, 5]]);
    const res = await t.app.inject({
      method: 'POST',
      url: API_BASE + calls.DownloadAccelerationArchive.path,
      headers: { ...signedHeaders({ token: alice, path: calls.DownloadAccelerationArchive.path, body: JSON.stringify({ imei: 'ACC-MIDDAY', archiveDate: date }), lcid: LanguageId.en, now: clockNow() }), 'content-type': 'application/json' },
      payload: JSON.stringify({ imei: 'ACC-MIDDAY', archiveDate: date }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`acceleration(ACC-MIDDAY)-${date}.csv`);
    const lines = res.body.replace(/^\uFEFF/, '').trimEnd().split('\r\n');
    // an archive is written in UTC, and says so
    expect(lines[0]).toBe(ACCELERATION_CSV_COLUMNS.map((c) => (c === 'BurstTime' || c === 'Time' ? `${c} (UTC+00:00)` : c)).join(','));
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(Array(5).fill(`${date} 13:00:00`));
    expect(res.body).not.toContain('11:59:30');
    expect(res.body).not.toContain('08:00:00');
  });
});
