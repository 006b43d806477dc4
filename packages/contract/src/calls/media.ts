import { z } from 'zod';
import { defineCall } from '../call.js';
import { orderedRange, PageSchema, SortOrderSchema, TimeTextSchema, TimeZoneField } from '../paging.js';
import { ImeiSchema as imei } from '../validation.js';

/**
 * Audio recordings (§3 Media fix, §7.2 Sensors: ConvertPDMToWAV, BatchDownloadWAV). A recording is named
 * by its device and its pick time (text in the caller's zone, to the second, as the audio list shows it).
 * PDM recordings are converted on the server to 16-bit mono WAV at WAV_RATE (CIC + FIR decimation),
 * once: the WAV is kept beside the PDM and served again. Both calls need the device read right; a share's
 * recipient reaches only the recordings inside the share's window.
 */

/** The rate PDM recordings are converted to, Hz. */
export const WAV_RATE = 16_000;
/** The most recordings one batch download holds. */
export const BATCH_WAV_MAX = 100;
/**
 * Where converted recordings are served from to an <audio> element (by the session cookie, like pictures):
 * `${MEDIA_FILES_URL}/<encoded imei>/audio-<pick time epoch ms>.wav`.
 */
export const MEDIA_FILES_URL = '/prod-api/files/media';

export const ConvertPDMToWAV = defineCall({
  path: '/api/Sensor/ConvertPDMToWAV',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei, pickTime: TimeTextSchema, timeZone: TimeZoneField }),
  data: z.object({
    /** Where the WAV is served from (MEDIA_FILES_URL). */
    Url: z.string(),
    /** The WAV's size in bytes. */
    Size: z.number().int(),
    Rate: z.number().int(),
    BitDepth: z.number().int(),
    /** Seconds of audio. */
    Duration: z.number(),
  }),
  summary: 'Converts a PDM audio recording to WAV (once; kept and served again) and answers where the WAV is served from.',
});

/**
 * A download (§7.1: posted, answered with the file): a zip of the chosen recordings of one device as WAV,
 * streamed; named `audio-wav(<IMEI>).zip`. Refusals are the envelope as for any call.
 */
export const BatchDownloadWAV = defineCall({
  path: '/api/Sensor/BatchDownloadWAV',
  auth: 'session',
  access: 'device read',
  body: z.object({ imei, pickTimes: z.array(TimeTextSchema).min(1).max(BATCH_WAV_MAX), timeZone: TimeZoneField }),
  data: z.null(),
  download: { type: 'application/zip' },
  timeout: 'long',
  summary: 'Downloads the chosen audio recordings of a device as a zip of WAV files (PDM converted first).',
});

/**
 * Media lists (§3 Media fix, §7.2 Sensors: image, video and audio counts and lists, GetImageAll,
 * GetVideoAll, GetAudioAll). A media fix is the file a device took and where and when it took it. Times in
 * the caller's zone, to the second; the range's end second included whole. Every call needs the device
 * read right and the kind's sensor flag (Image, Video, Audio; else 601 naming the device's field); a
 * share's recipient sees only what was taken inside the share's window.
 *
 * Files are served by the session cookie (as pictures): `${MEDIA_FILES_URL}/<encoded imei>/<name>` where
 * the name is one the server gives (`image-<epoch ms>.jpg`, `thumb-<epoch ms>.jpg`, ...), never one a
 * device sent.
 */
export const MEDIA_KINDS = ['image', 'video', 'audio'] as const;
export type MediaKindCall = (typeof MEDIA_KINDS)[number];
/** The sensor flag that offers each media kind (§3 Sensor support flags). */
export const MEDIA_FLAGS = { image: 'Image', video: 'Video', audio: 'Audio' } as const;
/** The most media fixes one Get<Kind>All answers (newest first); Total says how many the range holds. */
export const MEDIA_ALL_MAX = 1000;
/** The most devices one Get<Kind>All names. */
export const MEDIA_ALL_DEVICES = 50;
/** The longest side of a thumbnail the server makes, px. */
export const THUMB_SIZE = 320;
export const MEDIA_SORT_FIELDS = ['Time', 'Size'] as const;

