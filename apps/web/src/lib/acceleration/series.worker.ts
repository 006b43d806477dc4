/// <reference lib="webworker" />
import { serveJobs } from '../worker-jobs';
import { decodedBuffers, decodeWithEnvelope } from './decode';

/** Decodes the acceleration binary off the main thread and summarises its ODBA for the overview chart. */
declare const self: DedicatedWorkerGlobalScope;

serveJobs(self, decodeWithEnvelope, decodedBuffers);
