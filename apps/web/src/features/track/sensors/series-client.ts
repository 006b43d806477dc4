import { decodeBase64SensorSeries, type SensorSeries } from '@wildtrack/contract';
import { workerJobs } from '../../../lib/worker-jobs';

/** Base64 SensorSeries text to typed arrays, in the page's series-decoding worker (lib/worker-jobs). */
export const decodeSeries: (base64: string | Uint8Array, signal?: AbortSignal) => Promise<SensorSeries> = workerJobs(
  () => new Worker(new URL('./series.worker.ts', import.meta.url), { type: 'module', name: 'sensor-series-decoder' }),
  decodeBase64SensorSeries,
  'sensor series decoder',
);
