export type { DecodedTrack } from './types';
export { indexAtTime, lastAtOrBefore } from './types';
export { decodeTracks } from './worker-client';
export { positionKeys, useTracks, useLastFixes, type TrackQuery } from './hooks';
