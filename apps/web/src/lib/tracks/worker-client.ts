import type { DecodedTrack } from './types';
import { decodeBase64Tracks } from './decode';
import type { DecodeReply, DecodeRequest } from './decode.worker';

/**
 * One decoding worker for the page, started on first use. Where workers can't start (tests in jsdom)
 * decoding runs inline: same result, only on the main thread.
 */
let worker: Worker | null | undefined;
let nextId = 1;
const pending = new Map<number, { resolve: (t: DecodedTrack[]) => void; reject: (e: Error) => void }>();

function getWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker = typeof Worker === 'undefined' ? null : new Worker(new URL('./decode.worker.ts', import.meta.url), { type: 'module', name: 'track-decoder' });
  } catch {
    worker = null;
  }
  worker?.addEventListener('message', (event: MessageEvent<DecodeReply>) => {
    const job = pending.get(event.data.id);
    if (!job) return;
    pending.delete(event.data.id);
    if ('error' in event.data) job.reject(new Error(event.data.error));
    else job.resolve(event.data.tracks);
  });
  worker?.addEventListener('error', (event) => {
    for (const job of pending.values()) job.reject(new Error(event.message || 'track decoder failed'));
    pending.clear();
  });
  return worker;
}

export function decodeTracks(base64: string, signal?: AbortSignal): Promise<DecodedTrack[]> {
  const w = getWorker();
  if (!w) return Promise.resolve(decodeBase64Tracks(base64));
  const id = nextId++;
  return new Promise<DecodedTrack[]>((resolve, reject) => {
    pending.set(id, { resolve, reject });
    signal?.addEventListener('abort', () => {
      if (pending.delete(id)) reject(new DOMException('aborted', 'AbortError'));
    });
    w.postMessage({ id, base64 } satisfies DecodeRequest);
  });
}
