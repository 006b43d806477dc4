import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { ACCELERATION_ARCHIVE_DAYS, ACCELERATION_FLAGS, type ArchiveRecord, Code, formatTime, SensorFlag } from '@wildtrack/contract';
import { DAY_MS } from '../../domain/track-days.js';
import type { Caller } from '../../http/caller.js';
import type { FileAnswer } from '../../http/calls.js';
import { AppError } from '../../http/errors.js';
import { clampToWindow } from '../device/access.js';
import type { DeviceGate, ResolvedDevice } from '../device/gate.js';
import type { AccelerationService } from '../sensor/acceleration.js';
import type { ArchiveRepository, ArchiveRow } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

/** A claim older than this whose file never finished is given up (its process stopped) and made again. */
const STALE_CLAIM_MS = 30 * 60_000;
/** The zone an archive's times are written in: its day is a UTC day. */
const UTC = '+00:00';

const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
const dayOf = (date: string) => Math.floor(Date.parse(`${date}T00:00:00Z`) / DAY_MS);

/**
 * Daily ACC archives (§3 ArchiveRecord, §9 Archive: the last 3 days): after each UTC day closes, a file of
 * each acceleration device's bursts of that day (the download's CSV, times in UTC) is written by the job,
 * with its sample count and size; readers list and download the last ACCELERATION_ARCHIVE_DAYS closed days
 * of a device they may read (a share's recipient only the days its window touches, and of a day its window
 * cuts only the bursts inside the window: the file is made again for them from the bursts, issue 26 L6).
 */
export class ArchiveService {
  constructor(
    private readonly dataDir: string,
    private readonly devices: DeviceGate,
    private readonly archives: ArchiveRepository,
    private readonly acceleration: AccelerationService,
  ) {}

  private fileOf(deviceId: number, day: number): string {
    return path.join(this.dataDir, 'archives', 'acc', String(deviceId), `${dateOf(day)}.csv`);
  }

  /** The days listed now: the last ACCELERATION_ARCHIVE_DAYS closed UTC days. */
  private window(now: number): { fromDay: number; toDay: number } {
    const today = Math.floor(now / DAY_MS);
    return { fromDay: today - ACCELERATION_ARCHIVE_DAYS, toDay: today - 1 };
  }

