import type { FastifyInstance } from 'fastify';

/**
 * A piece of background work run every `everyMs` while the server runs: an entry of `serverJobs`
 * (jobs/index.ts), the one list of them.
 */
export interface Job {
  name: string;
  everyMs: number;
  /** A first run this long after the start, before the interval's (a job whose work is ready at once). */
  firstAfterMs?: number;
  /**
   * Whether a run takes a lease over all server processes (true: one process at a time does the work, the
   * others' runs do nothing until the lease lapses). False: any process may run it at once, because each run
   * claims its rows in the database or does only what may be done twice (a delete of expired rows).
   */
  lease: boolean;
  /**
   * When it starts: with the app (buildApp), or after start-up (main.ts, once the sample devices and other
   * start-up writes are done: a job that must not act on a history still being written).
   */
  start: 'with the app' | 'after start-up';
  run(): Promise<unknown>;
  /** Run when the app closes, after the job's timers stop (a lease given up). */
  stop?(): Promise<unknown>;
}

/** The names of the jobs started on each app, in start order: what jobs/list.test.ts holds against the list. */
const started = new WeakMap<FastifyInstance, string[]>();

/** The jobs startJobs started on this app, by name. */
export function startedJobs(app: FastifyInstance): readonly string[] {
  return started.get(app) ?? [];
}

/**
 * Runs each job on its interval for the life of the app: a run never overlaps the previous one, a
 * failure is logged and the next run comes as planned, the timers keep no process alive and stop when
 * the app closes.
 */
export function startJobs(app: FastifyInstance, jobs: readonly Job[]): void {
  const names = started.get(app) ?? [];
  started.set(app, names);
  const firsts: NodeJS.Timeout[] = [];
  const timers = jobs.map((job) => {
    names.push(job.name);
    let running = false;
    const tick = (): void => {
      if (running) return;
      running = true;
      job
        .run()
        .catch((err: unknown) => app.log.warn({ err }, `${job.name} failed`))
        .finally(() => {
          running = false;
        });
    };
    if (job.firstAfterMs !== undefined) firsts.push(setTimeout(tick, job.firstAfterMs).unref());
    const timer = setInterval(tick, job.everyMs);
    timer.unref();
    return timer;
  });
  app.addHook('onClose', async () => {
    for (const first of firsts) clearTimeout(first);
    for (const timer of timers) clearInterval(timer);
    for (const job of jobs) if (job.stop) await job.stop();
  });
}
