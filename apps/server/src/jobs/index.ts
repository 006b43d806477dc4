import { INGEST_WINDOW_MS } from '@wildtrack/contract';
import type { AuthService } from '../modules/auth/service.js';
import type { FixService } from '../modules/fix/service.js';
import type { IngestService } from '../ingest/service.js';
import type { InstructionService } from '../modules/instruction/service.js';
import type { MovebankImportService } from '../modules/movebank/import-service.js';
import type { DownloadTaskService } from '../modules/download/service.js';
import type { FenceService } from '../modules/fence/service.js';
import type { ArchiveService } from '../modules/archive/service.js';
import type { MediaService } from '../modules/media/service.js';
import type { EventMailer } from '../outgoing/event-mail.js';
import type { Job } from './runner.js';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { LiveSampleFleet } from '../modules/device/samples-live.js';
import { LiveSamplesRepository } from '../modules/device/samples-live-repository.js';
import { accelerationArchives } from './archives.js';
import { mediaThumbnails } from './thumbnails.js';
import { startJobs } from './runner.js';
import { now as clockNow } from '../lib/clock.js';

export { startedJobs, startJobs, type Job } from './runner.js';

const SEGMENT_BUILD_INTERVAL_MS = 10_000;
const SEGMENT_BUILD_BATCH_DAYS = 20;
const SEGMENT_BUILD_PASS_MS = 8_000;
const SWEEP_EVERY_MS = 10 * 60_000;

/** How often the live sample fleet takes its tags' new records, and how long its lease lasts without renewal. */
export const LIVE_SAMPLES_EVERY_MS = 60_000;
export const LIVE_SAMPLES_LEASE_MS = 3 * LIVE_SAMPLES_EVERY_MS;

/** What the server's jobs act through: services, and the few passes the composition root hands in. */
export interface JobServices {
  auth: AuthService;
  ingest: IngestService;
  fixes: FixService;
  imports: MovebankImportService;
  instructions: InstructionService;
  downloads: DownloadTaskService;
  fences: FenceService;
  archives: ArchiveService;
  media: Pick<MediaService, 'makeThumbnails'>;
  /** Used request codes and rate counters (shared-state/): the database's sweep, Redis's does nothing. */
  shared: { sweep(now: number): Promise<number> };
  /** Event e-mail and how often it runs (EVENT_MAIL_INTERVAL_SECONDS). */
  eventMail: { mailer: Pick<EventMailer, 'tick'>; everyMs: number };
  /** Verification codes past their use (account codes, then the delivery's outbox). */
  verificationCodes: { sweep(): Promise<unknown> }[];
  /** Writes the silence events of the devices at work silent past their schedule, at `now`. */
  silences(now: number): Promise<number>;
  /** The live sample fleet, null when off (liveSampleFleet). */
  liveSamples: LiveSampleFleet | null;
}

/**
 * The server's background work, every job in one list: its name, schedule, whether it takes a lease
 * across server processes, and when it starts. buildApp starts the 'with the app' ones, main.ts the
 * 'after start-up' ones (startServerJobs); nothing else starts a job (jobs/list.test.ts).
 */
