import type { DecodedTrack } from './types';
import { decodeBase64Tracks } from './decode';
import { workerJobs } from '../worker-jobs';

/** Base64 TrackSet text to typed arrays, in the page's track-decoding worker (lib/worker-jobs). */
export const decodeTracks: (base64: string | Uint8Array, signal?: AbortSignal) => Promise<DecodedTrack[]> = workerJobs(
  () => new Worker(new URL('./decode.worker.ts', import.meta.url), { type: 'module', name: 'track-decoder' }),
  decodeBase64Tracks,
  'track decoder',
);
