import { parentPort } from 'node:worker_threads';
import type { Lang } from '@wildtrack/contract';
import type { FenceGeometry } from './geometry.js';
import { AppError } from '../../http/errors.js';
import { readShpPolygons } from './shp.js';

/** What the worker answers: the shapes, the refusal to pass on, or an unexpected failure's text. */
export type ShpWorkerAnswer =
  | { shapes: FenceGeometry[] }
  | { refusal: { code: number; key: string; params: Record<string, string | number> } }
  | { failure: string };

/**
 * A worker thread of the shapefile imports (shp-import.ts keeps a few): reads and checks one file's geometry
 * per message, off the server's event loop, and answers it.
 */
parentPort?.on('message', (m: { bytes: Uint8Array; lang: Lang }) => {
  void readShpPolygons(m.bytes, m.lang).then(
    (shapes) => parentPort!.postMessage({ shapes } satisfies ShpWorkerAnswer),
    (err: unknown) =>
      parentPort!.postMessage(
        (err instanceof AppError
          ? { refusal: { code: err.code, key: err.messageKey, params: err.params } }
          : { failure: err instanceof Error ? err.message : String(err) }) satisfies ShpWorkerAnswer,
      ),
  );
});
