import { PassThrough } from 'node:stream';
import { type calls, Code } from '@wildtrack/contract';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../../db/schema.js';
import type { Caller } from '../../http/caller.js';
import type { FileAnswer } from '../../http/calls.js';
import { AppError } from '../../http/errors.js';
import { checkedRange } from '../../http/range.js';
import { clampAsked } from '../device/access.js';
import type { DeviceGate } from '../device/gate.js';
import { exportFileName, writeExport } from './export.js';

type ExportBody = z.output<typeof calls.ExportData.body>;

/**
 * The export call (§2.5, §5 Export, §7.2 Exports): the device visible and the caller holding DownloadData
 * on it (a share's right, or an example device), the range checked in the caller's zone and clamped to a
 * share's window, then the file streamed as writeExport makes it.
 */
export class ExportService {
  constructor(
    private readonly devices: DeviceGate,
    private readonly db: Kysely<Database>,
    private readonly log: { error(obj: unknown, msg?: string): void },
  ) {}

  async export(caller: Caller, body: ExportBody): Promise<FileAnswer> {
    const device = await this.devices.resolve(caller, body.imei);
    if (!device.access.rights.DownloadData) throw new AppError(Code.Forbidden, 'export.noDownloadRight');
    const { from, to } = checkedRange(caller, body);
    const { from: start, to: end } = clampAsked({ from, to }, device.access, caller.zone);
    const page = body.currentPage !== undefined && body.pageSize !== undefined ? { skip: (body.currentPage - 1) * body.pageSize, limit: body.pageSize } : {};
    const params = {
      imei: device.imei,
      kind: body.kind,
      // Nothing of the range visible is an empty file (the header), as an empty range is.
      startTime: start <= end ? start : 1,
      endTime: start <= end ? end : 0,
      timeZone: caller.zone,
      language: caller.lang,
      fileType: body.fileType,
      ...page,
    };
    const stream = new PassThrough();
    writeExport(this.db, params, stream).catch((err: unknown) => {
      if (!stream.destroyed) stream.destroy(err as Error);
      this.log.error({ err, imei: device.imei, kind: body.kind }, 'export failed');
    });
    return { name: exportFileName({ caption: device.caption, imei: device.imei, kind: body.kind, fileType: body.fileType, language: caller.lang }), stream };
  }
}
