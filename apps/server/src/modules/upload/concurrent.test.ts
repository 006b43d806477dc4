import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, Code, IMAGE_UPLOAD_PATH, LanguageId, signedHeaders } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';
import { uploadImage } from '../../test/upload-helper.js';

/**
 * Issue 26 M3: ten signed-in picture uploads held at 19 of 20 MB stayed open for good (+158 MiB). A user has
 * at most UPLOADS_PER_USER uploads in progress; one more is refused in the caller's language before its
 * body is read, and the slots come back as the uploads end. (Their timeouts: the minimum body rate, walked
 * over every upload call by test/harness/uploads.test.ts.)
 */
describe.each(DIALECTS)('uploads in progress per user on %s', (dialect) => {
  let t: TestApp;
  let token: string;
  let other: string;
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082', 'hex');

  beforeAll(async () => {
    t = await createTestApp(dialect, { UPLOADS_PER_USER: '2' });
    ({ token } = await t.userWithToken());
    ({ token: other } = await t.userWithToken());
  });
  afterAll(async () => t.close());

  /** A picture upload that sends its head and part of a 19 MB file, then waits; `end` cuts it there. */
  const held = (credential: string, lang: 'en' | 'zh' = 'en') => {
    let read = 0;
    let stalled = false;
    const head = Buffer.from('------wildtrack\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n');
    const stream = new Readable({
      read() {
        if (stalled) return;
        stalled = true;
        read += 1;
        this.push(Buffer.concat([head, PNG]));
      },
    });
    const done = t.app.inject({
      method: 'POST',
      url: API_BASE + IMAGE_UPLOAD_PATH,
      headers: {
        ...signedHeaders({ token: credential, path: IMAGE_UPLOAD_PATH, body: undefined, lcid: LanguageId[lang] }),
        'content-type': 'multipart/form-data; boundary=----wildtrack',
        'content-length': String(19 * 1024 * 1024),
      },
      payload: stream,
    });
    return { done, read: () => read, end: () => stream.push(null) };
  };

  it('refuses a third upload of one user while two are in progress, in the caller language, and takes it once one ended', async () => {
    const a = held(token);
    const b = held(token);
    await expect.poll(() => a.read() > 0 && b.read() > 0).toBe(true);
    const c = held(token);
    const refused = await c.done;
    expect(refused.json()).toEqual({ Code: Code.TooManyRequests, Msg: 'You already have 2 uploads in progress; wait for one to finish, then send this one again.', Data: null });
    expect(refused.headers.connection).toBe('close');
    const zh = await held(token, 'zh').done;
    expect(zh.json()).toMatchObject({ Code: Code.TooManyRequests, Msg: '您已有 2 个上传正在进行，请等其中一个完成后再上传。' });
    // another user is not held up by them
    expect((await uploadImage(t, 'p.png', PNG, other)).Code).toBe(Code.Success);
    // one ends (cut short: refused as truncated) and gives its slot back
    a.end();
    expect((await a.done).json().Code).toBe(Code.Invalid);
    expect((await uploadImage(t, 'p.png', PNG, token)).Code).toBe(Code.Success);
    b.end();
    await b.done;
  });
});
