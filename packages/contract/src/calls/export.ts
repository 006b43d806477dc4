import { z } from 'zod';
import { defineCall } from '../call.js';
import { SENSOR_KIND_NAMES, type SensorKindName } from '../sensor-kinds.js';
import { orderedRange, TimeTextSchema, TimeZoneField } from '../paging.js';
import { ImeiSchema as imei } from '../validation.js';

/**
 * Exports (§2.5 Export button, §5 Export, §6 DownloadData, §7.1 blob downloads, §7.2 Exports, §8): one
 * device's records of one kind over a range as a file, streamed. The body is the spec's (imei, timeZone,
 * startTime, endTime, fileType, currentPage, pageSize) plus the kind, since one path serves every data view.
 * Access: the device right DownloadData (an example device's data may be downloaded). The same writer makes
 * the files of download tasks (apps/server/src/modules/export, writeExport).
 *
 * The spec does not show the path: it is /api/Export/Download.
 */

/** What can be exported: positions, every stored sensor kind the console shows, acceleration samples, events. */
export const EXPORT_KINDS = ['fix', ...SENSOR_KIND_NAMES, 'acceleration', 'event'] as const satisfies readonly ('fix' | SensorKindName | 'acceleration' | 'event')[];
export const ExportKindSchema = z.enum(EXPORT_KINDS, { error: 'validation.exportKind' });
export type ExportKind = z.infer<typeof ExportKindSchema>;

/**
 * The file formats (§7.2 Exports: xls or csv; 'xls' writes .xlsx, which has no 65,536-row limit), Movebank's
 * CSV, and the geodata formats of GIS tools and GPS software (issue 29): GeoJSON (RFC 7946), GPX 1.1, KML 2.2.
 */
export const EXPORT_FILE_TYPES = ['xls', 'csv', 'movebank', 'geojson', 'gpx', 'kml'] as const;
export const ExportFileTypeSchema = z.enum(EXPORT_FILE_TYPES, { error: 'validation.exportFileType' });
export type ExportFileType = z.infer<typeof ExportFileTypeSchema>;

/** The extension each file type is saved with. */
export const EXPORT_EXTENSION: Record<ExportFileType, string> = { xls: 'xlsx', csv: 'csv', movebank: 'csv', geojson: 'geojson', gpx: 'gpx', kml: 'kml' };

/** The kinds a Movebank CSV can carry (its event table: locations, and acceleration in the plain long layout). */
export const MOVEBANK_EXPORT_KINDS: readonly ExportKind[] = ['fix', 'acceleration'];

/** The geodata formats: positions only (a track, its fixes). */
export const GEODATA_FILE_TYPES = ['geojson', 'gpx', 'kml'] as const satisfies readonly ExportFileType[];
export const GEODATA_EXPORT_KINDS: readonly ExportKind[] = ['fix'];

/** The kinds each file type can carry: XLS and CSV every kind, a Movebank CSV positions and acceleration, geodata positions. */
export function fileTypeCarries(fileType: ExportFileType, kind: ExportKind): boolean {
  if (fileType === 'movebank') return MOVEBANK_EXPORT_KINDS.includes(kind);
  if ((GEODATA_FILE_TYPES as readonly ExportFileType[]).includes(fileType)) return GEODATA_EXPORT_KINDS.includes(kind);
  return true;
}

/** The message refusing a kind the file type cannot carry. */
export const kindRefusal = (fileType: ExportFileType) => (fileType === 'movebank' ? 'validation.movebankKind' : 'validation.geodataKind');

export const ExportBodySchema = z
  .object({
    imei,
    kind: ExportKindSchema,
    startTime: TimeTextSchema,
    endTime: TimeTextSchema,
    timeZone: TimeZoneField,
    fileType: ExportFileTypeSchema,
    /** With pageSize: only that page of the range (rows in time order); both absent: the whole range. */
    currentPage: z.number().int().min(1).optional(),
    pageSize: z.number().int().min(1).max(1_000_000).optional(),
  })
  .superRefine((body, ctx) => {
    orderedRange(body, ctx);
    if (!fileTypeCarries(body.fileType, body.kind)) {
      ctx.addIssue({ code: 'custom', message: kindRefusal(body.fileType), path: ['kind'], input: body.kind });
    }
  });
export type ExportBody = z.output<typeof ExportBodySchema>;

/**
 * The file of one device's records of one kind in the range, as an attachment named
 * `device-sensor-type(IMEI).ext` (the device's caption, the kind and the type in the caller's language):
 * sent as octet-stream whatever its type, the name's extension says which (the console saves it as a blob).
 */
export const ExportData = defineCall({
  path: '/api/Export/Download',
  auth: 'session',
  access: 'device right DownloadData',
  body: ExportBodySchema,
  data: z.null(),
  download: { type: 'application/octet-stream' },
  timeout: 'long',
  summary:
    "Exports a device's records of one kind (fix, a sensor kind, acceleration samples, events) in the range as XLSX, CSV, Movebank CSV, or its positions as GeoJSON, GPX 1.1 or KML 2.2, streamed; headers in the caller's language, times in the zone asked; named device-sensor-type(IMEI).ext.",
});
