import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import {
  type calls,
  formatTime,
  MEDIA_ALL_MAX,
  MEDIA_FILES_URL,
  MEDIA_FLAGS,
  MediaKind,
  type MediaFixOf,
  type MediaKindCall,
  message,
  parseTime,
  SensorFlag,
  THUMB_SIZE,
  WAV_RATE,
} from '@wildtrack/contract';
import sharp from 'sharp';
import yazl from 'yazl';
import type { z } from 'zod';
import type { Caller } from '../../http/caller.js';
import type { FileAnswer } from '../../http/calls.js';
import { FieldRefusal } from '../../http/errors.js';
import { checkedRange } from '../../http/range.js';
import { clampAsked, clampToWindow, inWindow } from '../device/access.js';
import type { DeviceGate, ResolvedDevice } from '../device/gate.js';
import { convertPdmFile, PdmRateError, wavSizeOf } from './pdm.js';
import { type MediaQuery, type MediaRepository, type MediaRow, type RecordingRow, ThumbStatus } from './repository.js';
import { now as clockNow } from '../../lib/clock.js';

/** A count call's body (every kind's count takes the same body). */
export type MediaRangeBody = z.output<typeof calls.GetImageCount.body>;
export type MediaPageBody = z.output<typeof calls.GetImageList.body>;
export type MediaAllBody = z.output<typeof calls.GetImageAll.body>;

/** The only relative names storeMedia gives files: media/<device id>/<kind>-<epoch ms>.<ext>. */
const STORED_MEDIA = /^media\/(\d+)\/(image|video|audio)-(\d+)\.([a-z0-9]{1,5})$/;
/** The names the file route answers: a stored file by its kind, time and extension, or an image's thumbnail. */
const SERVED_NAME = /^(image|video|audio|thumb)-(\d{1,16})\.([a-z0-9]{1,5})$/;
/**
 * The type a served file is sent with, by the extension the server gave it (never the type a device
 * declared: a device saying 'text/html' must not make the console's origin serve a page).
 */
const SERVED_TYPE: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  mp4: 'video/mp4',
  webm: 'video/webm',
  wav: 'audio/wav',
};

/** A file the route may send: where it is, its size and the type to send it with. */
export interface ServedFile {
  file: string;
  size: number;
  type: string;
}

sharp.cache(false);

const PDM_MIME = 'audio/x-pdm';
const WAV_MIMES = new Set(['audio/wav', 'audio/x-wav']);
/** The only relative names storeMedia gives audio files: media/<device id>/audio-<epoch ms>.<ext>. */
const STORED_AUDIO = /^media\/(\d+)\/audio-(\d+)\.(pdm|wav)$/;

/** A thumbnail claim older than this whose thumbnail never came (its process stopped) is given up and made again. */
const THUMB_CLAIM_STALE_MS = 10 * 60_000;
/**
 * How far before the latest arrival it saw a pass looks again for images without a thumbnail: a record's
 * received_at is taken before its ingest transaction commits, so a record may become visible after a later one.
 */
const THUMB_SCAN_MARGIN_MS = 10 * 60_000;

/** A recording's WAV on disk, ready to serve. */
export interface Wav {
  file: string;
  size: number;
  pickTime: number;
}

/** A recording in a batch zip: its WAV's size (known before a byte is sent) and, when asked, its bytes. */
interface BatchEntry {
  pickTime: number;
  size: number;
  open: () => Readable;
}

/** Text safe as a file name on any system and inside a zip: letters, digits, '.', '_' and '-' only. */
export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^\.+/, '_') || '_';
}

/**
 * Audio recordings as WAV (§7.2 ConvertPDMToWAV, BatchDownloadWAV): a PDM recording is converted once,
 * the WAV kept beside the PDM (media/<device>/audio-<t>.wav) and served again; a WAV recording is served as
 * it came. Paths are built from the device's id and the pick time, never from a name a device sent.
 */
export class MediaService {
  /** Conversions running in this process, by WAV path: a second caller waits for the first's. */
  private readonly running = new Map<string, Promise<void>>();
  /** Images that arrived before this (ms, less the margin) were all looked at by this process's passes. */
  private thumbsSince = 0;

  constructor(
    private readonly dataDir: string,
    private readonly devices: DeviceGate,
    private readonly records: MediaRepository,
  ) {}

