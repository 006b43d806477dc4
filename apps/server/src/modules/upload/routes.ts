import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { API_BASE, AVATAR_MAX_BYTES, Code, Header, IMAGE_UPLOAD_PATH, message, TOKEN_COOKIE, UPLOADS_URL } from '@wildtrack/contract';
import type { SessionInfo } from '../auth/service.js';
import type { CallHooks } from '../../http/calls.js';
import { AppError } from '../../http/errors.js';

const TYPES: Record<string, { ext: string; magic: (b: Buffer) => boolean }> = {
  jpg: { ext: 'jpg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  jpeg: { ext: 'jpg', magic: (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  png: { ext: 'png', magic: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
};

/**
 * Image upload (§7.2 /api/Image/Upload): multipart with `file` and `description`, signed like other calls
 * over an empty body (docs/api.md), jpg/jpeg/png under 20 MB. Files are kept under
 * $WILDTRACK_DATA/uploads/<organisation>/ with unguessable names and served from /prod-api/files/uploads/
 * to whoever may see them.
 */
function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function uploadRoutes(
  app: FastifyInstance,
  hooks: CallHooks,
  dataDir: string,
  canSeeImage: (session: SessionInfo, url: string) => Promise<boolean>,
): void {
  const root = path.join(dataDir, 'uploads');
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 4 } });
    scope.post(API_BASE + IMAGE_UPLOAD_PATH, async (request) => {
      hooks.verify(request);
      const token = request.headers[Header.token];
      const session = await hooks.resolveSession(typeof token === 'string' ? token : undefined);
      request.session = session;
      if (!request.isMultipart()) throw new AppError(Code.Invalid, 'upload.notMultipart');
      const file = await request.file();
      if (!file) throw new AppError(Code.Invalid, 'upload.noFile');
      const ext = path.extname(file.filename).slice(1).toLowerCase();
      const type = TYPES[ext];
      const body = await file.toBuffer().catch((err: { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(Code.Invalid, 'upload.tooLarge');
        throw err;
      });
      if (!type || !type.magic(body)) throw new AppError(Code.Invalid, 'upload.wrongType');
      const dir = path.join(root, String(session.orgId));
      fs.mkdirSync(dir, { recursive: true });
      const name = `${randomBytes(16).toString('hex')}.${type.ext}`;
      fs.writeFileSync(path.join(dir, name), body);
      return { Code: Code.Success, Msg: message(request.lang, 'ok'), Data: { Url: `${UPLOADS_URL}/${session.orgId}/${name}` } };
    });
  });

  // An <img> sends the session cookie, not headers: the file is served to a signed-in user of the
  // organisation that uploaded it, or to one who can see a device whose animal info shows it.
  app.get(`${UPLOADS_URL}/:org/:name`, { schema: { hide: true } }, async (request, reply) => {
    const { org, name } = request.params as { org: string; name: string };
    const notFound = () => new AppError(Code.NotFound, 'upload.notFound', {}, 404);
    if (!/^\d+$/.test(org) || !/^[0-9a-f]{32}\.(jpg|png)$/.test(name)) throw notFound();
    const header = request.headers[Header.token];
    const token = typeof header === 'string' ? header : cookieValue(request.headers.cookie, TOKEN_COOKIE);
    const session = await hooks.resolveSession(token);
    if (String(session.orgId) !== org && !(await canSeeImage(session, `${UPLOADS_URL}/${org}/${name}`))) throw notFound();
    const file = path.join(root, org, name);
    if (!fs.existsSync(file)) throw notFound();
    return reply
      .header('cache-control', 'private, max-age=31536000, immutable')
      .type(name.endsWith('.png') ? 'image/png' : 'image/jpeg')
      .send(fs.createReadStream(file));
  });
}
