import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { FENCE_SHP_MAX_SECONDS, type Lang, message, type MessageKey } from '@wildtrack/contract';
import { AppError } from '../../http/errors.js';
import { ImportedShapes } from './packed-shapes.js';
import { checkShpStructure, importFailed } from './shp.js';
import type { ShpWorkerAnswer } from './shp-worker.js';

/** A worker's heap: a 10 MB file's geometry needs ~150 MB; a file needing more is refused, not the server. */
const WORKER_HEAP_MB = 256;
/** Imports read at once; more wait their turn (each worker takes a core while it runs). */
const WORKERS = 2;
/** An idle worker is kept this long for the next import, then stopped (its memory given back). */
const IDLE_MS = 60_000;

/**
 * What a test sees of the imports: geometry reads started so far and those running now (a refused caller
 * must leave `started` as it was; another call must be answered while `running` > 0).
 */
export const shpReads = { started: 0, running: 0 };

/**
 * A worker thread: the built server's `shp-worker.js` beside its bundle (build.mjs makes it); from the
 * sources (tests, `tsx watch`) the TypeScript file, loaded through tsx inside the worker.
 */
function startWorker(): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: WORKER_HEAP_MB };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./shp-worker.js', import.meta.url), { resourceLimits });
  // tsx's ESM entry (its `require` one, which createRequire resolves, can't be imported from ESM)
  const tsx = new URL('dist/esm/api/index.mjs', pathToFileURL(createRequire(import.meta.url).resolve('tsx/package.json'))).href;
  const file = new URL('./shp-worker.ts', import.meta.url).href;
  const boot = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(file)}); })`;
  return new Worker(boot, { eval: true, resourceLimits });
}

interface Idle {
  worker: Worker;
  timer: NodeJS.Timeout;
}
const idle: Idle[] = [];
let alive = 0;
const waiting: (() => void)[] = [];

/** A worker for one import: an idle one, a new one while fewer than WORKERS live, else the next one freed. */
async function takeWorker(): Promise<Worker> {
  for (;;) {
    const kept = idle.pop();
    if (kept) {
      clearTimeout(kept.timer);
      kept.worker.ref();
      return kept.worker;
    }
    if (alive < WORKERS) {
      alive += 1;
      return startWorker();
    }
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

/** Back to the idle ones after a clean answer (unref'd: an idle worker keeps no process alive), or stopped. */
function giveBack(worker: Worker, clean: boolean): void {
  if (clean) {
    worker.unref();
    const entry: Idle = {
      worker,
      timer: setTimeout(() => {
        idle.splice(idle.indexOf(entry), 1);
        alive -= 1;
        void worker.terminate();
      }, IDLE_MS).unref(),
    };
    idle.push(entry);
  } else {
    alive -= 1;
    void worker.terminate();
  }
  waiting.shift()?.();
}

/**
 * Reads the polygons of a .shp (shp.ts `readShpPolygons`) in a worker thread, so that the server's other
 * calls are answered while it runs: the headers are checked here first (a file declaring too many or too
 * large rings is refused without a worker), then the worker has `timeoutMs` (FENCE_SHP_MAX_SECONDS) and
 * WORKER_HEAP_MB; past either it is stopped and the import refused naming the limit. The shapes come back
 * packed in a transferred buffer (packed-shapes.ts), decoded one by one as they are written.
 */
export async function readShpInWorker(bytes: Uint8Array, lang: Lang, opts: { timeoutMs?: number } = {}): Promise<ImportedShapes> {
  checkShpStructure(bytes, lang);
  const timeoutMs = opts.timeoutMs ?? FENCE_SHP_MAX_SECONDS * 1000;
  const worker = await takeWorker();
  shpReads.started += 1;
  shpReads.running += 1;
  let clean = false;
  try {
    return await new Promise<ImportedShapes>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        worker.off('message', onMessage).off('error', onError).off('exit', onExit);
      };
      const timer = setTimeout(() => {
        done();
        reject(importFailed(lang, message(lang, 'fence.import.tooSlow', { seconds: Math.round(timeoutMs / 100) / 10 })));
      }, timeoutMs);
      const onMessage = (a: ShpWorkerAnswer) => {
        done();
        clean = true;
        if ('packed' in a) resolve(new ImportedShapes(a.packed));
        else if ('refusal' in a) reject(new AppError(a.refusal.code, a.refusal.key as MessageKey, a.refusal.params));
        else reject(new Error(`shapefile worker: ${a.failure}`));
      };
      const onError = (err: Error & { code?: string }) => {
        done();
        reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? importFailed(lang, message(lang, 'fence.import.tooComplex', { limit: `${WORKER_HEAP_MB} MB` })) : err);
      };
      const onExit = (code: number) => {
        done();
        reject(new Error(`shapefile worker exited (${code})`));
      };
      worker.on('message', onMessage).on('error', onError).on('exit', onExit);
      worker.postMessage({ bytes, lang });
    });
  } finally {
    shpReads.running -= 1;
    giveBack(worker, clean);
  }
}