  /** The recording of a device the caller can see, picked in the second `text` names (caller's zone); refusals name `field`. */
  private async recording(caller: Caller, device: ResolvedDevice, text: string, field: (string | number)[]): Promise<RecordingRow> {
    const at = parseTime(text, caller.zone);
    if (at === null) throw new FieldRefusal(field, 'validation.time');
    const { from, to } = clampToWindow({ from: at, to: at + 999 }, device.access);
    const row = from <= to ? await this.records.recording(Number(device.id), from, to) : undefined;
    if (!row) throw new FieldRefusal(field, 'media.noRecording');
    return row;
  }

  /** The recording's WAV: converted from its PDM the first time, then the kept one. */
  private async wavOf(deviceId: number, row: RecordingRow, field: (string | number)[]): Promise<Wav> {
    const m = STORED_AUDIO.exec(row.file);
    if (!m || Number(m[1]) !== deviceId) throw new FieldRefusal(field, 'media.notConvertible');
    const stored = path.join(this.dataDir, 'media', String(deviceId), `audio-${m[2]}.${m[3]}`);
    let file: string;
    if (WAV_MIMES.has(row.mime) && m[3] === 'wav') file = stored;
    else if (row.mime === PDM_MIME && m[3] === 'pdm' && row.rate !== null) {
      file = path.join(this.dataDir, 'media', String(deviceId), `audio-${m[2]}.wav`);
      if (!fs.existsSync(file)) await this.convert(stored, file, row.rate, field);
    } else throw new FieldRefusal(field, 'media.notConvertible');
    return { file, size: (await fs.promises.stat(file)).size, pickTime: row.pick_time };
  }

  private async convert(src: string, dst: string, rate: number, field: (string | number)[]): Promise<void> {
    let job = this.running.get(dst);
    if (!job) {
      job = convertPdmFile(src, dst, rate, WAV_RATE).then(() => undefined);
      this.running.set(dst, job);
      void job.finally(() => this.running.delete(dst)).catch(() => undefined);
    }
    try {
      await job;
    } catch (err) {
      if (err instanceof PdmRateError) throw new FieldRefusal(field, 'media.notConvertible');
      throw err;
    }
  }

  /** ConvertPDMToWAV: the recording as WAV and where it is served from. */
  async convertToWav(caller: Caller, imei: string, pickTime: string): Promise<{ Url: string; Size: number; Rate: number; BitDepth: number; Duration: number }> {
    const device = await this.devices.resolve(caller, imei);
    const wav = await this.wavOf(Number(device.id), await this.recording(caller, device, pickTime, ['pickTime']), ['pickTime']);
    const { rate, samples } = await wavFormat(wav.file);
    return {
      Url: `${MEDIA_FILES_URL}/${encodeURIComponent(device.imei)}/audio-${wav.pickTime}.wav`,
      Size: wav.size,
      Rate: rate,
      BitDepth: 16,
      Duration: rate > 0 ? samples / rate : 0,
    };
  }

  /** The WAV of the device's recording at `t` (converted if need be), if it has one. */
  private async servedWavOf(deviceId: number, t: number): Promise<Wav | undefined> {
    const row = await this.records.recording(deviceId, t, t);
    if (!row) return undefined;
    return this.wavOf(deviceId, row, ['pickTime']).catch(() => undefined);
  }

  /**
   * A recording as a batch entry: a WAV (kept, or as the device sent it) streamed from disk; a PDM
   * recording not converted yet is converted (a chunk at a time, into its kept WAV) when the zip reaches
   * it, then streamed from that file (the next ConvertPDMToWAV or batch serves the kept WAV). Whether it converts at all is checked here,
   * before any byte of the zip is sent: a refusal names `field`.
   */
  private async batchEntry(deviceId: number, row: RecordingRow, field: (string | number)[]): Promise<BatchEntry> {
    const m = STORED_AUDIO.exec(row.file);
    if (!m || Number(m[1]) !== deviceId) throw new FieldRefusal(field, 'media.notConvertible');
    const dir = path.join(this.dataDir, 'media', String(deviceId));
    const stored = path.join(dir, `audio-${m[2]}.${m[3]}`);
    const pickTime = row.pick_time;
    const fromDisk = (file: string, size: number): BatchEntry => ({ pickTime, size, open: () => fs.createReadStream(file) });
    if (WAV_MIMES.has(row.mime) && m[3] === 'wav') return fromDisk(stored, (await fs.promises.stat(stored)).size);
    if (row.mime !== PDM_MIME || m[3] !== 'pdm' || row.rate === null) throw new FieldRefusal(field, 'media.notConvertible');
    const wav = path.join(dir, `audio-${m[2]}.wav`);
    const kept = await fs.promises.stat(wav).then((st) => st.size, () => -1);
    if (kept >= 0) return fromDisk(wav, kept);
    let size: number;
    try {
      size = wavSizeOf((await fs.promises.stat(stored)).size, row.rate, WAV_RATE).bytes;
    } catch (err) {
      if (err instanceof PdmRateError) throw new FieldRefusal(field, 'media.notConvertible');
      throw err;
    }
    const rate = row.rate;
    return { pickTime, size, open: () => Readable.from(this.converting(stored, wav, rate), { objectMode: false, highWaterMark: 64 * 1024 }) };
  }

