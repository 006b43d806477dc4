import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startJobs } from './runner.js';

/** Enough of Fastify for the runner: its log and the close hook. */
function fakeApp() {
  const closers: (() => Promise<void>)[] = [];
  const warnings: string[] = [];
  const app = {
    log: { warn: (_: unknown, message: string) => warnings.push(message) },
    addHook: (name: string, hook: () => Promise<void>) => {
      if (name === 'onClose') closers.push(hook);
    },
  } as unknown as FastifyInstance;
  return { app, warnings, close: () => Promise.all(closers.map((hook) => hook())) };
}

describe('background jobs', () => {
  // The runner waits on timers only: they are faked, not the date (the server's time is lib/clock.ts).
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] }));
  afterEach(() => vi.useRealTimers());

  it('runs a job with firstAfterMs once after that delay, then on its interval; the close stops both', async () => {
    const { app, close } = fakeApp();
    const run = vi.fn(() => Promise.resolve());
    startJobs(app, [{ name: 'archives', everyMs: 600_000, firstAfterMs: 30_000, lease: false, start: 'with the app', run }]);
    await vi.advanceTimersByTimeAsync(29_999);
    expect(run).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(570_000);
    expect(run).toHaveBeenCalledTimes(2);
    await close();
    await vi.advanceTimersByTimeAsync(1_200_000);
    expect(run).toHaveBeenCalledTimes(2);
  });

  it('waits for the interval without firstAfterMs, never overlaps a run, and logs a failure and goes on', async () => {
    const { app, warnings, close } = fakeApp();
    let finish: () => void = () => undefined;
    const slow = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    const failing = vi.fn(() => Promise.reject(new Error('disk full')));
    startJobs(app, [
      { name: 'slow', everyMs: 1_000, lease: false, start: 'with the app', run: slow },
      { name: 'failing', everyMs: 1_000, lease: false, start: 'with the app', run: failing },
    ]);
    await vi.advanceTimersByTimeAsync(999);
    expect(slow).toHaveBeenCalledTimes(0);
    await vi.advanceTimersByTimeAsync(3_001);
    // still running: the later ticks skipped it
    expect(slow).toHaveBeenCalledTimes(1);
    finish();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(slow).toHaveBeenCalledTimes(2);
    expect(failing).toHaveBeenCalledTimes(5);
    expect(warnings.filter((w) => w === 'failing failed')).toHaveLength(5);
    await close();
  });
});
