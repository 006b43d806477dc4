import { PassThrough } from 'node:stream';
import {
  type Behavior,
  type BehaviorMotion,
  type calls,
  Code,
  formatTime,
  type Lang,
  message,
  type Poi,
  POI_PHOTOS_URL,
} from '@wildtrack/contract';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.js';
import { checkedRange } from '../../http/range.js';
import { AppError } from '../../http/errors.js';
import { clampAsked, clampToWindow } from '../device/access.js';
import type { DeviceGate, ResolvedDevice } from '../device/gate.js';
import type { FieldQuery, FieldRepository, MotionRow, PoiRow } from './repository.js';
import type { FileAnswer } from '../../http/calls.js';
import { fileCaption } from '../export/export.js';
import { writePois } from './poi-file.js';

type PoiListBody = z.output<typeof calls.GetPoiList.body>;
type PoiExportBody = z.output<typeof calls.ExportPois.body>;

/** How many POIs an export reads at a time. */
const POI_EXPORT_PAGE = 500;
type BehaviorCountBody = z.output<typeof calls.GetBehaviorCount.body>;
type BehaviorListBody = z.output<typeof calls.GetBehaviorList.body>;

/** The only names POI photos are stored under (ingest/decode.ts): their SHA-256 and type. */
export const PHOTO_NAME = /^[0-9a-f]{64}\.(jpg|png)$/;

export interface Page<R> {
  List: R[];
  Total: number;
}

/**
 * The part of [from, to] a share's data period lets its recipient see (its ends included); with `zone` (a
 * range the caller asked for) one missing all of it is refused, saying what the share covers (clampAsked).
 */
function within(device: ResolvedDevice, from: number, to: number, zone?: string): FieldQuery | undefined {
  const q = { deviceId: Number(device.id), ...(zone === undefined ? clampToWindow({ from, to }, device.access) : clampAsked({ from, to }, device.access, zone)) };
  return q.from <= q.to ? q : undefined;
}

export function motionOf(row: MotionRow, lang: Lang): BehaviorMotion {
  const isDefault = row.org_id === null;
  return { Id: row.id, IdStr: String(row.id), Name: isDefault && row.code ? message(lang, `motion.${row.code}`) : row.name, IsDefault: isDefault };
}

export function poiOf(row: PoiRow, imei: string, zone: string): Poi {
  const photos = JSON.parse(row.photos) as string[];
  return {
    Id: row.id,
    IdStr: String(row.id),
    UserId: row.recorder,
    UserIdStr: String(row.recorder),
    UserName: row.recorder_name,
    Name: row.name,
    Target: row.target,
    Longitude: row.lon,
    Latitude: row.lat,
    Altitude: row.alt,
    Photos: photos.map((name) => `${POI_PHOTOS_URL}/${encodeURIComponent(imei)}/${name}`),
    Address: row.address,
    Description: row.description,
    RecordTime: formatTime(row.record_time, zone),
  };
}

/**
 * Field records (§3 POI, Behavior; §7.2): what phones record besides their track, read through the
 * caller's access to the phone (a share's window bounds what its recipient sees), times in the caller's zone.
 */
export class FieldService {
  constructor(
    private readonly devices: DeviceGate,
    private readonly records: FieldRepository,
  ) {}

  /** The device and the part of the body's range the caller may see (undefined: none of it). */
  private async query(caller: Caller, body: { imei: string; startTime: string; endTime: string }, right?: 'DownloadData'): Promise<{ device: ResolvedDevice; q: FieldQuery | undefined }> {
    const device = await this.devices.resolve(caller, body.imei);
    // the right before the range: a caller without it is refused as such, whatever range they ask
    if (right && !device.access.rights[right]) throw new AppError(Code.Forbidden, 'export.noDownloadRight');
    // The end second is included whole, as for fixes and sensor records.
    const { from, to } = checkedRange(caller, body);
    return { device, q: within(device, from, to, caller.zone) };
  }

