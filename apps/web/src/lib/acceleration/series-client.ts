import { workerJobs } from '../worker-jobs';
import { type Decoded, type DecodeInput, decodeWithEnvelope } from './decode';

/** The acceleration binary decoded and its ODBA summarised, in the page's acceleration worker (lib/worker-jobs). */
export const decodeAcceleration: (input: DecodeInput, signal?: AbortSignal) => Promise<Decoded> = workerJobs(
  () => new Worker(new URL('./series.worker.ts', import.meta.url), { type: 'module', name: 'acceleration-decoder' }),
  decodeWithEnvelope,
  'acceleration decoder',
);
