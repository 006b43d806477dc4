import { INGEST_WINDOW_MS } from '@wildtrack/contract';
import type { AuthService } from '../modules/auth/service.js';
import type { FixService } from '../modules/fix/service.js';
import type { IngestService } from '../ingest/service.js';
import type { InstructionService } from '../modules/instruction/service.js';
import type { MovebankImportService } from '../modules/movebank/jobs.js';
import type { Job } from './runner.js';

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
    { name: 'nonce sweep', everyMs: every, run: () => ingest.sweepNonces(Date.now() - 2 * INGEST_WINDOW_MS) },
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
      const until = Date.now() + SEGMENT_BUILD_PASS_MS;
      while (Date.now() < until && (await fixes.buildStaleSegments(SEGMENT_BUILD_BATCH_DAYS)) === SEGMENT_BUILD_BATCH_DAYS) {
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
 * Used request codes and rate counters past their expiry (twice the signature window; the end of a
 * counter's window) are deleted from the database. Any process may run it: a delete of expired rows
 * twice does no harm. Redis expires its keys itself (its sweep does nothing).
 */
export function sharedStateSweep(shared: { sweep(now: number): Promise<number> }): Job {
  return { name: 'request code sweep', everyMs: 60_000, run: () => shared.sweep(Date.now()) };
}

/**
 * Instructions still SENT past their deadline (the device's postback window plus a margin, counted from
 * sending and again from each delivery; docs/ingest.md "Instructions") are marked COMM_ERROR, each claimed
 * by a conditional update so that two server processes never mark one twice.
 */
function instructionCommErrors(instructions: InstructionService): Job {
  return { name: 'instruction COMM_ERROR', everyMs: 60_000, run: async () => void (await instructions.markCommErrors()) };
}

/** The server's background work. */
export function serverJobs(services: { auth: AuthService; ingest: IngestService; fixes: FixService; imports: MovebankImportService; instructions: InstructionService }): Job[] {
  return [...sweep(services.auth, services.ingest), trackSegments(services.fixes), movebankImports(services.imports), instructionCommErrors(services.instructions)];
}
