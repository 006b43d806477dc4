import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { calls, Code, MOVEBANK_IMPORT_MAX_BYTES, MOVEBANK_IMPORT_PARTS, MovebankImportFields } from '@wildtrack/contract';
import type { Caller } from '../../http/caller.js';
import { type CallHooks, registerCall } from '../../http/calls.js';
import { AppError, ValidationFailure } from '../../http/errors.js';
import { requireBoundary, watchCut } from '../../http/multipart-body.js';
import type { MovebankImportService, UploadedFiles } from './import-service.js';

const tooLarge = () => new AppError(Code.Invalid, 'movebank.tooLarge', { limit: `${MOVEBANK_IMPORT_MAX_BYTES / 1024 / 1024 / 1024} GB` });

/** The name the user gave the file, as shown back: no directories, at most 200 characters. */
function shownName(name: string): string {
  return (name.split(/[\\/]/).pop() ?? '').slice(0, 200) || 'movebank.csv';
}

/**
 * Reads the import's multipart body in order: the fields, checked (folder and right) before any byte of
 * a file is taken, then each file streamed to disk as it arrives, so memory stays flat for any size.
 */
async function receive(request: FastifyRequest, reply: FastifyReply, idleMs: number, caller: Caller, imports: MovebankImportService): Promise<{ folderId: number | null; files: UploadedFiles }> {
  if (!request.isMultipart()) throw new AppError(Code.Invalid, 'upload.notMultipart');
  requireBoundary(request);
  const fields: Record<string, string> = {};
  let folderId: number | null | undefined;
  const files: Partial<UploadedFiles> = {};
  const written: string[] = [];
  // A client gone mid-body: the file being written is closed and removed at once (it held a descriptor
  // and a file in imports/ for good).
  let writing: fs.WriteStream | undefined;
  const watch = watchCut(request, reply, idleMs, () => writing?.destroy());
  try {
    return await Promise.race([watch.cut, read()]);
  } catch (err) {
    writing?.destroy();
    imports.discard(...written);
    throw err;
  } finally {
    watch.done();
  }

  async function read(): Promise<{ folderId: number | null; files: UploadedFiles }> {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (folderId !== undefined) throw new AppError(Code.Invalid, 'movebank.partsOrder');
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (folderId === undefined) {
        const parsed = MovebankImportFields.safeParse(fields, { reportInput: true });
        if (!parsed.success) throw new ValidationFailure(parsed.error.issues, 'body');
        folderId = await imports.folderFor(caller, parsed.data.folderId);
      }
      const key = part.fieldname === MOVEBANK_IMPORT_PARTS.file ? 'file' : part.fieldname === MOVEBANK_IMPORT_PARTS.reference ? 'reference' : null;
      if (key === null || files[key]) throw new AppError(Code.Invalid, 'movebank.unknownPart', { name: part.fieldname.slice(0, 40) });
      const dest = imports.uploadPath(caller);
      written.push(dest);
      try {
        writing = fs.createWriteStream(dest);
        await pipeline(part.file, writing);
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
        throw err;
      } finally {
        writing = undefined;
      }
      if (part.file.truncated) throw tooLarge();
      files[key] = { path: dest, name: shownName(part.filename) };
    }
    if (!files.file) {
      // the fields alone: their own faults first (a missing folder says so), then the missing file
      const parsed = MovebankImportFields.safeParse(fields, { reportInput: true });
      if (!parsed.success) throw new ValidationFailure(parsed.error.issues, 'body');
      throw new AppError(Code.Invalid, 'movebank.noFile');
    }
    return { folderId: folderId ?? null, files: files as UploadedFiles };
  }
}

/** The console's Movebank import calls: the upload that queues an import, its progress and report, cancel. */
export function movebankRoutes(app: FastifyInstance, hooks: CallHooks, imports: MovebankImportService, uploadIdleMs = 30_000): void {
  app.register(async (scope) => {
    await scope.register(multipart, { limits: { fileSize: MOVEBANK_IMPORT_MAX_BYTES, files: 2, fields: 4, parts: 6 } });
    registerCall(scope, hooks, calls.MovebankImport, async ({ request, reply, caller }) => {
      const { folderId, files } = await receive(request, reply, uploadIdleMs, caller, imports);
      return imports.queue(caller, folderId, files);
    });
  });
  registerCall(app, hooks, calls.GetMovebankImportList, async ({ caller }) => imports.list(caller));
  registerCall(app, hooks, calls.GetMovebankImport, async ({ body, caller }) => imports.get(caller, body.id));
  registerCall(app, hooks, calls.CancelMovebankImport, async ({ body, caller }) => imports.cancel(caller, body.id));
  app.addHook('onClose', async () => imports.close());
}
