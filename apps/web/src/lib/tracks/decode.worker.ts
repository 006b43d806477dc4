/// <reference lib="webworker" />
import { serveJobs } from '../worker-jobs';
import { decodeBase64Tracks, transferables } from './decode';

/** Decodes a TrackSet off the main thread: base64 text in, typed arrays out (transferred, not copied). */
declare const self: DedicatedWorkerGlobalScope;

serveJobs(self, decodeBase64Tracks, transferables);