export function serverJobs(s: JobServices): Job[] {
  const app = 'with the app' as const;
  return [
    // Sessions idle past the limit, failed sign-ins that no longer count, ingest nonces older than the replay
    // window and QR sign-ins past their life are deleted (twice does no harm).
    { name: 'session sweep', everyMs: SWEEP_EVERY_MS, lease: false, start: app, run: () => s.auth.sweepIdleSessions() },
    { name: 'sign-in failure sweep', everyMs: SWEEP_EVERY_MS, lease: false, start: app, run: () => s.auth.sweepSignInFailures() },
    { name: 'nonce sweep', everyMs: SWEEP_EVERY_MS, lease: false, start: app, run: () => s.ingest.sweepNonces(clockNow() - 2 * INGEST_WINDOW_MS) },
    { name: 'QR sign-in sweep', everyMs: SWEEP_EVERY_MS, lease: false, start: app, run: () => s.auth.sweepQrLogins() },
    trackSegments(s.fixes),
    // Movebank imports uploaded from the console: queued ones claimed and run (one at a time per server; the
    // upload also starts the queue at once), running ones whose server stopped marked interrupted.
    { name: 'movebank import', everyMs: 2_000, lease: false, start: app, run: () => s.imports.tick() },
    // Instructions still SENT past their deadline (the device's postback window plus a margin, counted from
    // sending and again from each delivery; docs/ingest.md "Instructions") are marked COMM_ERROR, each claimed
    // by a conditional update so that two server processes never mark one twice.
    { name: 'instruction COMM_ERROR', everyMs: 60_000, lease: false, start: app, run: async () => void (await s.instructions.markCommErrors()) },
    // Download tasks (/download): tasks whose process stopped taken back, expired files deleted, waiting tasks
    // claimed and run (one at a time per process; a new task also starts the queue at once).
    { name: 'download tasks', everyMs: 2_000, firstAfterMs: 1_000, lease: false, start: app, run: () => s.downloads.tick() },
    // Fence rules made under a share whose window ended on its own (no call to say so) are withdrawn, device
    // rules with a removal for the device (FenceService.withdrawUngranted). Between two passes such a rule
    // still sends nothing: each asks for its organisation's right when it acts. Two processes running it at
    // once delete the same rows; the second finds none.
    { name: 'fence rules past their grant', everyMs: 60_000, lease: false, start: app, run: () => s.fences.withdrawUngranted() },
    // Used request codes and rate counters past their expiry (twice the signature window; the end of a
    // counter's window) are deleted from the database. Redis expires its keys itself.
    { name: 'request code sweep', everyMs: 60_000, lease: false, start: app, run: () => s.shared.sweep(clockNow()) },
    accelerationArchives(s.archives),
    mediaThumbnails(s.media),
    // Each claimed batch of events to the users who asked for it. The first pass a second after start: the
    // first pass ever only places the cursor (no mail about history), so events made before it, a minute of
    // them after a fresh start, were never mailed (seen in fence-live.spec).
    { name: 'event e-mail', everyMs: s.eventMail.everyMs, firstAfterMs: 1_000, lease: false, start: app, run: () => s.eventMail.mailer.tick() },
    {
      name: 'verification code sweep',
      everyMs: SWEEP_EVERY_MS,
      lease: false,
      start: app,
      run: async () => {
        for (const codes of s.verificationCodes) await codes.sweep();
      },
    },
    // Devices at work silent longer than their schedule allows get a Device event, one per silence (the event's
    // key is the time last heard: a later pass, or another server process, writes nothing new).
    { name: 'device silence events', everyMs: 5 * 60_000, firstAfterMs: 30_000, lease: false, start: 'after start-up', run: () => s.silences(clockNow()) },
    ...(s.liveSamples ? [liveSampleJob(s.liveSamples)] : []),
  ];
}

/** Starts the listed jobs that start at `start` (buildApp: 'with the app'; main.ts: 'after start-up'). */
export function startServerJobs(app: FastifyInstance, jobs: readonly Job[], start: Job['start']): void {
  startJobs(
    app,
    jobs.filter((job) => job.start === start),
  );
}

/**
 * Track segments that writes made stale are built again: small batches (a day of 1 Hz fixes is 86,400
 * rows read in one go) until none is left or the pass has run its time.
 */
function trackSegments(fixes: FixService): Job {
  return {
    name: 'track segment build',
    everyMs: SEGMENT_BUILD_INTERVAL_MS,
    lease: false,
    start: 'with the app',
    run: async () => {
      // A pass's length: elapsed time (performance.now), not the server's clock, which a test may hold still.
      const until = performance.now() + SEGMENT_BUILD_PASS_MS;
      while (performance.now() < until && (await fixes.buildStaleSegments(SEGMENT_BUILD_BATCH_DAYS)) === SEGMENT_BUILD_BATCH_DAYS) {
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

/**
 * The live sample fleet (issue 15 item 6) when the sample devices are on and WILDTRACK_SAMPLES_LIVE is not
 * false; null when off.
 */
export function liveSampleFleet(config: Pick<Config, 'sampleDevices' | 'samplesLive'>, db: Kysely<Database>, ingest: IngestService): LiveSampleFleet | null {
  if (!config.sampleDevices || !config.samplesLive) return null;
  return new LiveSampleFleet(new LiveSamplesRepository(db), ingest, LIVE_SAMPLES_LEASE_MS);
}

/**
 * The live sample fleet's job: started once the sample devices exist, so that it never appends to a history
 * still being written; its first tick at once (the gap since the last sample record), then one a minute,
 * under a lease so that one process appends; the lease given up when the app closes. `clock` is the time
 * each tick runs to (tests drive it).
 */
export function liveSampleJob(fleet: LiveSampleFleet, clock: () => number = clockNow): Job {
  return {
    name: 'live sample fleet',
    everyMs: LIVE_SAMPLES_EVERY_MS,
    firstAfterMs: 0,
    lease: true,
    start: 'after start-up',
    run: () => fleet.tick(clock()),
    stop: () => fleet.stop(),
  };
}
