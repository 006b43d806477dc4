import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { calls, Code, FENCE_SHP_MAX_BYTES, FenceImportFields, type FenceSettings, FenceSettingsSchema, message } from '@wildtrack/contract';
import type { Caller } from '../../http/caller.js';
import { type CallHooks, registerCall, registerDownload } from '../../http/calls.js';
import { AppError, ValidationFailure } from '../../http/errors.js';
import { requireBoundary, watchCut } from '../../http/multipart-body.js';
import type { ImportedShapes } from './packed-shapes.js';
import type { FenceService } from './service.js';
import { importFailed } from './shp.js';
import { readShpInWorker } from './shp-import.js';

/** The name the user gave the file, without directories or the .shp ending. */
function baseName(name: string): string {
  return (name.split(/[\\/]/).pop() ?? '').replace(/\.shp$/i, '').slice(0, 40) || 'shp';
}

/**
 * Reads the import: the fields first (settings as JSON, checked like a form's body, and its devices
 * checked against the caller's rights before a byte of the file is kept), then one `file` ending in .shp,
 * under FENCE_SHP_MAX_BYTES (one byte more and the read stops: nothing is kept), its geometry read in a
 * worker thread (shp-import.ts).
 */
async function receive(request: FastifyRequest, caller: Caller, fences: FenceService): Promise<{ settings: FenceSettings; prefix: string; shapes: ImportedShapes }> {
  if (!request.isMultipart()) throw new AppError(Code.Invalid, 'upload.notMultipart');
  requireBoundary(request);
  const fields: Record<string, string> = {};
  let file: { name: string; bytes: Buffer } | undefined;
  let settings: FenceSettings | undefined;
  const tooLarge = () => importFailed(caller.lang, message(caller.lang, 'fence.import.tooLarge', { limit: `${FENCE_SHP_MAX_BYTES / 1024 / 1024} MB` }));
  const checkFields = () => {
    const parsed = FenceImportFields.safeParse(fields, { reportInput: true });
    if (!parsed.success) throw new ValidationFailure(parsed.error.issues, 'body');
    let json: unknown;
    try {
      json = JSON.parse(parsed.data.settings);
    } catch {
      throw importFailed(caller.lang, message(caller.lang, 'fence.import.settings', { reason: 'JSON' }));
    }
    const s = FenceSettingsSchema.safeParse(json, { reportInput: true });
    if (!s.success) throw new ValidationFailure(s.error.issues.map((i) => ({ ...i, path: ['settings', ...i.path] })), 'body');
    return s.data;
  };
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      if (file) throw new AppError(Code.Invalid, 'upload.notMultipart');
      fields[part.fieldname] = String(part.value);
      continue;
    }
    if (!settings) {
      settings = checkFields();
      try {
        await fences.checkImportDevices(caller, settings.imeis);
      } catch (err) {
        part.file.resume();
        throw err;
      }
    }
    if (part.fieldname !== 'file' || file) throw new AppError(Code.Invalid, 'movebank.unknownPart', { name: part.fieldname.slice(0, 40) });
    if (!/\.shp$/i.test(part.filename)) {
      part.file.resume();
      throw importFailed(caller.lang, message(caller.lang, 'fence.import.notShp'));
    }
    let bytes: Buffer;
    try {
      bytes = await part.toBuffer();
    } catch (err) {
      if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
      throw err;
    }
    if (part.file.truncated || bytes.length >= FENCE_SHP_MAX_BYTES) throw tooLarge();
    file = { name: part.filename, bytes };
  }
  settings ??= checkFields();
  if (!file) throw new AppError(Code.Invalid, 'upload.noFile');
  const shapes = await readShpInWorker(new Uint8Array(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength), caller.lang);
  return { settings, prefix: fields.labelPrefix?.trim() || baseName(file.name), shapes };
}

/** Geofences (§7.2 Fence/*): thin routes over FenceService; the .shp import reads its multipart body here. */
export function fenceRoutes(app: FastifyInstance, hooks: CallHooks, fences: FenceService, uploadIdleMs = 30_000): void {
  registerCall(app, hooks, calls.GetFenceList, async ({ body, caller }) => fences.list(caller, body));
  registerDownload(app, hooks, calls.ExportFences, async ({ body, caller }) => fences.exportFile(caller, body));
  registerCall(app, hooks, calls.GetDeviceFenceList, async ({ body, caller }) => fences.deviceFences(caller, body.imei));
  registerCall(app, hooks, calls.GetRuleListByType, async ({ body, caller }) => fences.rulesByType(caller, body.fenceId, body.type));
  registerCall(app, hooks, calls.CreateFence, async ({ body, caller }) => fences.create(caller, body));
  registerCall(app, hooks, calls.UpdateFence, async ({ body, caller }) => fences.update(caller, body));
  registerCall(app, hooks, calls.EnableFence, async ({ body, caller }) => fences.enable(caller, body.fenceId, body.enabled));
  registerCall(app, hooks, calls.DeleteFence, async ({ body, caller }) => fences.delete(caller, body.fenceId));
  app.register(async (scope) => {
    // One byte over the limit is read (and refused), not more.
    await scope.register(multipart, { limits: { fileSize: FENCE_SHP_MAX_BYTES, files: 1, fields: 4, parts: 5 } });
    registerCall(scope, hooks, calls.ImportShp, async ({ request, reply, caller }) => {
      // a client gone or stalled mid-body: refused at once, not left waiting for the rest of the file
      const watch = watchCut(request, reply, uploadIdleMs, () => {});
      const { settings, prefix, shapes } = await Promise.race([watch.cut, receive(request, caller, fences)]).finally(() => watch.done());
      return fences.importShapes(caller, prefix, shapes, settings);
    });
  });
}
