/// <reference lib="webworker" />
import { decodeBase64SensorSeries, type SensorSeries } from '@wildtrack/contract';
import { serveJobs } from '../../../lib/worker-jobs';

/** Decodes a sensor series off the main thread: base64 text in, typed arrays out (transferred, not copied). */
declare const self: DedicatedWorkerGlobalScope;

serveJobs(self, decodeBase64SensorSeries, (s: SensorSeries) => [s.times.buffer, s.mean.buffer, s.min.buffer, s.max.buffer, s.counts.buffer] as ArrayBuffer[]);
