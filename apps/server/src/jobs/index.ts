import { INGEST_WINDOW_MS } from '@wildtrack/contract';
import type { AuthService } from '../modules/auth/service.js';
import type { FixService } from '../modules/fix/service.js';
import type { IngestService } from '../ingest/service.js';
import type { InstructionService } from '../modules/instruction/service.js';
import type { MovebankImportService } from '../modules/movebank/import-service.js';
import type { DownloadTaskService } from '../modules/download/service.js';
import type { FenceService } from '../modules/fence/service.js';
import type { Job } from './runner.js';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import { LiveSampleFleet } from '../modules/device/samples-live.js';
import { LiveSamplesRepository } from '../modules/device/samples-live-repository.js';
import { startJobs } from './runner.js';
import { now as clockNow } from '../lib/clock.js';

export { startJobs } from './runner.js';

const SEGMENT_BUILD_INTERVAL_MS = 10_000;
const SEGMENT_BUILD_BATCH_DAYS = 20;
const SEGMENT_BUILD_PASS_MS = 8_000;

/** Sessions idle past the limit, failed sign-ins that no longer count and ingest nonces older than the replay window are deleted. */
function sweep(auth: AuthService, ingest: IngestService): Job[] {
  const every = 10 * 60_000;
  return [
    { name: 'session sweep', everyMs: every, run: () => auth.sweepIdleSessions() },
    { name: 'sign-in failure sweep', everyMs: every, run: () => auth.sweepSignInFailures() },
    { name: 'nonce sweep', everyMs: every, run: () => ingest.sweepNonces(clockNow() - 2 * INGEST_WINDOW_MS) },
    { name: 'QR sign-in sweep', everyMs: every, run: () => auth.sweepQrLogins() },
  ];
}

/**
 * Track segments that writes made stale are built again: small batches (a day of 1 Hz fixes is 86,400
 * rows read in one go) until none is left or the pass has run its time.
 */
function trackSegments(fixes: FixService): Job {
  return {
    name: 'track segment build',
    everyMs: SEGMENT_BUILD_INTERVAL_MS,
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
 * Movebank imports uploaded from the console: queued ones claimed and run (one at a time per server; the
 * upload also starts the queue at once), running ones whose server stopped marked interrupted.
 */
function movebankImports(imports: MovebankImportService): Job {
  return { name: 'movebank import', everyMs: 2_000, run: () => imports.tick() };
}

/**
 * Download tasks (/download): tasks whose process stopped taken back, expired files deleted, waiting tasks
 * claimed and run (one at a time per process; a new task also starts the queue at once).
 */
function downloadTasks(downloads: DownloadTaskService): Job {
  return { name: 'download tasks', everyMs: 2_000, firstAfterMs: 1_000, run: () => downloads.tick() };
}

/**
 * Used request codes and rate counters past their expiry (twice the signature window; the end of a
 * counter's window) are deleted from the database. Any process may run it: a delete of expired rows
 * twice does no harm. Redis expires its keys itself (its sweep does nothing).
 */
export function sharedStateSweep(shared: { sweep(now: number): Promise<number> }): Job {
  return { name: 'request code sweep', everyMs: 60_000, run: () => shared.sweep(clockNow()) };
}

/**
 * Instructions still SENT past their deadline (the device's postback window plus a margin, counted from
 * sending and again from each delivery; docs/ingest.md "Instructions") are marked COMM_ERROR, each claimed
 * by a conditional update so that two server processes never mark one twice.
 */
function instructionCommErrors(instructions: InstructionService): Job {
  return { name: 'instruction COMM_ERROR', everyMs: 60_000, run: async () => void (await instructions.markCommErrors()) };
}

/**
 * Fence rules made under a share whose window ended on its own (no call to say so) are withdrawn, device
 * rules with a removal for the device (FenceService.withdrawUngranted). Between two passes such a rule
 * still sends nothing: each asks for its organisation's right when it acts. Two processes running it at
 * once delete the same rows; the second finds none.
 */
function fenceGrants(fences: FenceService): Job {
  return { name: 'fence rules past their grant', everyMs: 60_000, run: () => fences.withdrawUngranted() };
}

/** The server's background work. */
export function serverJobs(services: { auth: AuthService; ingest: IngestService; fixes: FixService; imports: MovebankImportService; instructions: InstructionService; downloads: DownloadTaskService; fences: FenceService }): Job[] {
  return [
    ...sweep(services.auth, services.ingest), trackSegments(services.fixes), movebankImports(services.imports), instructionCommErrors(services.instructions), downloadTasks(services.downloads),
    fenceGrants(services.fences),
  ];
}

/**
 * Devices at work silent longer than their schedule allows get a Device event, one per silence (the event's
 * key is the time last heard: a later pass, or another server process, writes nothing new).
 */
export function deviceSilences(record: (now: number) => Promise<number>): Job {
  return { name: 'device silence events', everyMs: 5 * 60_000, firstAfterMs: 30_000, run: () => record(clockNow()) };
}

/** How often the live sample fleet takes its tags' new records, and how long its lease lasts without renewal. */
export const LIVE_SAMPLES_EVERY_MS = 60_000;
export const LIVE_SAMPLES_LEASE_MS = 3 * LIVE_SAMPLES_EVERY_MS;

/**
 * Starts the live sample fleet (issue 15 item 6) when the sample devices are on and WILDTRACK_SAMPLES_LIVE
 * is not false: its first tick at once (the gap since the last sample record), then one a minute; the lease
 * given up when the app closes. Null when off. `clock` is the time each tick runs to (tests drive it).
 */
export function startLiveSamples(
  app: FastifyInstance,
  config: Pick<Config, 'sampleDevices' | 'samplesLive'>,
  db: Kysely<Database>,
  ingest: IngestService,
  clock: () => number = clockNow,
): LiveSampleFleet | null {
  if (!config.sampleDevices || !config.samplesLive) return null;
  const fleet = new LiveSampleFleet(new LiveSamplesRepository(db), ingest, LIVE_SAMPLES_LEASE_MS);
  startJobs(app, [{ name: 'live sample fleet', everyMs: LIVE_SAMPLES_EVERY_MS, firstAfterMs: 0, run: () => fleet.tick(clock()) }]);
  app.addHook('onClose', () => fleet.stop());
  return fleet;
}
