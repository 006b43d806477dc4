import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, calls, Code, DeviceType, IMAGE_UPLOAD_PATH, LanguageId, signedHeaders, SpeciesType, TOKEN_COOKIE } from '@wildtrack/contract';
import { createTestApp, DIALECTS, imageCookie, type TestApp } from '../../test/helper.js';
import { NOW } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea73581e40000000049454e44ae426082', 'hex');

/**
 * Issue 11, M4: photo access ends. A picture is seen by its organisation, and by whoever can see a device
 * of that organisation showing it; an image field takes only the caller's organisation's pictures (or one
 * the device shows already), so a URL seen once can't be put in one's own animal info to see it again.
 */
describe.each(DIALECTS)('photo access on %s', (dialect) => {
  let t: TestApp;
  let owner: string;
  let other: string;
  let ownerOrg: number;
  let otherOrg: number;
  let shareId: number;
  // The share's window is read against the server's clock: fixed at NOW.
  useFixedClock(NOW);

  const upload = async (token: string): Promise<string> => {
    const boundary = '----wildtrack';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n`),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await t.app.inject({
      method: 'POST',
      url: API_BASE + IMAGE_UPLOAD_PATH,
      headers: { ...signedHeaders({ token, path: IMAGE_UPLOAD_PATH, body: undefined, lcid: LanguageId.en, now: clockNow() }), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    return (res.json() as { Data: { Url: string } }).Data.Url;
  };
  const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: { cookie: `${TOKEN_COOKIE}=${encodeURIComponent(imageCookie(token))}` } });
  const info = async (imei: string, token: string) => (await t.call(calls.GetBeastInfo.path, { imei }, { token })).body.Data as { WorkInfo: Record<string, unknown> };
  const save = async (imei: string, token: string, images: string[], lang: 'en' | 'zh' = 'en') =>
    t.call(calls.SaveBeastInfo.path, { ...(await info(imei, token)), WorkInfo: { ...(await info(imei, token)).WorkInfo, Images: images } }, { token, lang });

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: owner } = await t.userWithToken({ org: 'Otter Lab' }));
    ({ token: other } = await t.userWithToken({ org: 'Crane Lab' }));
    ownerOrg = await t.services.devices.orgIdByName('Otter Lab');
    otherOrg = await t.services.devices.orgIdByName('Crane Lab');
    const userOf = async (orgId: number) => Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', orgId).executeTakeFirstOrThrow()).id);
    const shared = await t.services.devices.register({ orgId: ownerOrg, imei: 'OTTER-SHARED-1', type: DeviceType.Tracker, speciesType: SpeciesType.Beast });
    await t.services.devices.register({ orgId: otherOrg, imei: 'CRANE-OWN-1', type: DeviceType.Tracker, speciesType: SpeciesType.Beast });
    const now = NOW;
    const row = await t.database.db
      .insertInto('device_shares')
      .values({
        device_id: shared.id, owner_user_id: await userOf(ownerOrg), recipient_user_id: await userOf(otherOrg),
        edit_device: 1, remote_instr: 0, download_data: 1, effective_time: now - 3600_000, failure_time: now + 3600_000, created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    shareId = Number(row.id);
  });
  afterAll(async () => t.close());

  it('refuses another organisation\'s picture in an image field, naming the field, and keeps what the device shows', async () => {
    const photo = await upload(owner);
    expect((await save('OTTER-SHARED-1', owner, [photo])).body.Code).toBe(Code.Success);
    // the recipient sees it through the shared device, and may save the info back with it (it is shown there already)
    expect((await get(photo, other)).statusCode).toBe(200);
    expect((await save('OTTER-SHARED-1', other, [photo])).body.Code).toBe(Code.Success);
    // ... but not put it in the animal info of a device of their own
    const refused = await save('CRANE-OWN-1', other, [photo]);
    expect(refused.body).toEqual({ Code: Code.Invalid, Msg: 'The photos may only hold pictures uploaded by your organisation.', Data: { Field: 'WorkInfo.Images[0]' } });
    const zh = await save('CRANE-OWN-1', other, [await upload(other), photo], 'zh');
    expect(zh.body).toMatchObject({ Code: Code.Invalid, Msg: '照片只能使用本单位上传的图片。', Data: { Field: 'WorkInfo.Images[1]' } });
    expect((await info('CRANE-OWN-1', other)).WorkInfo.Images).toEqual([]);
    // the contract refuses what is no upload address at all
    for (const url of ['https://evil.example/x.png', 'javascript:alert(1)']) {
      const r = await save('CRANE-OWN-1', other, [url]);
      expect(r.body, url).toEqual({ Code: Code.Invalid, Msg: 'The photos may only be the address of a picture uploaded here.', Data: { Field: 'WorkInfo.Images[0]' } });
    }
  });

  it('ends access when the share ends, even if the picture sits in the animal info of a device of the caller\'s own', async () => {
    const photo = await upload(owner);
    expect((await save('OTTER-SHARED-1', owner, [photo])).body.Code).toBe(Code.Success);
    expect((await get(photo, other)).statusCode).toBe(200);
    // as it could have been planted before the rule existed
    const own = await t.database.db.selectFrom('devices').select('id').where('imei', '=', 'CRANE-OWN-1').executeTakeFirstOrThrow();
    const doc = JSON.stringify({ AnimalInfo: {}, WorkInfo: { Images: [photo] }, AdditionalInfo: [], Measurements: {} });
    await t.database.db.deleteFrom('mount_info').where('device_id', '=', own.id).execute();
    await t.database.db.insertInto('mount_info').values({ device_id: own.id, info: doc, updated_at: NOW }).execute();
    await t.database.db.updateTable('device_shares').set({ failure_time: NOW - 1000 }).where('id', '=', shareId).execute();
    expect((await get(photo, other)).statusCode).toBe(404);
    expect((await get(photo, owner)).statusCode).toBe(200);
  });
});
