import { API_BASE, IMAGE_UPLOAD_PATH, LanguageId, signedHeaders } from '@wildtrack/contract';
import type { TestApp } from './helper.js';

/** A signed multipart /api/Image/Upload of `bytes` named `name`, as the web client sends it; answers the envelope. */
export async function uploadImage(
  t: TestApp,
  name: string,
  bytes: Buffer,
  token?: string,
): Promise<{ Code: number; Msg: string; Data: { Url: string } | null }> {
  const boundary = '----wildtrack';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="description"\r\n\r\npicture\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await t.app.inject({
    method: 'POST',
    url: API_BASE + IMAGE_UPLOAD_PATH,
    headers: { ...signedHeaders({ token, path: IMAGE_UPLOAD_PATH, body: undefined, lcid: LanguageId.en }), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return res.json() as { Code: number; Msg: string; Data: { Url: string } | null };
}

/** A renamed Windows executable (MZ header) and an SVG carrying a script: pictures by name only. */
export const NOT_PICTURES = {
  exe: Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(120)]),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.cookie)</script></svg>'),
};
