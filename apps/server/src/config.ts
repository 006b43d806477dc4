import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_TILE_LAYERS, isTileUrlTemplate, PERSONAL_TOKEN_RATE_PER_MINUTE, type TileLayers } from '@wildtrack/contract';

const boolish = z
  .enum(['0', '1', 'true', 'false'])
  .transform((v) => v === '1' || v === 'true');

/** Comma-separated XYZ URL templates of one tile layer (a station's own tile server, say). */
const tileTemplates = z
  .string()
  .transform((v) => v.split(',').map((u) => u.trim()).filter((u) => u !== ''))
  .refine((urls) => urls.length > 0 && urls.every(isTileUrlTemplate), 'must be http(s) URL templates with {z}, {x} and {y}, comma-separated');

/** An http(s) address (a download host). */
const httpUrl = z.string().regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// address');

/** Open-Meteo's keyless forecast API: the weather overlay's source unless WEATHER_URL names another. */
export const DEFAULT_WEATHER_URL = 'https://api.open-meteo.com/v1/forecast';

/** The environment, parsed once; a bad value stops the start with a message naming the variable. */
const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  WILDTRACK_DATA: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('wildtrack:'),
  SIGN_IN_RATE_LIMIT: z.coerce.number().int().min(0).default(60),
  /** Direct-read requests one personal access token may make a minute (0: no limit). */
  TOKEN_RATE_LIMIT: z.coerce.number().int().min(0).default(PERSONAL_TOKEN_RATE_PER_MINUTE),
  DATABASE_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'must be a plain lower-case PostgreSQL schema name').optional(),
  SESSION_IDLE_SECONDS: z.coerce.number().int().min(1).default(7 * 24 * 3600),
  UPLOAD_IDLE_SECONDS: z.coerce.number().min(0.1).default(30),
  /** docs/api.md "Encrypted bodies and answers": on, or off to read a console's calls in clear while debugging. */
  FIELD_CIPHER: z.enum(['on', 'off']).default('on'),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  TLS_CERT: z.string().optional(),
  TLS_KEY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST: z.string().optional(),
  WILDTRACK_ADMIN_EMAIL: z.string().default('admin@wildtrack.local'),
  TRUST_PROXY: boolish.default(false),
  WILDTRACK_SAMPLES: boolish.default(true),
  WILDTRACK_SAMPLES_LIVE: boolish.default(true),
  WILDTRACK_SAMPLES_AS_OF: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD')
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), 'must be a real date')
    .optional(),
  MAP_TILES_SATELLITE: tileTemplates.optional(),
  MAP_TILES_STREET: tileTemplates.optional(),
  MAP_TILES_TERRAIN: tileTemplates.optional(),
  VERSION_DOWNLOAD_HOST_EN: httpUrl.default('https://en.download.wildtrack.app'),
  VERSION_DOWNLOAD_HOST_NA: httpUrl.default('https://na.download.wildtrack.app'),
  VERSION_DOWNLOAD_HOST_OTHER: httpUrl.default('https://download.wildtrack.app'),
  WILDTRACK_BUILD: z.string().max(64).default(''),
  WEATHER_URL: httpUrl.default(DEFAULT_WEATHER_URL),
  SMTP_URL: z.string().regex(/^smtps?:\/\/[^\s]+$/, 'must be an smtp:// or smtps:// URL').optional(),
  MAIL_FROM: z.string().min(3).max(200).default('Wildtrack <no-reply@wildtrack.local>'),
  EVENT_MAIL_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  PASSWORD_HASH_MEMORY_KIB: z.coerce.number().int().min(1024).max(1024 * 1024).default(65536),
  SMS_URL: httpUrl.optional(),
  REGISTRATION: z.enum(['open', 'closed']).default('open'),
  DOWNLOAD_KEEP_DAYS: z.coerce.number().min(0.001).max(365).default(7),
  DOWNLOAD_TASKS: z.enum(['run', 'off']).default('run'),
  DOWNLOAD_TASKS_PER_USER: z.coerce.number().int().min(1).max(64).default(1),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().min(1).max(24 * 3600).default(900),
  HEADERS_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(72),
  IDLE_TIMEOUT_SECONDS: z.coerce.number().min(1).max(24 * 3600).default(120),
  MIN_BODY_RATE_BYTES: z.coerce.number().int().min(0).default(500),
  MIN_BODY_RATE_WINDOW_SECONDS: z.coerce.number().min(0.1).max(3600).default(30),
  UPLOADS_PER_USER: z.coerce.number().int().min(1).max(100).default(3),
  CLOCK_START: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/, 'must be an ISO instant with its zone, e.g. 2026-11-01T00:00:00Z')
    .refine((v) => !Number.isNaN(Date.parse(v)), 'must be a real instant')
    .optional(),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** PostgreSQL schema (search_path) to keep Wildtrack's tables in; default the server's default. */
  databaseSchema: string | undefined;
  /**
   * Redis for what server processes share beyond the database (used request codes, sign-in counters);
   * undefined: those live in the database.
   */
  redisUrl: string | undefined;
  /** Prefix of every Redis key, so that several installations can share one Redis. */
  redisKeyPrefix: string;
  /** Public calls (signing in) one client address may make per minute; 0: no limit. */
  signInRateLimit: number;
  /** Direct-read requests one personal access token may make a minute; 0: no limit. */
  tokenRateLimit: number;
  sessionIdleMs: number;
  /** A file import (Movebank, shapefile) whose body sends nothing for this long is refused and its file removed. */
  uploadIdleMs: number;
  /** FIELD_CIPHER (http/field-cipher.ts): on, signed-in bodies must come encrypted and answers go encrypted. */
  fieldCipher: 'on' | 'off';
  bodyLimit: number;
  tls: { cert: string; key: string } | undefined;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  webDist: string | undefined;
  adminEmail: string;
  trustProxy: boolean;
  /** Create the experience (sample) devices with 30 days of history on the first start. */
  sampleDevices: boolean;
  /**
   * The calendar day (UTC midnight, epoch ms) the sample devices are simulated as of, their history then
   * shifted by whole days to end now; undefined = today. Tests fix it so that the data is the same on
   * any date (a migrating stork moves differently in May and in January).
   */
  samplesAsOf: number | undefined;
  /**
   * The sample devices keep living while the server runs (issue 15 item 6): new fixes, sensor records and
   * events at their profiles' schedules, the gap since the last sample record filled at start (30 days at most).
   */
  samplesLive: boolean;
  /** The global map tile layers the web offers (§2.5). */
  tileLayers: TileLayers;
  /**
   * The weather overlay's forecast source (§1 weather): an Open-Meteo-compatible forecast endpoint
   * (…/v1/forecast), asked by the server only (Weather/GetGrid, Weather/GetPoint).
   */
  weatherUrl: string;
  /** Outgoing e-mail (codes, notifications): an smtp(s):// URL, undefined = e-mail off. */
  smtpUrl: string | undefined;
  /** The From address of every message the server sends. */
  mailFrom: string;
  /** How often the event e-mail job claims a batch (the events of one interval are one mail per user); 60 s by default. */
  eventMailIntervalMs: number;
  /**
   * argon2id's memory cost (KiB) for the passwords this process hashes: 64 MiB by default (the library's). Only
   * the tests lower it (hundreds of users created and signed in); a stored hash keeps its own cost.
   */
  passwordHashMemoryKib: number;
  /** The SMS gateway codes are posted to (sms/http-gateway.ts); undefined = the operator's outbox. */
  smsUrl: string | undefined;
  /** Whether anyone may register an account (issue 17 item 4); closed hides the link and refuses the calls. */
  registration: 'open' | 'closed';
  /** How long a download task's file is kept before it expires and is deleted (§4 Download task; 7 days by default). */
  downloadKeepMs: number;
  /**
   * Whether this process runs download tasks ('run'), or only serves their calls ('off': another server
   * process, or `wildtrack run-download-tasks`, runs them).
   */
  downloadTasks: 'run' | 'off';
  /**
   * How many of one user's download tasks may run at once over all server processes (1 by default): with
   * several processes, the others stay free for other users' tasks (issue 26 L7).
   */
  downloadTasksPerUser: number;
  /**
   * The server's timeouts (issue 26 H3, M3), in ms: `request` the whole request (headers and body) must
   * arrive in (Node answers 408 past it), `headers` its headers, `keepAlive` an idle kept-alive connection
   * waits for its next request, `idle` a connection may stay silent both ways (an open console's live
   * stream beats every 20 s).
   */
  timeouts: { requestMs: number; headersMs: number; keepAliveMs: number; idleMs: number };
  /** The slowest a request body may arrive (http/body-rate.ts): bytes a second over every window; 0 = no minimum. */
  minBodyRate: { bytesPerSecond: number; windowMs: number };
  /** Console uploads (multipart calls) one user may have in progress at once in this process. */
  uploadsPerUser: number;
  /** The version page (§2.4): the app download host of each region, and the build the server was made from. */
  version: { downloadHosts: { en: string; na: string; other: string }; build: string };
  /**
   * CLOCK_START (lib/clock.ts): the instant (epoch ms) the server's clock starts at when it is built, then
   * advancing with real elapsed time; undefined = the system's clock. For tests and demonstrations that
   * need the server at a known time (a share's last day, a rate window's start); never in production.
   */
  clockStart: number | undefined;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.HEADERS_TIMEOUT_SECONDS > e.REQUEST_TIMEOUT_SECONDS) {
    throw new ConfigError('Invalid environment:\n  HEADERS_TIMEOUT_SECONDS must not be longer than REQUEST_TIMEOUT_SECONDS');
  }
  if (Boolean(e.TLS_CERT) !== Boolean(e.TLS_KEY)) {
    throw new ConfigError('Invalid environment:\n  TLS_CERT and TLS_KEY must be given together');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.WILDTRACK_DATA),
    databaseUrl: e.DATABASE_URL,
    databaseSchema: e.DATABASE_SCHEMA,
    redisUrl: e.REDIS_URL,
    redisKeyPrefix: e.REDIS_KEY_PREFIX,
    signInRateLimit: e.SIGN_IN_RATE_LIMIT,
    tokenRateLimit: e.TOKEN_RATE_LIMIT,
    sessionIdleMs: e.SESSION_IDLE_SECONDS * 1000,
    uploadIdleMs: e.UPLOAD_IDLE_SECONDS * 1000,
    fieldCipher: e.FIELD_CIPHER,
    bodyLimit: e.BODY_LIMIT_BYTES,
    tls: e.TLS_CERT && e.TLS_KEY ? { cert: e.TLS_CERT, key: e.TLS_KEY } : undefined,
    logLevel: e.LOG_LEVEL,
    webDist: e.WEB_DIST,
    adminEmail: e.WILDTRACK_ADMIN_EMAIL,
    trustProxy: e.TRUST_PROXY,
    sampleDevices: e.WILDTRACK_SAMPLES,
    samplesAsOf: e.WILDTRACK_SAMPLES_AS_OF ? Date.parse(`${e.WILDTRACK_SAMPLES_AS_OF}T00:00:00Z`) : undefined,
    samplesLive: e.WILDTRACK_SAMPLES_LIVE,
    tileLayers: {
      Satellite: tileLayer(DEFAULT_TILE_LAYERS.Satellite, e.MAP_TILES_SATELLITE),
      Street: tileLayer(DEFAULT_TILE_LAYERS.Street, e.MAP_TILES_STREET),
      Terrain: tileLayer(DEFAULT_TILE_LAYERS.Terrain, e.MAP_TILES_TERRAIN),
    },
    weatherUrl: e.WEATHER_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    eventMailIntervalMs: e.EVENT_MAIL_INTERVAL_SECONDS * 1000,
    passwordHashMemoryKib: e.PASSWORD_HASH_MEMORY_KIB,
    smsUrl: e.SMS_URL,
    registration: e.REGISTRATION,
    downloadKeepMs: Math.round(e.DOWNLOAD_KEEP_DAYS * 24 * 3600 * 1000),
    downloadTasks: e.DOWNLOAD_TASKS,
    downloadTasksPerUser: e.DOWNLOAD_TASKS_PER_USER,
    timeouts: {
      requestMs: Math.round(e.REQUEST_TIMEOUT_SECONDS * 1000),
      headersMs: Math.round(e.HEADERS_TIMEOUT_SECONDS * 1000),
      keepAliveMs: Math.round(e.KEEP_ALIVE_TIMEOUT_SECONDS * 1000),
      idleMs: Math.round(e.IDLE_TIMEOUT_SECONDS * 1000),
    },
    minBodyRate: { bytesPerSecond: e.MIN_BODY_RATE_BYTES, windowMs: Math.round(e.MIN_BODY_RATE_WINDOW_SECONDS * 1000) },
    uploadsPerUser: e.UPLOADS_PER_USER,
    version: {
      downloadHosts: { en: e.VERSION_DOWNLOAD_HOST_EN, na: e.VERSION_DOWNLOAD_HOST_NA, other: e.VERSION_DOWNLOAD_HOST_OTHER },
      build: e.WILDTRACK_BUILD,
    },
    clockStart: e.CLOCK_START === undefined ? undefined : Date.parse(e.CLOCK_START),
  };
}

/** A station's own tiles replace the default's URLs; its attribution is theirs to show, so none is claimed. */
function tileLayer(defaults: TileLayers['Satellite'], urls: string[] | undefined): TileLayers['Satellite'] {
  return urls ? { Tiles: urls, Attribution: '', MaxZoom: 19 } : defaults;
}
