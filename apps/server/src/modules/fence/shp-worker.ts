import { parentPort } from 'node:worker_threads';
import type { Lang } from '@wildtrack/contract';
import { AppError } from '../../http/errors.js';
import { packShapes, type PackedShapes } from './packed-shapes.js';
import { readShpPolygons } from './shp.js';

/** What the worker answers: the shapes (packed, their buffers transferred), the refusal to pass on, or an unexpected failure's text. */
export type ShpWorkerAnswer =
  | { packed: PackedShapes }
  | { refusal: { code: number; key: string; params: Record<string, string | number> } }
  | { failure: string };

/**
 * A worker thread of the shapefile imports (shp-import.ts keeps a few): reads and checks one file's geometry
 * per message, off the server's event loop, and answers it.
 */
parentPort?.on('message', (m: { bytes: Uint8Array; lang: Lang }) => {
  void readShpPolygons(m.bytes, m.lang).then(
    (shapes) => {
      const packed = packShapes(shapes);
      parentPort!.postMessage({ packed } satisfies ShpWorkerAnswer, [packed.text.buffer, packed.ends.buffer]);
    },
    (err: unknown) =>
      parentPort!.postMessage(
        (err instanceof AppError
          ? { refusal: { code: err.code, key: err.messageKey, params: err.params } }
          : { failure: err instanceof Error ? err.message : String(err) }) satisfies ShpWorkerAnswer,
      ),
  );
});
