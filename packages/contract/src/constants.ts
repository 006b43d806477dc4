import { SENSOR_KIND_NAMES, SENSOR_KINDS, type SensorKindFlag } from './sensor-kinds.js';

/** Business constants and limits of §9, named once for server and client. */

export const CLIENT_VERSION = '1.1.6';

export const REQUEST_TIMEOUT_MS = 30_000;
/** Acceleration download and batch WAV download (§7.1). */
export const LONG_REQUEST_TIMEOUT_MS = 120_000;
export const DUPLICATE_SUBMIT_WINDOW_MS = 400;
export const CODE_COUNTDOWN_S = 60;
export const EXPORT_CONFIRM_MS = 3000;
export const TIME_ZONE_KEEP_DAYS = 30;
export const VERIFICATION_EXPIRY_MIN = 5;
export const CODE_CHUNK_TIMEOUT_MS = 120_000;

export const DEFAULT_PAGE_SIZE = 20;
/** The issue picks the second reading of §9's page-size options. */
export const PAGE_SIZE_OPTIONS = [10, 20, 40, 50, 100] as const;

export const AVATAR_MAX_BYTES = 20 * 1024 * 1024;
export const AVATAR_TYPES = ['jpg', 'jpeg', 'png'] as const;
export const AVATAR_THUMB_HEIGHT = 100;
export const SHAPEFILE_MAX_BYTES = 10 * 1024 * 1024;
export const IMAGE_UPLOAD_MAX_COUNT = 6;

export const INSTRUCTIONS_PER_DEVICE_PER_DAY = 2;
export const INSTRUCTION_WITHDRAW_WINDOW_MS = 2 * 60_000;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 16;
export const CODE_LENGTH = 4;
export const EMAIL_MAX = 40;
export const PHONE_LENGTH = 11;
export const PHONE_COUNTRY_CODE = '86';
export const NICKNAME_DISPLAY_WIDTH = 22;
/** A Tianditu key is 32 hex characters today; the rule leaves room for other key formats. */
export const TDT_KEY_MAX = 64;
/** IMEI length: a tag's IMEI is 15 digits; imported tags' names may be shorter or longer. */
export const IMEI_MIN = 3;
export const IMEI_MAX = 40;

export const SECOND_LEVEL_FIX_COUNT = 10;
export const SECOND_LEVEL_FIX_INTERVAL_S = 1;

/** Battery voltage levels (§9): percent shown when the voltage is above the threshold. */
export const BATTERY_LEVELS: readonly { above: number; percent: number }[] = [
  { above: 4.2, percent: 100 },
  { above: 3.82, percent: 50 },
  { above: 3.77, percent: 30 },
  { above: 3.68, percent: 10 },
];

export function batteryPercent(voltage: number): number {
  for (const level of BATTERY_LEVELS) if (voltage > level.above) return level.percent;
  return 0;
}

export const COLLECTION_TIME_POINTS_MAX = [12, 8, 6] as const;
export const HOUR_OPTIONS: readonly string[] = Array.from(
  { length: 24 },
  (_, h) => `${String(h).padStart(2, '0')}:00`,
);

export const QUERY_SPAN_DAYS = [1, 3, 7, 15, 30, 90, 182, 365, 730, 1095, 1460, 1825, 3650] as const;

export const MAP_ZOOM_MIN = 1;
export const MAP_ZOOM_MAX = 19;
export const MAP_DEFAULT_ZOOM = 2;
export const MAP_DEFAULT_CENTER: readonly [number, number] = [0, 0];

export const ARCHIVE_DAYS = 3;
export const PRECISION_GRADES = ['A', 'B', 'C', 'D', 'E', 'N'] as const;
export type PrecisionLetter = (typeof PRECISION_GRADES)[number];
/** N in the precision filter stands for grades 6 and 7. */
export const PRECISION_N_VALUES = [6, 7] as const;

export const BREADCRUMB_LEVELS = 4;

/**
 * The device tree's sensor filter values (§6) by name: the scalar kinds' from their rows (sensor-kinds.ts,
 * named by their flag), in value order.
 */
const OTHER_SENSOR_FILTERS = { All: 0, Acceleration: 1, Image: 3, Video: 4, Audio: 6, GNSS: 7 } as const;
export const SENSOR_FILTER: Readonly<Record<keyof typeof OTHER_SENSOR_FILTERS | SensorKindFlag, number>> = Object.fromEntries(
  [...Object.entries(OTHER_SENSOR_FILTERS), ...SENSOR_KIND_NAMES.map((k) => [SENSOR_KINDS[k].flag, SENSOR_KINDS[k].filter] as const)].sort((a, b) => a[1] - b[1]),
) as Record<keyof typeof OTHER_SENSOR_FILTERS | SensorKindFlag, number>;

/** Name of the cookie that holds the session token (§2.2, §9). */
export const TOKEN_COOKIE = 'wildtrack_token';
/** Local storage key of the experience flag, stored as '1' or '0'. */
export const EXPERIENCE_FLAG_KEY = 'wildtrack_experience';

/** Base path of every console call (§7.1). */
export const API_BASE = '/prod-api';

/** Image upload (§7.2): multipart `file` + `description`; the answer's Data is {Url}. */
export const IMAGE_UPLOAD_PATH = '/api/Image/Upload';
/** Where uploaded images are served from (GET, no signature: the names are unguessable). */
export const UPLOADS_URL = '/prod-api/files/uploads';
