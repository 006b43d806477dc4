import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { calls, Code, MEDIA_CALLS, MEDIA_FILES_URL, MEDIA_KINDS, type MediaKindCall, TOKEN_COOKIE } from '@wildtrack/contract';
import { callerOf } from '../../http/caller.js';
import { type CallHooks, registerCall, registerDownload } from '../../http/calls.js';
import { AppError } from '../../http/errors.js';
import type { MediaService } from './service.js';

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function mediaRoutes(app: FastifyInstance, hooks: CallHooks, media: MediaService): void {
  registerCall(app, hooks, calls.ConvertPDMToWAV, async ({ body, caller }) => media.convertToWav(caller, body.imei, body.pickTime));
  registerDownload(app, hooks, calls.BatchDownloadWAV, async ({ body, caller }) => media.batch(caller, body.imei, body.pickTimes));
  const kindCalls = <K extends MediaKindCall>(kind: K) => {
    const c = MEDIA_CALLS[kind] as unknown as typeof MEDIA_CALLS.image;
    registerCall(app, hooks, c.count, async ({ body, caller }) => ({ Count: await media.mediaCount(caller, kind, body) }));
    // The answer's records are the kind's (fixOf by kind); the route's response schema checks them.
    registerCall(app, hooks, c.list, async ({ body, caller }) => (await media.mediaPage(caller, kind, body)) as never);
    registerCall(app, hooks, c.all, async ({ body, caller }) => (await media.mediaAll(caller, kind, body)) as never);
  };
  for (const kind of MEDIA_KINDS) kindCalls(kind);

  // <img>, <video> and <audio> send the session cookie, not headers (as pictures do, docs/api.md "Pictures"):
  // a media file, a thumbnail or a converted recording is served to whoever may read its device, under a
  // name the server gave; anything else is "not found". A video is read in ranges (seeking).
  app.get(`${MEDIA_FILES_URL}/:imei/:name`, { schema: { hide: true } }, async (request, reply) => {
    const { imei, name } = request.params as { imei: string; name: string };
    const caller = callerOf(await hooks.resolveImageCookie(cookieValue(request.headers.cookie, TOKEN_COOKIE)), request.lang);
    const served = await media.servedFile(caller, imei, name);
    if (!served) throw new AppError(Code.NotFound, 'media.notFound', {}, 404);
    reply.header('cache-control', 'private, max-age=86400').header('accept-ranges', 'bytes').type(served.type);
    const range = byteRange(request.headers.range, served.size);
    if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${served.size}`).send();
    if (range) {
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${served.size}`)
        .header('content-length', range.end - range.start + 1)
        .send(fs.createReadStream(served.file, range));
    }
    return reply.header('content-length', served.size).send(fs.createReadStream(served.file));
  });
}

/** One byte range of a Range header (RFC 9110 §14.1.2; several ranges are answered whole, as allowed). */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const m = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (!Number.isSafeInteger(start) || start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
