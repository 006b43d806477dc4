/**
 * Decoding off the main thread, written once: a page keeps one worker per kind of job, started on first
 * use; a job is posted with an id and its reply found by that id; its buffers come back transferred, not
 * copied. Where workers can't start (tests in jsdom) the job runs inline: same result, on the main thread.
 * The worker's own module calls serveJobs (see lib/tracks/decode.worker.ts).
 */

export type JobReply<R> = { id: number; value: R; ms: number } | { id: number; error: string };

export interface JobRequest<Q> {
  id: number;
  input: Q;
}

/**
 * A runner of jobs for one worker. `start` creates it (`new Worker(new URL('./x.worker.ts', import.meta.url),
 * …)` written where the worker's file is, so that the bundler finds it); `inline` does the job without it.
 */
export function workerJobs<Q, R>(start: () => Worker, inline: (input: Q) => R, name: string): (input: Q, signal?: AbortSignal) => Promise<R> {
  let worker: Worker | null | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: (r: R) => void; reject: (e: Error) => void }>();

  function getWorker(): Worker | null {
    if (worker !== undefined) return worker;
    try {
      worker = typeof Worker === 'undefined' ? null : start();
    } catch {
      worker = null;
    }
    worker?.addEventListener('message', (event: MessageEvent<JobReply<R>>) => {
      const job = pending.get(event.data.id);
      if (!job) return;
      pending.delete(event.data.id);
      if ('error' in event.data) job.reject(new Error(event.data.error));
      else job.resolve(event.data.value);
    });
    worker?.addEventListener('error', (event) => {
      for (const job of pending.values()) job.reject(new Error(event.message || `${name} failed`));
      pending.clear();
    });
    return worker;
  }

  return (input, signal) => {
    const w = getWorker();
    if (!w) return Promise.resolve(inline(input));
    const id = nextId++;
    return new Promise<R>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      signal?.addEventListener('abort', () => {
        if (pending.delete(id)) reject(new DOMException('aborted', 'AbortError'));
      });
      w.postMessage({ id, input } satisfies JobRequest<Q>);
    });
  };
}

/** The worker's side: answers each job with `run`'s value and hands `transfer`'s buffers over. */
export function serveJobs<Q, R>(scope: { onmessage: ((event: MessageEvent<JobRequest<Q>>) => void) | null; postMessage: (message: JobReply<R>, transfer: Transferable[]) => void }, run: (input: Q) => R, transfer: (value: R) => ArrayBuffer[]): void {
  scope.onmessage = (event) => {
    const { id, input } = event.data;
    try {
      const started = performance.now();
      const value = run(input);
      scope.postMessage({ id, value, ms: performance.now() - started }, transfer(value));
    } catch (err) {
      scope.postMessage({ id, error: err instanceof Error ? err.message : String(err) }, []);
    }
  };
}
