import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, DeviceType, formatTime, MEDIA_FILES_URL, SpeciesType, THUMB_SIZE, TOKEN_COOKIE } from '@wildtrack/contract';
import { createTestApp, DIALECTS, imageCookie, type TestApp } from '../../test/helper.js';
import { byteRange } from './routes.js';

const ZONE = '+08:00';
/** 2026-11-01 08:00 in +08:00: media are taken at fixed instants, not "now". */
const BASE = Date.UTC(2026, 10, 1, 0, 0, 0);
const INGEST_NOW = BASE + 10 * 86_400_000;
const HOUR = 3_600_000;
const local = (ms: number) => formatTime(ms, ZONE);
const range = { startTime: local(BASE), endTime: local(BASE + 24 * HOUR), timeZone: ZONE };

describe.each(DIALECTS)('media fixes and files on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let carol: string;
  let dave: string;
  let deviceId: number;
  let photo: Buffer;

  const get = (url: string, token?: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url, headers: { ...(token ? { cookie: `${TOKEN_COOKIE}=${encodeURIComponent(imageCookie(token))}` } : {}), ...headers } });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Crane Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Stranger Lab' }));
    ({ token: carol } = await t.userWithToken({ org: 'Share Lab' }));
    ({ token: dave } = await t.userWithToken({ org: 'Lapsed Lab' }));
    const org = await t.services.devices.orgIdByName('Crane Lab');
    ({ id: deviceId } = await t.services.devices.register({ orgId: org, imei: 'CRANE-CAM-1', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, caption: 'crane', sensors: ['GNSS', 'Image', 'Video', 'Audio'] }));
    await t.services.devices.register({ orgId: org, imei: 'CRANE-GPS-2', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, caption: 'gps only', sensors: ['GNSS'] });
    // A 640x480 photo: its thumbnail is made smaller; a small one would be kept at its size.
    photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a7' } }).jpeg().toBuffer();
    for (let i = 0; i < 3; i++) {
      await t.services.ingest.storeMedia(deviceId, { kind: 'image', t: BASE + (i + 1) * HOUR, lon: 116 + i / 10, lat: 40, alt: 50 + i, width: 640, height: 480 }, photo, 'image/jpeg', null, INGEST_NOW);
    }
    await t.services.ingest.storeMedia(deviceId, { kind: 'video', t: BASE + 2 * HOUR, lon: 116, lat: 40, duration: 3, width: 160, height: 120 }, Buffer.alloc(5000, 7), 'video/mp4', null, INGEST_NOW);
    await t.services.ingest.storeMedia(deviceId, { kind: 'audio', t: BASE + 3 * HOUR, rate: 512_000, bitDepth: 1, track: 1, duration: 0.01 }, Buffer.alloc(640, 0x55), 'audio/x-pdm', null, INGEST_NOW);
    // A device declaring a page as its "image": stored, never served as a page.
    await t.services.ingest.storeMedia(deviceId, { kind: 'image', t: BASE + 20 * HOUR }, Buffer.from('<script>alert(1)</script>'), 'text/html', null, INGEST_NOW);
    // Carol's share began after the first photo (and runs on); Dave's has ended.
    const userOf = async (orgName: string) =>
      Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', await t.services.devices.orgIdByName(orgName)).executeTakeFirstOrThrow()).id);
    const owner = await userOf('Crane Lab');
    const share = (recipient: number, from: number, to: number) =>
      t.database.db
        .insertInto('device_shares')
        .values({ device_id: deviceId, owner_user_id: owner, recipient_user_id: recipient, edit_device: 0, remote_instr: 0, download_data: 0, effective_time: from, failure_time: to, created_at: BASE })
        .execute();
    await share(await userOf('Share Lab'), BASE + 90 * 60_000, BASE + 365 * 24 * HOUR);
    await share(await userOf('Lapsed Lab'), BASE - 48 * HOUR, BASE - 24 * HOUR);
  }, 60_000);
  afterAll(async () => t.close());

  it('counts and pages each kind with its media fix, in the caller zone, sorted', async () => {
    const count = await t.call(calls.GetImageCount.path, { imei: 'CRANE-CAM-1', ...range }, { token: alice });
    expect(count.body).toMatchObject({ Code: Code.Success, Data: { Count: 4 } });
    const page = await t.call(calls.GetImageList.path, { imei: 'CRANE-CAM-1', ...range, currentPage: 1, pageSize: 10, sortOrder: 'ascend' }, { token: alice });
    expect(page.body.Code, page.body.Msg).toBe(Code.Success);
    const data = calls.GetImageList.data.parse(page.body.Data);
    expect(data.Total).toBe(4);
    expect(data.List[0]).toEqual({
      IMEI: 'CRANE-CAM-1',
      PickTime: '2026-11-01 09:00:00',
      Longitude: 116,
      Latitude: 40,
      Altitude: 50,
      Url: `${MEDIA_FILES_URL}/CRANE-CAM-1/image-${BASE + HOUR}.jpg`,
      Size: photo.length,
      Mime: 'image/jpeg',
      Width: 640,
      Height: 480,
      ThumbUrl: `${MEDIA_FILES_URL}/CRANE-CAM-1/thumb-${BASE + HOUR}.jpg`,
    });
    const second = await t.call(calls.GetImageList.path, { imei: 'CRANE-CAM-1', ...range, currentPage: 2, pageSize: 10 }, { token: alice });
    expect(second.body.Data).toEqual({ List: [], Total: 4 });
    const bySize = calls.GetImageList.data.parse((await t.call(calls.GetImageList.path, { imei: 'CRANE-CAM-1', ...range, sortField: 'Size', sortOrder: 'ascend' }, { token: alice })).body.Data);
    expect(bySize.List.map((f) => f.Size)).toEqual([25, photo.length, photo.length, photo.length]);

    const video = calls.GetVideoList.data.parse((await t.call(calls.GetVideoList.path, { imei: 'CRANE-CAM-1', ...range }, { token: alice })).body.Data);
    expect(video.List).toEqual([expect.objectContaining({ PickTime: '2026-11-01 10:00:00', Duration: 3, Width: 160, Height: 120, Url: `${MEDIA_FILES_URL}/CRANE-CAM-1/video-${BASE + 2 * HOUR}.mp4` })]);
    const audio = calls.GetAudioList.data.parse((await t.call(calls.GetAudioList.path, { imei: 'CRANE-CAM-1', ...range }, { token: alice })).body.Data);
    expect(audio.List).toEqual([expect.objectContaining({ PickTime: '2026-11-01 11:00:00', Rate: 512_000, BitDepth: 1, Track: 1, Pdm: true, OssFile: '' })]);
    // Once converted, the recording's WAV is where OssFile points.
    expect((await t.call(calls.ConvertPDMToWAV.path, { imei: 'CRANE-CAM-1', pickTime: '2026-11-01 11:00:00', timeZone: ZONE }, { token: alice })).body.Code).toBe(Code.Success);
    const again = calls.GetAudioList.data.parse((await t.call(calls.GetAudioList.path, { imei: 'CRANE-CAM-1', ...range }, { token: alice })).body.Data);
    expect(again.List[0]!.OssFile).toBe(`${MEDIA_FILES_URL}/CRANE-CAM-1/audio-${BASE + 3 * HOUR}.wav`);
  });

  it('answers several devices at once with Get<Kind>All, and refuses a device without the sensor naming it', async () => {
    const all = await t.call(calls.GetImageAll.path, { imeis: ['CRANE-CAM-1'], ...range }, { token: alice });
    const data = calls.GetImageAll.data.parse(all.body.Data);
    expect(data.Total).toBe(4);
    expect(data.List.map((f) => f.PickTime)).toEqual(['2026-11-02 04:00:00', '2026-11-01 11:00:00', '2026-11-01 10:00:00', '2026-11-01 09:00:00']);
    const without = await t.call(calls.GetVideoAll.path, { imeis: ['CRANE-CAM-1', 'CRANE-GPS-2'], ...range }, { token: alice, lang: 'zh' });
    expect(without.body).toEqual({ Code: Code.Invalid, Msg: '该设备没有视频传感器。', Data: { Field: 'imeis[1]' } });
    const one = await t.call(calls.GetAudioCount.path, { imei: 'CRANE-GPS-2', ...range }, { token: alice });
    expect(one.body).toEqual({ Code: Code.Invalid, Msg: 'This device has no audio sensor.', Data: { Field: 'imei' } });
    const reversed = await t.call(calls.GetImageList.path, { imei: 'CRANE-CAM-1', startTime: range.endTime, endTime: range.startTime, timeZone: ZONE }, { token: alice });
    expect(reversed.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'endTime' } });
    const badSize = await t.call(calls.GetImageList.path, { imei: 'CRANE-CAM-1', ...range, pageSize: 7 }, { token: alice });
    expect(badSize.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'pageSize' } });
  });

  it("bounds a share's recipient by its window, and gives a stranger nothing", async () => {
    const shared = calls.GetImageList.data.parse((await t.call(calls.GetImageList.path, { imei: 'CRANE-CAM-1', ...range }, { token: carol })).body.Data);
    expect(shared.List.map((f) => f.PickTime)).toEqual(['2026-11-02 04:00:00', '2026-11-01 11:00:00', '2026-11-01 10:00:00']);
    expect((await get(shared.List[1]!.Url, carol)).statusCode).toBe(200);
    expect((await get(`${MEDIA_FILES_URL}/CRANE-CAM-1/image-${BASE + HOUR}.jpg`, carol)).statusCode).toBe(404);
    expect((await get(`${MEDIA_FILES_URL}/CRANE-CAM-1/thumb-${BASE + HOUR}.jpg`, carol)).statusCode).toBe(404);
    const lapsed = await t.call(calls.GetImageList.path, { imei: 'CRANE-CAM-1', ...range }, { token: dave });
    expect(lapsed.body).toMatchObject({ Code: Code.NotFound });
    expect((await get(shared.List[1]!.Url, dave)).statusCode).toBe(404);
    expect((await t.call(calls.GetImageCount.path, { imei: 'CRANE-CAM-1', ...range }, { token: bob })).body).toMatchObject({ Code: Code.NotFound, Msg: 'No such device' });
    expect((await get(shared.List[1]!.Url, bob)).statusCode).toBe(404);
    const anonymous = await get(shared.List[1]!.Url);
    expect(anonymous.json()).toMatchObject({ Code: Code.SessionExpired });
  });

  it('serves files by the names the server gives, with its own types, in ranges', async () => {
    const image = await get(`${MEDIA_FILES_URL}/CRANE-CAM-1/image-${BASE + HOUR}.jpg`, alice);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
    expect(image.rawPayload.equals(photo)).toBe(true);
    const page = await get(`${MEDIA_FILES_URL}/CRANE-CAM-1/image-${BASE + 20 * HOUR}.bin`, alice);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('application/octet-stream');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    const part = await get(`${MEDIA_FILES_URL}/CRANE-CAM-1/video-${BASE + 2 * HOUR}.mp4`, alice, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/5000');
    expect(part.rawPayload.length).toBe(100);
    expect((await get(`${MEDIA_FILES_URL}/CRANE-CAM-1/video-${BASE + 2 * HOUR}.mp4`, alice, { range: 'bytes=6000-' })).statusCode).toBe(416);
    for (const name of [`image-${BASE + HOUR}.png`, `video-${BASE + HOUR}.mp4`, '..%2F..%2Ftest.db', `image-${BASE + HOUR}.jpg%00.txt`, 'thumb-1.jpg', `thumb-${BASE + HOUR}.png`]) {
      expect((await get(`${MEDIA_FILES_URL}/CRANE-CAM-1/${name}`, alice)).statusCode, name).toBe(404);
    }
    expect(byteRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(byteRange('bytes=0-0,5-6', 100)).toBeUndefined();
  });

  it('makes a thumbnail once with sharp, keeps it on disk and serves it again', async () => {
    const url = `${MEDIA_FILES_URL}/CRANE-CAM-1/thumb-${BASE + 2 * HOUR}.jpg`;
    const first = await get(url, alice);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(first.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', THUMB_SIZE, 240]);
    const kept = path.join(t.dataDir, 'thumbs', String(deviceId), `image-${BASE + 2 * HOUR}-${THUMB_SIZE}.jpg`);
    const before = fs.statSync(kept);
    const second = await get(url, alice);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(fs.statSync(kept).mtimeMs).toBe(before.mtimeMs);
    // Not an image at all: no thumbnail, no 500.
    expect((await get(`${MEDIA_FILES_URL}/CRANE-CAM-1/thumb-${BASE + 20 * HOUR}.jpg`, alice)).statusCode).toBe(404);
  });
});
