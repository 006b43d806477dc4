import type { Writable } from 'node:stream';
import { EXPORT_EXTENSION, type ExportFileType, type ExportKind, GEODATA_FILE_TYPES, type Lang, MOVEBANK_EXPORT_KINDS } from '@wildtrack/contract';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { deviceNotFound } from '../device/access.js';
import { type GeodataFileType, writeGeodata } from './geodata.js';
import { movebankAccelerationTable, movebankFixTable } from './movebank.js';
import { type ExportDevice, type ExportQuery, ExportRepository } from './repository.js';
import { KIND_LABELS, type Table, tableOf } from './tables.js';
import { csvSink, type Sink, xlsxSink } from './writers.js';

/** What one export file holds. Times are epoch ms, both ends included, already clamped to what the asker may see. */
export interface ExportParams {
  imei: string;
  kind: ExportKind;
  startTime: number;
  endTime: number;
  /** The zone the file's times are written in, '+08:00'. */
  timeZone: string;
  /** The headers' language. */
  language: Lang;
  fileType: ExportFileType;
  /** Only rows [skip, skip + limit) of the range (acceleration: bursts); absent: the whole range. */
  skip?: number;
  limit?: number;
}

export interface ExportOptions {
  /** Stops the export: writeExport rejects with the signal's reason and destroys `out`. */
  signal?: AbortSignal;
  /** Rows written so far, after each batch. */
  onRows?: (rows: number) => void;
}

/** A device's caption (else its IMEI) as the start of a file name: characters a file name can't hold replaced. */
// eslint-disable-next-line no-control-regex -- control characters are what is replaced
export const fileCaption = (caption: string, imei: string) => (caption || imei).replace(/[\\/:*?"<>|\u0000-\u001f]/g, '_');

/** The file's name, `device-sensor-type(IMEI).ext` (§7.1): the device's caption, the kind and the type in `language`. */
export function exportFileName(p: { caption: string; imei: string; kind: ExportKind; fileType: ExportFileType; language: Lang }): string {
  const type = p.fileType === 'movebank' ? 'Movebank' : p.fileType === 'geojson' ? 'GeoJSON' : p.fileType.toUpperCase();
  const caption = fileCaption(p.caption, p.imei);
  return `${caption}-${KIND_LABELS[p.kind][p.language]}-${type}(${p.imei}).${EXPORT_EXTENSION[p.fileType]}`;
}

/** Whether a Movebank CSV can carry the kind. */
export const movebankCarries = (kind: ExportKind) => MOVEBANK_EXPORT_KINDS.includes(kind);

const isGeodata = (t: ExportFileType): t is GeodataFileType => (GEODATA_FILE_TYPES as readonly ExportFileType[]).includes(t);

async function fileTable(repo: ExportRepository, device: ExportDevice, p: ExportParams, q: ExportQuery): Promise<Table> {
  if (p.fileType === 'movebank') {
    if (p.kind === 'fix') return (await movebankFixTable(repo, device, q)) as Table;
    if (p.kind === 'acceleration') return movebankAccelerationTable(repo, device, q) as Table;
    throw new Error(`a Movebank CSV does not carry ${p.kind}`);
  }
  return tableOf(p.kind, { repo, device, q, lang: p.language, zone: p.timeZone });
}

/**
 * Writes one device's records of one kind in the range to `out` as the file type asks (XLSX, CSV, Movebank
 * CSV; positions as GeoJSON, GPX or KML, geodata.ts), a batch of rows at a time with the stream's backpressure honoured, and ends `out`. No access check:
 * the caller has checked DownloadData (the export call, a download task at its creation). Called by the
 * export call and by download tasks, without HTTP.
 */
export async function writeExport(db: Kysely<Database>, p: ExportParams, out: Writable, options: ExportOptions = {}): Promise<{ rows: number }> {
  const repo = new ExportRepository(db);
  const device = await repo.device(p.imei);
  if (!device) throw deviceNotFound();
  const q: ExportQuery = { deviceId: device.id, from: p.startTime, to: p.endTime, ...(p.skip !== undefined ? { skip: p.skip } : {}), ...(p.limit !== undefined ? { limit: p.limit } : {}) };
  const { signal, onRows } = options;
  let rows = 0;
  try {
    signal?.throwIfAborted();
    if (isGeodata(p.fileType)) {
      if (p.kind !== 'fix') throw new Error(`a ${p.fileType} file does not carry ${p.kind}`);
      const batches = async function* () {
        for await (const batch of repo.fixCells(q)) {
          signal?.throwIfAborted();
          yield batch;
        }
      };
      rows = await writeGeodata(p.fileType, device, batches(), out, (n) => onRows?.(n));
      return { rows };
    }
    const table = await fileTable(repo, device, p, q);
    const sink: Sink =
      p.fileType === 'xls'
        ? xlsxSink(out, table.headers, KIND_LABELS[p.kind][p.language], p.timeZone, table.timeColumns)
        : csvSink(out, table.headers, p.fileType !== 'movebank', p.timeZone);
    for await (const batch of table.batches()) {
      signal?.throwIfAborted();
      await sink.rows(batch, table.emit);
      rows += batch.length;
      onRows?.(rows);
    }
    signal?.throwIfAborted();
    await sink.end();
    return { rows };
  } catch (err) {
    out.destroy(err as Error);
    throw err;
  }
}
