import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTestApp, DIALECTS } from '../test/helper.js';
import { startedJobs, startServerJobs } from './index.js';

const SRC = path.resolve(import.meta.dirname, '..');

/**
 * The timers that are not background jobs, each with why: they live as long as one piece of work or one
 * connection, not as long as the server. Any other setInterval in the server's source is a job started
 * outside the list.
 */
const NOT_JOBS: Record<string, string> = {
  'jobs/runner.ts': 'the runner itself: every listed job runs on its timers',
  'http/body-rate.ts': 'transport: a slow request body is cut while it arrives',
  'http/multipart-body.ts': 'transport: an upload idle too long is cut while it arrives',
  'live/hub.ts': "delivery: a console connection's beat, and the event poll while a console is connected",
  'modules/download/service.ts': "a running task's heartbeat (progress, a cancel from another process), while it runs",
  'modules/movebank/import-service.ts': "a running import's heartbeat (progress, a cancel from another process), while it runs",
};

/** The server's source files (no test, no test helper), relative to src/. */
function sourceFiles(dir = SRC): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' || entry.name === 'node_modules' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path.relative(SRC, full).split(path.sep).join('/')] : [];
  });
}

describe.each(DIALECTS)('the jobs list, on %s', (dialect) => {
  it('has a schedule, a lease decision and a start for every entry, each name once', async () => {
    const t = await createTestApp(dialect, { WILDTRACK_SAMPLES: 'true', WILDTRACK_SAMPLES_LIVE: 'true' });
    try {
      expect(t.jobs.length).toBeGreaterThan(10);
      const names = t.jobs.map((job) => job.name);
      expect(new Set(names).size, 'two jobs of one name').toBe(names.length);
      for (const job of t.jobs) {
        expect(job.name.trim(), 'a job without a name').not.toBe('');
        expect(Number.isFinite(job.everyMs) && job.everyMs > 0, `${job.name}: everyMs`).toBe(true);
        if (job.firstAfterMs !== undefined) expect(job.firstAfterMs >= 0, `${job.name}: firstAfterMs`).toBe(true);
        expect(typeof job.lease, `${job.name}: lease`).toBe('boolean');
        expect(['with the app', 'after start-up'], `${job.name}: start`).toContain(job.start);
      }
      // the one job under a lease across processes, started after start-up (main.ts seeds the samples first)
      expect(t.jobs.filter((job) => job.lease).map((job) => [job.name, job.start])).toEqual([['live sample fleet', 'after start-up']]);
    } finally {
      await t.close();
    }
  });

  it('runs exactly the listed jobs: those with the app once built, the rest when main starts them', async () => {
    // the live sample fleet off: it would append to sample devices this test does not make
    const t = await createTestApp(dialect, { DOWNLOAD_TASKS: 'off', WILDTRACK_SAMPLES_LIVE: 'false' });
    try {
      const withApp = t.jobs.filter((job) => job.start === 'with the app').map((job) => job.name);
      expect(startedJobs(t.app), 'a job started outside jobs/index.ts serverJobs, or a listed one not started').toEqual(withApp);
      startServerJobs(t.app, t.jobs, 'after start-up');
      expect([...startedJobs(t.app)].sort()).toEqual(t.jobs.map((job) => job.name).sort());
    } finally {
      await t.close();
    }
  });
});

describe('no background work outside the list', () => {
  it('starts jobs only in jobs/index.ts, and keeps a timer only where it is not a job', () => {
    const files = sourceFiles();
    expect(files).toContain('app.ts');
    const starters = files.filter((file) => file !== 'jobs/runner.ts' && /\bstartJobs\(/.test(fs.readFileSync(path.join(SRC, file), 'utf8')));
    expect(starters, 'startJobs called outside jobs/index.ts: add the job to serverJobs instead').toEqual(['jobs/index.ts']);
    const timers = files.filter((file) => /\bsetInterval\(/.test(fs.readFileSync(path.join(SRC, file), 'utf8')));
    expect(timers.filter((file) => !(file in NOT_JOBS)), 'a setInterval outside the jobs list: a job belongs in jobs/index.ts serverJobs').toEqual([]);
    expect(Object.keys(NOT_JOBS).filter((file) => !timers.includes(file)), 'NOT_JOBS names a file with no timer left').toEqual([]);
  });
});
