import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { calls, Code, POI_PHOTOS_URL, TOKEN_COOKIE } from '@wildtrack/contract';
import { callerOf } from '../../http/caller.js';
import { type CallHooks, registerCall, registerDownload } from '../../http/calls.js';
import { AppError } from '../../http/errors.js';
import type { FieldService } from './service.js';

/** Where ingest writes POI photos under the data directory (ingest/service.ts FIELD_DIR). */
const FIELD_DIR = 'field';

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export function fieldRoutes(app: FastifyInstance, hooks: CallHooks, field: FieldService, dataDir: string): void {
  registerCall(app, hooks, calls.GetPoiList, async ({ body, caller }) => field.poiPage(caller, body));
  registerDownload(app, hooks, calls.ExportPois, async ({ body, caller }) => field.poiExport(caller, body));
  registerCall(app, hooks, calls.GetBehaviorCount, async ({ body, caller }) => ({ Count: await field.behaviorCount(caller, body) }));
  registerCall(app, hooks, calls.GetBehaviorList, async ({ body, caller }) => field.behaviorPage(caller, body));
  registerCall(app, hooks, calls.GetBehaviorFilters, async ({ body, caller }) => field.filters(caller, body.imei));

  // An <img> sends the session cookie, not headers (docs/api.md "Pictures"): a POI photo is served to whoever
  // may read its phone inside their window; anything else is "not found".
  app.get(`${POI_PHOTOS_URL}/:imei/:name`, { schema: { hide: true } }, async (request, reply) => {
    const { imei, name } = request.params as { imei: string; name: string };
    const caller = callerOf(await hooks.resolveImageCookie(cookieValue(request.headers.cookie, TOKEN_COOKIE)), request.lang);
    const photo = await field.photo(caller, imei, name);
    const file = photo && path.join(dataDir, FIELD_DIR, String(photo.deviceId), photo.name);
    if (!file || !fs.existsSync(file)) throw new AppError(Code.NotFound, 'media.notFound', {}, 404);
    return reply
      .header('cache-control', 'private, max-age=31536000, immutable')
      .type(photo.name.endsWith('.png') ? 'image/png' : 'image/jpeg')
      .send(fs.createReadStream(file));
  });
}
