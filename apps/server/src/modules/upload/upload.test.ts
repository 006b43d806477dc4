import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, calls, Code, DeviceType, Header, IMAGE_UPLOAD_PATH, LanguageId, SpeciesType, signedHeaders, TOKEN_COOKIE } from '@wildtrack/contract';
import { createTestApp, DIALECTS, imageCookie, type TestApp } from '../../test/helper.js';
import { NOW } from '../../test/fixed-time.js';
import { now as clockNow, useFixedClock } from '../../test/clock.js';

describe.each(DIALECTS)('image upload on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let aliceOrg: number;
  // The share's window is read against the server's clock: fixed at NOW.
  useFixedClock(NOW);

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Crane Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Otter Lab' }));
    aliceOrg = await t.services.devices.orgIdByName('Crane Lab');
    const bobOrg = await t.services.devices.orgIdByName('Otter Lab');
    const userOf = async (orgId: number) => Number((await t.database.db.selectFrom('users').select('id').where('org_id', '=', orgId).executeTakeFirstOrThrow()).id);
    const shared = await t.services.devices.register({ orgId: bobOrg, imei: 'B-SHARED-1', type: DeviceType.Tracker, speciesType: SpeciesType.Beast });
    const now = NOW;
    await t.database.db
      .insertInto('device_shares')
      .values({
        device_id: shared.id, owner_user_id: await userOf(bobOrg), recipient_user_id: await userOf(aliceOrg),
        edit_device: 0, remote_instr: 0, download_data: 1, effective_time: now - 3600_000, failure_time: now + 3600_000, created_at: now,
      })
      .execute();
  });
  afterAll(async () => t.close());

  it('takes image uploads from a signed-in user only, as jpg or png, and shows them only to who may see them', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea73581e40000000049454e44ae426082', 'hex');
    const upload = async (name: string, bytes: Buffer, token?: string) => {
      const boundary = '----wildtrack';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\nrelease photo\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        bytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await t.app.inject({
        method: 'POST',
        url: API_BASE + IMAGE_UPLOAD_PATH,
        headers: { ...signedHeaders({ token, path: IMAGE_UPLOAD_PATH, body: undefined, lcid: LanguageId.en, now: clockNow() }), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      return res.json() as { Code: number; Msg: string; Data: { Url: string } | null };
    };
    const ok = await upload('crane.png', png, alice);
    expect(ok.Code).toBe(Code.Success);
    // An <img> sends the session cookie: the session id and its image key, never the token (docs/api.md).
    const get = (url: string, token?: string) =>
      t.app.inject({ method: 'GET', url, headers: token ? { cookie: `${TOKEN_COOKIE}=${encodeURIComponent(imageCookie(token))}` } : {} });
    const served = await get(ok.Data!.Url, alice);
    expect(served.rawPayload.equals(png)).toBe(true);
    expect((await get(ok.Data!.Url)).json().Code).toBe(Code.SessionExpired);
    expect((await get(ok.Data!.Url, bob)).statusCode).toBe(404);
    // bob's photo in the animal info of the device he shares with alice: alice may see it, not his others
    const shown = (await upload('otter.png', png, bob)).Data!.Url;
    const hidden = (await upload('private.png', png, bob)).Data!.Url;
    const info = (await t.call(calls.GetBeastInfo.path, { imei: 'B-SHARED-1' }, { token: bob })).body.Data as { WorkInfo: Record<string, unknown> };
    const saved = await t.call(calls.SaveBeastInfo.path, { ...info, WorkInfo: { ...info.WorkInfo, Images: [shown] } }, { token: bob });
    expect(saved.body.Code).toBe(Code.Success);
    expect((await get(shown, alice)).statusCode).toBe(200);
    expect((await get(hidden, alice)).statusCode).toBe(404);
    expect((await upload('notes.txt', Buffer.from('hello'), alice)).Msg).toBe('Only jpg, jpeg or png images can be uploaded.');
    expect((await upload('fake.png', Buffer.from('not a png at all'), alice)).Msg).toBe('Only jpg, jpeg or png images can be uploaded.');
    expect((await upload('crane.png', png)).Code).toBe(Code.SessionExpired);
    expect((await get(`${API_BASE}/files/uploads/${aliceOrg}/${'0'.repeat(32)}.png`, alice)).statusCode).toBe(404);
    expect(Header.token).toBe('x-token');
  });
});
