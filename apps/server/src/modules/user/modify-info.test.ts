import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calls, Code, parseUploadUrl, type User } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { NOT_PICTURES, uploadImage } from '../../test/upload-helper.js';

describe.each(DIALECTS)('User/ModifyInfo on %s', (dialect) => {
  let t: TestApp;
  let alice: string;
  let bob: string;
  let photo: Buffer;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token: alice } = await t.userWithToken({ org: 'Crane Lab' }));
    ({ token: bob } = await t.userWithToken({ org: 'Otter Lab' }));
    photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 40, g: 120, b: 60 } } }).png().toBuffer();
  });
  afterAll(async () => t.close());

  const modify = (body: unknown, token?: string, lang: 'zh' | 'en' = 'en') => t.call(calls.ModifyInfo.path, body, { token, lang });
  const me = async (token: string) => (await t.call(calls.GetUserInfo.path, {}, { token })).body.Data as User;
  const fileOf = (url: string) => {
    const u = parseUploadUrl(url)!;
    return path.join(t.dataDir, 'uploads', u.org, u.name);
  };

  it('changes the nickname (trimmed) and makes the avatar a thumbnail of height 100 of an uploaded picture', async () => {
    const up = await uploadImage(t, 'crane.png', photo, alice);
    expect(up.Code).toBe(Code.Success);
    const res = await modify({ nickName: '  Crane ringer  ', image: up.Data!.Url }, alice);
    expect(res.body.Code).toBe(Code.Success);
    const user = res.body.Data as User;
    expect(user.NickName).toBe('Crane ringer');
    expect(parseUploadUrl(user.ImgUrl)).not.toBeNull();
    expect(user.ImgUrl).not.toBe(up.Data!.Url);
    const meta = await sharp(fileOf(user.ImgUrl)).metadata();
    expect([meta.format, meta.height, meta.width]).toEqual(['png', 100, 150]);
    expect((await me(alice)).ImgUrl).toBe(user.ImgUrl);
    // no image: the avatar stays, the nickname changes
    const again = await modify({ nickName: 'Crane team' }, alice);
    expect((again.body.Data as User).ImgUrl).toBe(user.ImgUrl);
    expect((await me(alice)).NickName).toBe('Crane team');
  });

  it('refuses a blank nickname, a foreign or missing picture and one that is not an image, naming the field, storing nothing', async () => {
    const before = await me(alice);
    const blank = await modify({ nickName: '   ', image: '' }, alice);
    expect(blank.body).toMatchObject({ Code: Code.Invalid, Msg: 'Enter a nickname.', Data: { Field: 'nickName' } });
    const blankZh = await modify({ nickName: '' }, alice, 'zh');
    expect(blankZh.body.Msg).toBe('请输入昵称。');
    const hidden = await modify({ nickName: 'a\u202Egpj.exe' }, alice);
    expect(hidden.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'nickName' } });
    const external = await modify({ nickName: 'x', image: 'https://evil.example/a.png' }, alice);
    expect(external.body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'image' } });
    expect(external.body.Msg).toContain('avatar');
    // bob's picture: not alice's to use
    const bobs = (await uploadImage(t, 'otter.png', photo, bob)).Data!.Url;
    const foreign = await modify({ nickName: 'x', image: bobs }, alice);
    expect(foreign.body).toMatchObject({ Code: Code.Invalid, Msg: 'The avatar may only hold pictures uploaded by your organisation.', Data: { Field: 'image' } });
    const missing = bobs.replace(/[0-9a-f]{32}/, '0'.repeat(32));
    expect((await modify({ nickName: 'x', image: missing }, bob)).body).toMatchObject({ Code: Code.Invalid, Data: { Field: 'image' } });
    // a file that starts like a png but is no picture sharp reads
    const fake = await uploadImage(t, 'fake.png', Buffer.concat([photo.subarray(0, 8), Buffer.from('<script>alert(1)</script>')]), alice);
    expect(fake.Code).toBe(Code.Success);
    const notImage = await modify({ nickName: 'x', image: fake.Data!.Url }, alice);
    expect(notImage.body).toMatchObject({ Code: Code.Invalid, Msg: 'Only jpg, jpeg or png images can be uploaded.', Data: { Field: 'image' } });
    const after = await me(alice);
    expect([after.NickName, after.ImgUrl]).toEqual([before.NickName, before.ImgUrl]);
  });

  it('refuses a renamed executable and an SVG with a script at upload, and too large a picture with its own message', async () => {
    for (const [name, bytes] of [['setup.jpg', NOT_PICTURES.exe], ['avatar.png', NOT_PICTURES.svg], ['avatar.svg', NOT_PICTURES.svg], ['setup.exe', NOT_PICTURES.exe]] as const) {
      const res = await uploadImage(t, name, bytes, alice);
      expect([name, res.Code, res.Msg]).toEqual([name, Code.Invalid, 'Only jpg, jpeg or png images can be uploaded.']);
    }
    const big = Buffer.concat([photo, Buffer.alloc(20 * 1024 * 1024)]);
    const tooBig = await uploadImage(t, 'big.png', big, alice);
    expect([tooBig.Code, tooBig.Msg]).toEqual([Code.Invalid, 'The image must be under 20 MB.']);
    expect(fs.readdirSync(path.join(t.dataDir, 'uploads')).length).toBeGreaterThan(0);
  });

  it('is refused without a session', async () => {
    const res = await modify({ nickName: 'x', image: '' });
    expect(res.body.Code).toBe(Code.SessionExpired);
  });
});