const mediaFix = {
  IMEI: z.string(),
  /** When it was taken, caller's zone, 'YYYY-MM-DD HH:mm:ss'. */
  PickTime: z.string(),
  Longitude: z.number().nullable(),
  Latitude: z.number().nullable(),
  /** Metres. */
  Altitude: z.number().nullable(),
  /** Where the file as the device sent it is served from. */
  Url: z.string(),
  /** Its size in bytes. */
  Size: z.number().int(),
  /** Its media type as the device declared it ('image/jpeg', 'video/mp4', 'audio/x-pdm', ...). */
  Mime: z.string(),
};
export const ImageFixSchema = z.object({
  ...mediaFix,
  Width: z.number().int().nullable(),
  Height: z.number().int().nullable(),
  /** A JPEG at most THUMB_SIZE on its longest side, made by the server (kept after the first request). */
  ThumbUrl: z.string(),
});
export const VideoFixSchema = z.object({ ...mediaFix, Width: z.number().int().nullable(), Height: z.number().int().nullable(), Duration: z.number().nullable() });
export const AudioFixSchema = z.object({
  ...mediaFix,
  /** Samples per second as recorded (a PDM recording's bit clock). */
  Rate: z.number().int().nullable(),
  /** Bits per sample as recorded (PDM: 1). */
  BitDepth: z.number().int().nullable(),
  /** Channels. */
  Track: z.number().int().nullable(),
  Duration: z.number().nullable(),
  /** True for a PDM recording, which plays once converted (ConvertPDMToWAV). */
  Pdm: z.boolean(),
  /** Where a playable WAV is served from: the recording itself when it is a WAV, its conversion once made; '' otherwise. */
  OssFile: z.string(),
});
export type ImageFix = z.infer<typeof ImageFixSchema>;
export type VideoFix = z.infer<typeof VideoFixSchema>;
export type AudioFix = z.infer<typeof AudioFixSchema>;
export const MEDIA_FIX_SCHEMAS = { image: ImageFixSchema, video: VideoFixSchema, audio: AudioFixSchema } as const;
export type MediaFixOf<K extends MediaKindCall> = z.infer<(typeof MEDIA_FIX_SCHEMAS)[K]>;

const mediaRange = { imei, startTime: TimeTextSchema, endTime: TimeTextSchema, timeZone: TimeZoneField };

function mediaCalls<K extends MediaKindCall>(kind: K, name: string) {
  const fix = MEDIA_FIX_SCHEMAS[kind];
  return {
    count: defineCall({
      path: `/api/Sensor/Get${name}Count`,
      auth: 'session',
      access: 'device read',
      body: z.object(mediaRange).superRefine(orderedRange),
      data: z.object({ Count: z.number().int() }),
      summary: `How many ${kind} files a device took in the range.`,
    }),
    list: defineCall({
      path: `/api/Sensor/Get${name}List`,
      auth: 'session',
      access: 'device read',
      body: z
        .object({ ...mediaRange, ...PageSchema, sortField: z.enum(MEDIA_SORT_FIELDS).optional(), sortOrder: SortOrderSchema.optional() })
        .superRefine(orderedRange),
      data: z.object({ List: z.array(fix), Total: z.number().int() }),
      summary: `One page of the ${kind} files a device took in the range, with their media fixes (time descending by default).`,
    }),
    all: defineCall({
      path: `/api/Sensor/Get${name}All`,
      auth: 'session',
      access: 'device read',
      body: z
        .object({ imeis: z.array(imei).min(1).max(MEDIA_ALL_DEVICES), startTime: TimeTextSchema, endTime: TimeTextSchema, timeZone: TimeZoneField })
        .superRefine(orderedRange),
      data: z.object({ List: z.array(fix), Total: z.number().int() }),
      summary: `The ${kind} files several devices took in the range, newest first, at most ${MEDIA_ALL_MAX} (Total: how many the range holds).`,
    }),
  };
}

const image = mediaCalls('image', 'Image');
const video = mediaCalls('video', 'Video');
const audio = mediaCalls('audio', 'Audio');
export const GetImageCount = image.count;
export const GetImageList = image.list;
export const GetImageAll = image.all;
export const GetVideoCount = video.count;
export const GetVideoList = video.list;
export const GetVideoAll = video.all;
export const GetAudioCount = audio.count;
export const GetAudioList = audio.list;
export const GetAudioAll = audio.all;
/** The count, list and all call of each media kind, by kind (the server registers them from here). */
export const MEDIA_CALLS = { image, video, audio } as const;
