import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, Code, IMAGE_UPLOAD_PATH, LanguageId, signedHeaders } from '@wildtrack/contract';
import { createTestApp, DIALECTS, type TestApp } from '../../test/helper.js';

/** Issue 11 (low): a multipart upload cut short is the client's fault: a 4xx envelope, never a 500. */
describe.each(DIALECTS)('a truncated image upload on %s', (dialect) => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await createTestApp(dialect);
    ({ token } = await t.userWithToken());
  });
  afterAll(async () => t.close());

  const send = (payload: Buffer, lang: 'en' | 'zh' = 'en') =>
    t.app.inject({
      method: 'POST',
      url: API_BASE + IMAGE_UPLOAD_PATH,
      headers: { ...signedHeaders({ token, path: IMAGE_UPLOAD_PATH, body: undefined, lcid: LanguageId[lang] }), 'content-type': 'multipart/form-data; boundary=----wildtrack' },
      payload,
    });

  it('answers a body that ends inside the file with 400 and the envelope, and one cut before the file as holding none', async () => {
    const head = Buffer.from('------wildtrack\r\nContent-Disposition: form-data; name="file"; filename="p.png"\r\nContent-Type: image/png\r\n\r\n');
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
    const cut = await send(Buffer.concat([head, png]));
    expect(cut.statusCode).toBe(400);
    expect(cut.json()).toEqual({ Code: Code.Invalid, Msg: 'The upload ended before the file was complete; send it again.', Data: null });
    // cut before any file began: no file was received
    for (const payload of [head.subarray(0, 40), Buffer.from('------wildtrack\r\n'), Buffer.alloc(0)]) {
      const res = await send(payload);
      expect(res.statusCode, payload.toString('latin1')).toBeLessThan(500);
      expect(res.json().Code, payload.toString('latin1')).toBe(Code.Invalid);
    }
    const zh = await send(Buffer.concat([head, png]), 'zh');
    expect(zh.json().Msg).toBe('上传的文件不完整，请重新上传。');
  });
});
