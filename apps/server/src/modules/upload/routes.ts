import fs from 'node:fs';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { AVATAR_MAX_BYTES, calls, Code, TOKEN_COOKIE, UPLOADS_URL } from '@wildtrack/contract';
import { callerOf } from '../../http/caller.js';
import { type CallHooks, registerCall } from '../../http/calls.js';
import { AppError } from '../../http/errors.js';
import { assertImageName, type UploadService } from './service.js';

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/**
 * Image upload (§7.2): a multipart `file` and `description`, signed like other calls over an empty body
 * (docs/api.md); and the uploaded pictures, served to an <img> by the session cookie.
 */
export function uploadRoutes(app: FastifyInstance, hooks: CallHooks, uploads: UploadService): void {
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 4 } });
    registerCall(scope, hooks, calls.ImageUpload, async ({ request, caller }) => {
      if (!request.isMultipart()) throw new AppError(Code.Invalid, 'upload.notMultipart');
      // Reading the body fails only on what the client sent (a form cut short, a malformed part): a 400, not a 500.
      const unreadable = (err: { code?: string }): never => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(Code.Invalid, 'upload.tooLarge');
        throw new AppError(Code.Invalid, 'upload.truncated', {}, 400);
      };
      const file = await request.file().catch(unreadable);
      if (!file) throw new AppError(Code.Invalid, 'upload.noFile');
      const bytes = await file.toBuffer().catch(unreadable);
      return uploads.saveImage(caller, file.filename, bytes);
    });
  });

  // An <img> sends the session cookie, not headers: the file is served to a signed-in user of the
  // organisation that uploaded it, or to one who can see a device whose animal info shows it.
  app.get(`${UPLOADS_URL}/:org/:name`, { schema: { hide: true } }, async (request, reply) => {
    const { org, name } = request.params as { org: string; name: string };
    assertImageName(org, name);
    // The cookie holds the session id and its image key, never the token (docs/api.md, "Pictures").
    const caller = callerOf(await hooks.resolveImageCookie(cookieValue(request.headers.cookie, TOKEN_COOKIE)), request.lang);
    const image = await uploads.imageFile(caller, org, name);
    return reply.header('cache-control', 'private, max-age=31536000, immutable').type(image.type).send(fs.createReadStream(image.file));
  });
}
