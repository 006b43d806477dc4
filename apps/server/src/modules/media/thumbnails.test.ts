import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceType, MEDIA_FILES_URL, SpeciesType, THUMB_SIZE, TOKEN_COOKIE } from '@wildtrack/contract';
import { mediaThumbnails } from '../../jobs/thumbnails.js';
import { createTestApp, DIALECTS, imageCookie, type TestApp } from '../../test/helper.js';
import { MediaRepository, ThumbStatus } from './repository.js';

/** 2026-11-01 08:00 in +08:00: media are taken at fixed instants, not "now". */
const BASE = Date.UTC(2026, 10, 1, 0, 0, 0);
const INGEST_NOW = BASE + 10 * 86_400_000;
const HOUR = 3_600_000;
const MINUTE = 60_000;

describe.each(DIALECTS)('thumbnails made ahead by the job on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let deviceId: number;
  let photo: Buffer;
  let repo: MediaRepository;

  const thumbFile = (at: number) => path.join(t.dataDir, 'thumbs', String(deviceId), `image-${at}-${THUMB_SIZE}.jpg`);
  const statuses = async () =>
    (await t.database.db.selectFrom('media_thumbs').select(['pick_time', 'status']).where('device_id', '=', deviceId).orderBy('pick_time').execute()).map((r) => [
      Number(r.pick_time),
      Number(r.status),
    ]);
  const store = (at: number, bytes: Buffer, mime: string, receivedAt = INGEST_NOW) =>
    t.services.ingest.storeMedia(deviceId, { kind: 'image', t: at, lon: 116, lat: 40, width: 640, height: 480 }, bytes, mime, null, receivedAt);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Crane Lab' }));
    const org = await t.services.devices.orgIdByName('Crane Lab');
    ({ id: deviceId } = await t.services.devices.register({ orgId: org, imei: 'CRANE-CAM-7', type: DeviceType.Tracker, speciesType: SpeciesType.Bird, caption: 'crane', sensors: ['GNSS', 'Image', 'Video'] }));
    photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3a7' } }).jpeg().toBuffer();
    repo = new MediaRepository(t.database.db);
  }, 60_000);
  afterAll(async () => t.close());

  it('makes the thumbnail of every photo that arrived without one, once, and the file route then serves it from disk', async () => {
    for (let i = 1; i <= 3; i++) await store(BASE + i * HOUR, photo, 'image/jpeg');
    // a device's "image" that is no image: tried once, marked, never again
    await store(BASE + 20 * HOUR, Buffer.from('<script>alert(1)</script>'), 'text/html');
    // a video is no job of this one
    await t.services.ingest.storeMedia(deviceId, { kind: 'video', t: BASE + 2 * HOUR, duration: 3 }, Buffer.alloc(500, 7), 'video/mp4', null, INGEST_NOW);

    // a pass makes at most its batch; the job's run goes on until none is left (the app's own job may
    // run beside the test: the claims keep each thumbnail made once, so only the end state is asserted)
    expect((await t.services.media.makeThumbnails(2)).made).toBeLessThanOrEqual(2);
    await mediaThumbnails(t.services.media).run();
    expect(await statuses()).toEqual([
      [BASE + HOUR, ThumbStatus.Made],
      [BASE + 2 * HOUR, ThumbStatus.Made],
      [BASE + 3 * HOUR, ThumbStatus.Made],
      [BASE + 20 * HOUR, ThumbStatus.NotAnImage],
    ]);
    for (let i = 1; i <= 3; i++) {
      const meta = await sharp(thumbFile(BASE + i * HOUR)).metadata();
      expect([meta.format, Math.max(meta.width, meta.height)]).toEqual(['jpeg', THUMB_SIZE]);
    }
    expect(fs.existsSync(thumbFile(BASE + 20 * HOUR))).toBe(false);

    // nothing left: a pass makes nothing and no file is made again
    const made = fs.statSync(thumbFile(BASE + HOUR)).mtimeMs;
    expect(await t.services.media.makeThumbnails()).toEqual({ made: 0, more: false });
    // the grid's request: the job's file, as it is
    const res = await t.app.inject({
      method: 'GET',
      url: `${MEDIA_FILES_URL}/CRANE-CAM-7/thumb-${BASE + HOUR}.jpg`,
      headers: { cookie: `${TOKEN_COOKIE}=${encodeURIComponent(imageCookie(alice))}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/jpeg');
    expect(res.rawPayload.equals(fs.readFileSync(thumbFile(BASE + HOUR)))).toBe(true);
    expect(fs.statSync(thumbFile(BASE + HOUR)).mtimeMs).toBe(made);

    // a photo arriving later is found by the next pass (which looks only at what arrived lately)
    await store(BASE + 4 * HOUR, photo, 'image/jpeg', INGEST_NOW + MINUTE);
    expect((await t.services.media.makeThumbnails()).more).toBe(false);
    expect(fs.existsSync(thumbFile(BASE + 4 * HOUR))).toBe(true);
    expect((await statuses()).find(([p]) => p === BASE + 4 * HOUR)).toEqual([BASE + 4 * HOUR, ThumbStatus.Made]);
  }, 60_000);

  it("leaves a photo another server claimed to that server, and makes it once that server's claim has gone stale", async () => {
    const at = BASE + 5 * HOUR;
    const now = INGEST_NOW + 3 * MINUTE;
    // the other process claimed it just now (and is making it): claimed once only
    expect(await repo.claimThumb(deviceId, at, now)).toBe(true);
    expect(await repo.claimThumb(deviceId, at, now)).toBe(false);
    await store(at, photo, 'image/jpeg', INGEST_NOW + 2 * MINUTE);
    expect(await t.services.media.makeThumbnails(20, now + MINUTE)).toEqual({ made: 0, more: false });
    expect(fs.existsSync(thumbFile(at))).toBe(false);
    // ... and stopped: ten minutes on, its claim is given up and the photo made here
    await t.services.media.makeThumbnails(20, now + 11 * MINUTE);
    expect(fs.existsSync(thumbFile(at))).toBe(true);
    expect((await statuses()).find(([p]) => p === at)).toEqual([at, ThumbStatus.Made]);
  }, 60_000);
});