  /**
   * A PDM recording's WAV bytes: converted to its kept file first (a chunk of PDM at a time; a conversion
   * of it already running in this process is waited for), then read from that file as a kept WAV is.
   * Converting straight into the zip held every PCM chunk twice, in the file's write queue and the
   * socket's, long enough to outlive the young generation: the process grew with the batch until a full
   * collection (bench/sensors batchwav: +7-15 MB for 100 recordings against +0.1 MB for 10).
   */
  private async *converting(src: string, dst: string, rate: number): AsyncGenerator<Buffer> {
    if (!fs.existsSync(dst)) await this.convert(src, dst, rate, ['pickTimes']);
    for await (const chunk of fs.createReadStream(dst)) yield chunk as Buffer;
  }

  /**
   * BatchDownloadWAV: every chosen recording found and checked first (a refusal names the time at fault
   * before a byte is sent), then a zip streamed entry by entry: a kept WAV from disk, a PDM recording
   * converted when its entry is reached (PDM read in chunks through the decimator into its kept WAV), then
   * sent from that file.
   * No recording is held whole: memory stays flat whatever the count (bench/sensors batchwav).
   */
  async batch(caller: Caller, imei: string, pickTimes: readonly string[]): Promise<FileAnswer> {
    const device = await this.devices.resolve(caller, imei);
    const entries: BatchEntry[] = [];
    const seen = new Set<number>();
    for (const [i, text] of pickTimes.entries()) {
      const row = await this.recording(caller, device, text, ['pickTimes', i]);
      if (seen.has(row.pick_time)) continue;
      seen.add(row.pick_time);
      entries.push(await this.batchEntry(Number(device.id), row, ['pickTimes', i]));
    }
    const zip = new yazl.ZipFile();
    const prefix = safeName(device.imei);
    for (const entry of entries) {
      const when = formatTime(entry.pickTime, caller.zone).replace(/[-:]/g, '').replace(' ', '-');
      // yazl reads the entries one after another and asks for an entry's stream when it reaches it: only
      // then is its file opened or its conversion begun. WAV hardly deflates and the client waits for it:
      // stored, not compressed.
      zip.addReadStreamLazy(`${prefix}-audio-${when}.wav`, { compress: false, size: entry.size, mtime: new Date(entry.pickTime) }, (cb) => cb(null, entry.open()));
    }
    zip.end();
    const out = new PassThrough();
    zip.outputStream.on('error', (err) => out.destroy(err)).pipe(out);
    return { name: `audio-wav(${device.imei}).zip`, stream: out };
  }

  // ---- media fixes (§3 Media fix) --------------------------------------------------------------

  /**
   * One device's records of a kind the caller may see in the range: the range checked (real times, at
   * most MAX_QUERY_SPAN_DAYS, the end second whole), the device offering the kind's sensor flag (601
   * naming `field`), clamped to a share's window. Undefined when nothing of the range is visible.
   */
  private mediaQuery(caller: Caller, device: ResolvedDevice, kind: MediaKindCall, body: { startTime: string; endTime: string }, field: (string | number)[]): MediaQuery | undefined {
    const { from, to } = checkedRange(caller, body);
    const flag = MEDIA_FLAGS[kind];
    if ((Number(device.sensors) & SensorFlag[flag]) === 0) throw new FieldRefusal(field, 'sensor.none', { sensor: message(caller.lang, `sensor.${flag}`) });
    const q = { deviceId: Number(device.id), kind: MediaKind[kind], ...clampAsked({ from, to }, device.access, caller.zone) };
    return q.from <= q.to ? q : undefined;
  }