  async poiPage(caller: Caller, body: PoiListBody): Promise<Page<Poi>> {
    const { device, q } = await this.query(caller, body);
    if (!q) return { List: [], Total: 0 };
    const [total, rows] = await Promise.all([
      this.records.poiCount(q),
      this.records.poiPage(q, {
        column: body.sortField === 'Name' ? 'name' : 'record_time',
        descending: body.sortOrder !== 'ascend',
        limit: body.pageSize,
        offset: (body.currentPage - 1) * body.pageSize,
      }),
    ]);
    return { List: rows.map((r) => poiOf(r, device.imei, caller.zone)), Total: total };
  }

  /** The POIs of the range as one GeoJSON or GPX file, oldest first, streamed (the caller holding DownloadData on the phone). */
  async poiExport(caller: Caller, body: PoiExportBody): Promise<FileAnswer> {
    const { device, q } = await this.query(caller, body, 'DownloadData');
    const records = this.records;
    const pages = async function* () {
      if (!q) return;
      for (let offset = 0; ; offset += POI_EXPORT_PAGE) {
        const rows = await records.poiPage(q, { column: 'record_time', descending: false, limit: POI_EXPORT_PAGE, offset });
        if (rows.length) yield rows;
        if (rows.length < POI_EXPORT_PAGE) return;
      }
    };
    const stream = new PassThrough();
    writePois(body.fileType, device, pages(), stream).catch((err: unknown) => {
      if (!stream.destroyed) stream.destroy(err as Error);
    });
    return { name: `${fileCaption(device.caption, device.imei)}-POI(${device.imei}).${body.fileType}`, stream };
  }

  private filter(body: BehaviorCountBody) {
    return { motionId: body.motionId, recorder: body.recorder === undefined ? undefined : Number(body.recorder) };
  }

  async behaviorCount(caller: Caller, body: BehaviorCountBody): Promise<number> {
    const { q } = await this.query(caller, body);
    return q ? this.records.behaviorCount(q, this.filter(body)) : 0;
  }

  async behaviorPage(caller: Caller, body: BehaviorListBody): Promise<Page<Behavior>> {
    const { q } = await this.query(caller, body);
    if (!q) return { List: [], Total: 0 };
    const f = this.filter(body);
    const [total, rows] = await Promise.all([
      this.records.behaviorCount(q, f),
      this.records.behaviorPage(q, f, {
        column: body.sortField === 'EndTime' ? 'end_time' : 'start_time',
        descending: body.sortOrder !== 'ascend',
        limit: body.pageSize,
        offset: (body.currentPage - 1) * body.pageSize,
      }),
    ]);
    return {
      List: rows.map((r) => ({
        Id: r.id,
        IdStr: String(r.id),
        Recorder: String(r.recorder),
        RecorderName: r.recorder_name,
        Longitude: r.lon,
        Latitude: r.lat,
        StartTime: formatTime(r.start_time, caller.zone),
        EndTime: formatTime(r.end_time, caller.zone),
        Motion: motionOf(r.motion, caller.lang),
      })),
      Total: total,
    };
  }

  async filters(caller: Caller, imei: string): Promise<z.output<typeof calls.GetBehaviorFilters.data>> {
    const device = await this.devices.resolve(caller, imei);
    const q = within(device, 0, Number.MAX_SAFE_INTEGER);
    const [motions, recorders] = await Promise.all([this.records.motions(Number(device.org_id)), q ? this.records.recorders(q) : []]);
    return {
      Motions: motions.map((m) => motionOf(m, caller.lang)),
      Recorders: recorders.map((r) => ({ Recorder: String(r.recorder), RecorderName: r.recorder_name })),
    };
  }

  /**
   * The file of a POI photo the caller may see: a photo of a POI of the device inside the caller's window.
   * The path is built from the device's id and a name of 64 hex digits; undefined for anything else.
   */
  async photo(caller: Caller, imei: string, name: string): Promise<{ deviceId: number; name: string } | undefined> {
    if (!PHOTO_NAME.test(name)) return undefined;
    // A device the caller can't see is a photo that doesn't exist, as for any other picture.
    const device = await this.devices.resolve(caller, imei).catch((err: unknown) => {
      if (err instanceof AppError) return undefined;
      throw err;
    });
    if (!device) return undefined;
    const q = within(device, 0, Number.MAX_SAFE_INTEGER);
    if (!q || !(await this.records.hasPhoto(q, name))) return undefined;
    return { deviceId: q.deviceId, name };
  }
}
