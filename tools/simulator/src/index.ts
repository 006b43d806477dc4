// The simulator: the sample-fleet generator's devices speaking the ingest protocol over HTTP (client, CLI).
// The generator is re-exported so that callers of the simulator need one import.
export * from '@wildtrack/sample-fleet';
export { mediaPath, IngestClient, IngestRefused } from './client.js';
export type { DeviceCredentials } from './client.js';
export { LiveDevice } from './live.js';
export type { DeviceEntry, LiveOptions, Relay, WakeResult } from './live.js';