  /** A stored record as its media fix: the server's own names for its files, times in the caller's zone. */
  private fixOf<K extends MediaKindCall>(kind: K, device: ResolvedDevice, row: MediaRow, zone: string): MediaFixOf<K> {
    const base = `${MEDIA_FILES_URL}/${encodeURIComponent(device.imei)}`;
    const m = STORED_MEDIA.exec(row.file);
    const url = m && Number(m[1]) === Number(device.id) ? `${base}/${m[2]}-${m[3]}.${m[4]}` : '';
    const fix = {
      IMEI: device.imei,
      PickTime: formatTime(row.pick_time, zone),
      Longitude: row.lon,
      Latitude: row.lat,
      Altitude: row.alt,
      Url: url,
      Size: row.size,
      Mime: row.mime,
    };
    if (kind === 'image') return { ...fix, Width: row.width, Height: row.height, ThumbUrl: `${base}/thumb-${row.pick_time}.jpg` } as MediaFixOf<K>;
    if (kind === 'video') return { ...fix, Width: row.width, Height: row.height, Duration: row.duration } as MediaFixOf<K>;
    const pdm = row.mime === PDM_MIME;
    const wav = WAV_MIMES.has(row.mime)
      ? url
      : pdm && fs.existsSync(path.join(this.dataDir, 'media', String(Number(device.id)), `audio-${row.pick_time}.wav`))
        ? `${base}/audio-${row.pick_time}.wav`
        : '';
    return { ...fix, Rate: row.rate, BitDepth: row.bit_depth, Track: row.track, Duration: row.duration, Pdm: pdm, OssFile: wav } as MediaFixOf<K>;
  }

  async mediaCount(caller: Caller, kind: MediaKindCall, body: MediaRangeBody): Promise<number> {
    const device = await this.devices.resolve(caller, body.imei);
    const q = this.mediaQuery(caller, device, kind, body, ['imei']);
    return q ? this.records.count(q) : 0;
  }

  async mediaPage<K extends MediaKindCall>(caller: Caller, kind: K, body: MediaPageBody): Promise<{ List: MediaFixOf<K>[]; Total: number }> {
    const device = await this.devices.resolve(caller, body.imei);
    const q = this.mediaQuery(caller, device, kind, body, ['imei']);
    if (!q) return { List: [], Total: 0 };
    const [total, rows] = await Promise.all([
      this.records.count(q),
      this.records.page(q, {
        column: body.sortField === 'Size' ? 'size' : 'pick_time',
        descending: body.sortOrder !== 'ascend',
        limit: body.pageSize,
        offset: (body.currentPage - 1) * body.pageSize,
      }),
    ]);
    return { List: rows.map((r) => this.fixOf(kind, device, r, caller.zone)), Total: total };
  }

  /** Get<Kind>All: every named device's records of the range, newest first, at most MEDIA_ALL_MAX. */
  async mediaAll<K extends MediaKindCall>(caller: Caller, kind: K, body: MediaAllBody): Promise<{ List: MediaFixOf<K>[]; Total: number }> {
    const devices = await this.devices.resolveMany(caller, body.imeis);
    const wanted = body.imeis.map((i) => i.trim());
    let total = 0;
    const found: { device: ResolvedDevice; row: MediaRow }[] = [];
    for (const device of devices) {
      const q = this.mediaQuery(caller, device, kind, body, ['imeis', Math.max(0, wanted.indexOf(device.imei))]);
      if (!q) continue;
      total += await this.records.count(q);
      for (const row of await this.records.page(q, { column: 'pick_time', descending: true, limit: MEDIA_ALL_MAX, offset: 0 })) found.push({ device, row });
    }
    found.sort((a, b) => b.row.pick_time - a.row.pick_time || a.device.imei.localeCompare(b.device.imei));
    return { List: found.slice(0, MEDIA_ALL_MAX).map(({ device, row }) => this.fixOf(kind, device, row, caller.zone)), Total: total };
  }

  /**
   * The file behind a name the server gave (a fix's Url, ThumbUrl or OssFile), for a caller who may read
   * the device and whose share window holds the time; undefined otherwise (the route answers "not found").
   * The path is built from the device's id, the kind and the time, never from the name asked for.
   */
  async servedFile(caller: Caller, imei: string, name: string): Promise<ServedFile | undefined> {
    const m = SERVED_NAME.exec(name);
    if (!m) return undefined;
    const [, what, time, ext] = m as unknown as [string, 'image' | 'video' | 'audio' | 'thumb', string, string];
    const device = await this.devices.resolve(caller, imei).catch(() => undefined);
    if (!device) return undefined;
    const t = Number(time);
    if (!inWindow(t, device.access)) return undefined;
    const id = Number(device.id);
    if (what === 'audio' && ext === 'wav') {
      const wav = await this.servedWavOf(id, t);
      return wav && { file: wav.file, size: wav.size, type: 'audio/wav' };
    }
    const row = await this.records.one(id, MediaKind[what === 'thumb' ? 'image' : what], t);
    const stored = row && STORED_MEDIA.exec(row.file);
    if (!row || !stored || Number(stored[1]) !== id) return undefined;
    const file = path.join(this.dataDir, 'media', String(id), `${stored[2]}-${stored[3]}.${stored[4]}`);
    if (what === 'thumb') {
      if (ext !== 'jpg') return undefined;
      const thumb = await this.thumbnail(file, id, t).catch(() => undefined);
      return thumb === undefined ? undefined : { file: thumb, size: (await fs.promises.stat(thumb)).size, type: 'image/jpeg' };
    }
    if (ext !== stored[4]) return undefined;
    const size = await fs.promises.stat(file).then((st) => st.size, () => -1);
    return size < 0 ? undefined : { file, size, type: SERVED_TYPE[ext] ?? 'application/octet-stream' };
  }

