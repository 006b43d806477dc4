import type { Browser, BrowserContext, Page } from 'playwright-core';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import jpeg from 'jpeg-js';

/**
 * Main-thread measurements for the performance specs: long tasks (≥ 50 ms) as the page sees them, and
 * the CPU time of the busiest task from a Chromium trace. On a shared two-core machine the wall time of
 * a task includes time the thread waited for a core; its CPU time does not.
 */

interface LongTask {
  start: number;
  duration: number;
}

/** Records the page's long tasks from its first script on. */
export async function observeLongTasks(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    const w = window as unknown as { __longTasks: { start: number; duration: number }[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: true });
  });
}

export async function takeLongTasks(page: Page): Promise<LongTask[]> {
  return page.evaluate(() => (window as unknown as { __longTasks: LongTask[] }).__longTasks.splice(0));
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  tdur?: number;
  args?: { name?: string };
}

/** The most thread (CPU) time one task of the page's main thread took in a Chromium trace, in ms. */
function busiestTask(trace: Buffer): number {
  const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const main = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  let busiest = 0;
  for (const e of events) if (e.ph === 'X' && e.name === 'RunTask' && main.has(`${e.pid}:${e.tid}`)) busiest = Math.max(busiest, e.tdur ?? 0);
  return busiest / 1000;
}

export interface StepFigures {
  /** Longest long task as the page saw it (0 when none reached 50 ms). */
  wall: number;
  /** CPU time of the busiest main-thread task. */
  cpu: number;
}

/**
 * Waits until the page's main thread has caught up: two frames drawn, then an idle period (Chromium
 * runs idle callbacks only when no task is waiting; a map that keeps drawing frames still leaves idle
 * time between cheap frames). A page with no idle time within `timeoutMs` fails the step.
 */
export async function mainThreadQuiet(page: Page, timeoutMs = 30_000): Promise<void> {
  await page.evaluate(
    (timeout) =>
      new Promise<void>((resolve, reject) => {
        const started = performance.now();
        const check = (deadline: IdleDeadline): void => {
          if (!deadline.didTimeout) resolve();
          else if (performance.now() - started > timeout) reject(new Error(`the page's main thread had no idle time within ${timeout} ms`));
          else requestIdleCallback(check, { timeout: 1000 });
        };
        requestAnimationFrame(() => requestAnimationFrame(() => requestIdleCallback(check, { timeout: 1000 })));
      }),
    timeoutMs,
  );
}

/**
 * Runs a step and answers the longest main-thread task it caused, as the page saw it and in CPU time,
 * adding a line to the report.
 */
export async function measureStep(
  browser: Browser,
  page: Page,
  name: string,
  action: () => Promise<void>,
  report: string[],
): Promise<StepFigures> {
  await takeLongTasks(page);
  await browser.startTracing(page, { categories: ['toplevel', 'disabled-by-default-devtools.timeline'] });
  const started = Date.now();
  await action();
  await mainThreadQuiet(page); // the last frames and any deferred work landed
  const elapsed = Date.now() - started;
  const trace = await browser.stopTracing();
  // PERF_TRACE_DIR=<dir> keeps each step's trace (open it in chrome://tracing or Perfetto).
  if (process.env.PERF_TRACE_DIR) writeFileSync(join(process.env.PERF_TRACE_DIR, `${name.replace(/[^\w]+/g, '-')}.json`), trace);
  const cpu = busiestTask(trace);
  const tasks = await takeLongTasks(page);
  const longest = tasks.reduce((m, t) => Math.max(m, t.duration), 0);
  report.push(
    `${name.padEnd(40)} ${String(elapsed).padStart(6)} ms wall, longest task ${longest ? `${Math.round(longest)} ms` : '< 50 ms'} (${tasks.length} long task${tasks.length === 1 ? '' : 's'}), busiest task ${Math.round(cpu)} ms CPU`,
  );
  return { wall: longest, cpu };
}

/**
 * How many pixels of an element, as the screen shows it, are within `tolerance` of a colour: proof that
 * a map layer was drawn, not only handed its data.
 */
export async function pixelsOfColour(page: Page, selector: string, [r, g, b]: readonly [number, number, number], tolerance = 40): Promise<number> {
  const shot = await page.locator(selector).screenshot({ type: 'jpeg', quality: 95 });
  const { data } = jpeg.decode(shot, { useTArray: true });
  let n = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.abs(data[i]! - r) <= tolerance && Math.abs(data[i + 1]! - g) <= tolerance && Math.abs(data[i + 2]! - b) <= tolerance) n++;
  }
  return n;
}
