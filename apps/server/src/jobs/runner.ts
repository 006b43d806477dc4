import type { FastifyInstance } from 'fastify';

/** A piece of background work run every `everyMs` while the server runs. */
export interface Job {
  name: string;
  everyMs: number;
  /** A first run this long after the start, before the interval's (a job whose work is ready at once). */
  firstAfterMs?: number;
  run(): Promise<unknown>;
}

/**
 * Runs each job on its interval for the life of the app: a run never overlaps the previous one, a
 * failure is logged and the next run comes as planned, the timers keep no process alive and stop when
 * the app closes.
 */
export function startJobs(app: FastifyInstance, jobs: readonly Job[]): void {
  const firsts: NodeJS.Timeout[] = [];
  const timers = jobs.map((job) => {
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
  });
}