  /**
   * One pass of the thumbnail job (jobs/thumbnails.ts): up to `limit` images that arrived without a
   * thumbnail, the latest first, each claimed in the database (media_thumbs) so that two server processes
   * never make the same one, made as the file route would make it on first request, and marked made (or
   * not an image: not tried again). Claims whose process stopped are given up and made again. Answers how
   * many it made and whether more are waiting. The file route still makes a thumbnail the job has not
   * reached yet.
   */
  async makeThumbnails(limit = 20, now = clockNow()): Promise<{ made: number; more: boolean }> {
    if ((await this.records.expireThumbClaims(now - THUMB_CLAIM_STALE_MS)) > 0) this.thumbsSince = 0;
    const latest = await this.records.latestImageArrival();
    const wanted = await this.records.thumbsWanted(this.thumbsSince, limit);
    let made = 0;
    for (const w of wanted) {
      if (!(await this.records.claimThumb(w.device_id, w.pick_time, now))) continue;
      const stored = STORED_MEDIA.exec(w.file);
      let status: number = ThumbStatus.NotAnImage;
      if (stored && Number(stored[1]) === w.device_id && stored[2] === 'image') {
        const src = path.join(this.dataDir, 'media', String(w.device_id), `image-${stored[3]}.${stored[4]}`);
        if (await this.thumbnail(src, w.device_id, w.pick_time).then(() => true, () => false)) {
          status = ThumbStatus.Made;
          made++;
        }
      }
      await this.records.thumbDone(w.device_id, w.pick_time, status);
    }
    const more = wanted.length === limit;
    // every image that had arrived when the pass began was looked at: the next pass starts near there
    if (!more) this.thumbsSince = Math.max(this.thumbsSince, latest - THUMB_SCAN_MARGIN_MS);
    return { made, more };
  }

  /** An image's thumbnail (sharp: EXIF-rotated, at most THUMB_SIZE a side, JPEG), made once and kept under thumbs/. */
  private async thumbnail(src: string, deviceId: number, t: number): Promise<string> {
    const dst = path.join(this.dataDir, 'thumbs', String(deviceId), `image-${t}-${THUMB_SIZE}.jpg`);
    if (fs.existsSync(dst)) return dst;
    let job = this.running.get(dst);
    if (!job) {
      job = (async () => {
        await fs.promises.mkdir(path.dirname(dst), { recursive: true });
        // Date.now() here makes a unique name, not a time: a fixed clock (lib/clock.ts) would repeat it.
        const tmp = `${dst}.${process.pid}.${Date.now()}.tmp`;
        try {
          await sharp(src).rotate().resize(THUMB_SIZE, THUMB_SIZE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 80, mozjpeg: true }).toFile(tmp);
          await fs.promises.rename(tmp, dst);
        } finally {
          await fs.promises.rm(tmp, { force: true });
        }
      })();
      this.running.set(dst, job);
      void job.finally(() => this.running.delete(dst)).catch(() => undefined);
    }
    await job;
    return dst;
  }
}

/** The rate and sample count of a 16-bit mono WAV written by convertPdmFile (or a device: read from its header). */
async function wavFormat(file: string): Promise<{ rate: number; samples: number }> {
  const fd = await fs.promises.open(file, 'r');
  try {
    const head = Buffer.alloc(44);
    await fd.read(head, 0, 44, 0);
    const rate = head.readUInt32LE(24);
    const blockAlign = head.readUInt16LE(32) || 2;
    const dataBytes = head.toString('latin1', 36, 40) === 'data' ? head.readUInt32LE(40) : (await fd.stat()).size - 44;
    return { rate, samples: Math.floor(dataBytes / blockAlign) };
  } finally {
    await fd.close();
  }
}
