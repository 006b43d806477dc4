// The bench's stand-in for the browser's decoding worker (apps/web/src/lib/tracks/decode.worker.ts):
// the same decodeTrackSet over the TrackSet's bytes (opened from the encrypted answer), the typed arrays transferred back.
import { parentPort } from 'node:worker_threads';
import { decodeTrackSet } from '@wildtrack/contract/track-codec';

parentPort!.on('message', (bytes: Uint8Array) => {
  const t0 = performance.now();
  const tracks = decodeTrackSet(bytes);
  const transfer = tracks.flatMap((t) => [t.times.buffer, t.lonLat.buffer, t.alt.buffer, t.grade.buffer, t.valid.buffer, t.averaged.buffer] as ArrayBuffer[]);
  parentPort!.postMessage({ count: tracks.reduce((n, t) => n + t.count, 0), ms: performance.now() - t0, tracks }, transfer);
});