  /**
   * One pass of the job: expired rows and files removed, then every closed day of the window that an
   * acceleration device has bursts for and no archive yet is claimed and written. Answers the files written.
   */
  async tick(now = clockNow()): Promise<number> {
    const { fromDay, toDay } = this.window(now);
    for (const gone of await this.archives.expire(fromDay, now - STALE_CLAIM_MS)) {
      await fs.promises.rm(this.fileOf(gone.device_id, dayOf(path.basename(gone.file, '.csv'))), { force: true });
    }
    const mask = ACCELERATION_FLAGS.reduce((m, f) => m | SensorFlag[f], 0);
    let written = 0;
    for (const device of await this.archives.devicesWithSensors(mask)) {
      const have = await this.archives.days(device.id, fromDay, toDay);
      for (let day = fromDay; day <= toDay; day++) {
        if (have.has(day)) continue;
        const from = day * DAY_MS;
        const to = from + DAY_MS - 1;
        if (!(await this.acceleration.hasBursts(device.id, from, to))) continue;
        const file = this.fileOf(device.id, day);
        if (!(await this.archives.claim(device.id, day, path.basename(file), now))) continue;
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        const partial = `${file}.part`;
        let records = 0;
        const csv = this.acceleration.csv(device.id, device.imei, from, to, UTC);
        csv.on('data', (chunk: string | Buffer) => {
          // A line per sample after the header: count the line ends.
          const text = String(chunk);
          for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) records++;
        });
        await pipeline(csv, fs.createWriteStream(partial));
        await fs.promises.rename(partial, file);
        const { size } = await fs.promises.stat(file);
        await this.archives.finish(device.id, day, records - 1, size, clockNow());
        written++;
      }
    }
    return written;
  }

  /** The archive days a caller may see of the device: the window, cut to a share's. */
  private visibleDays(device: ResolvedDevice, now: number): { fromDay: number; toDay: number } {
    const { fromDay, toDay } = this.window(now);
    // The days the window's ms touch (floor is monotonic: the same days as cutting the day numbers).
    const { from, to } = clampToWindow({ from: fromDay * DAY_MS, to: toDay * DAY_MS + DAY_MS - 1 }, device.access);
    return { fromDay: Math.floor(from / DAY_MS), toDay: Math.floor(to / DAY_MS) };
  }

  /**
   * The part of a day a share's window covers, when it does not cover the whole day: [from, to] epoch ms,
   * the window's ends included as for every read of a share (sensor/service.ts visibleRange); null for a
   * whole day (the stored file is the caller's).
   */
  private cutOf(device: ResolvedDevice, day: number): { from: number; to: number } | null {
    if (device.access.kind !== 'shared') return null;
    const start = day * DAY_MS;
    const end = start + DAY_MS - 1;
    const { from, to } = clampToWindow({ from: start, to: end }, device.access);
    return from === start && to === end ? null : { from, to };
  }

  private async recordOf(device: ResolvedDevice, row: ArchiveRow, zone: string): Promise<ArchiveRecord> {
    const cut = this.cutOf(device, row.day);
    let records = row.record_count;
    let size = row.file_size;
    if (cut) {
      // the samples inside the window; the size in their proportion (the cut file is made when downloaded)
      records = await this.acceleration.sampleCount(Number(device.id), cut.from, cut.to);
      size = row.record_count > 0 ? Math.round((row.file_size * records) / row.record_count) : 0;
    }
    return {
      Id: String(row.id),
      IMEI: device.imei,
      ArchiveDate: dateOf(row.day),
      FilePath: row.file,
      RecordCount: records,
      FileSize: size,
      CreateTime: row.created_at === null ? '' : formatTime(row.created_at, zone),
    };
  }

  async count(caller: Caller, imei: string, now = clockNow()): Promise<number> {
    const device = await this.devices.resolve(caller, imei);
    const { fromDay, toDay } = this.visibleDays(device, now);
    return fromDay <= toDay ? this.archives.count(Number(device.id), fromDay, toDay) : 0;
  }

  async page(caller: Caller, imei: string, currentPage: number, pageSize: number, now = clockNow()): Promise<{ List: ArchiveRecord[]; Total: number }> {
    const device = await this.devices.resolve(caller, imei);
    const { fromDay, toDay } = this.visibleDays(device, now);
    if (fromDay > toDay) return { List: [], Total: 0 };
    const id = Number(device.id);
    const [total, rows] = await Promise.all([this.archives.count(id, fromDay, toDay), this.archives.page(id, fromDay, toDay, pageSize, (currentPage - 1) * pageSize)]);
    return { List: await Promise.all(rows.map((r) => this.recordOf(device, r, caller.zone))), Total: total };
  }

  async download(caller: Caller, imei: string, archiveDate: string, now = clockNow()): Promise<FileAnswer> {
    const device = await this.devices.resolve(caller, imei);
    const day = dayOf(archiveDate);
    const { fromDay, toDay } = this.visibleDays(device, now);
    const row = Number.isFinite(day) && day >= fromDay && day <= toDay ? await this.archives.ready(Number(device.id), day) : undefined;
    // The file's name is the job's own (a date), never a device's text.
    const file = row ? this.fileOf(Number(device.id), row.day) : undefined;
    if (!row || !file || !fs.existsSync(file)) throw new AppError(Code.NotFound, 'archive.notFound');
    const name = `acceleration(${device.imei})-${dateOf(row.day)}.csv`;
    // A day a share's window cuts: its bursts inside the window, written as the job writes the day's file.
    const cut = this.cutOf(device, row.day);
    if (cut) return { name, stream: this.acceleration.csv(Number(device.id), device.imei, cut.from, cut.to, UTC) };
    return { name, stream: fs.createReadStream(file), size: row.file_size };
  }
}
