import type { TrackArrays } from '@wildtrack/contract';

/**
 * A device's track as the map views draw it: decoded in a Web Worker from the compact binary of
 * Fix/GetList and Fix/GetListByImeis (packages/contract/src/track-codec.ts:
 * times Float64Array epoch ms ascending, lonLat interleaved Float64Array, alt Float32Array with NaN for none,
 * grade Uint8Array 0 = unknown, valid and averaged Uint8Array 0/1) into typed arrays, so a
 * million points never become a million objects on the main thread.
 */
export type DecodedTrack = TrackArrays;

/**
 * Index of the last of the first `count` ascending `times` at or before `time` (binary search), -1 when
 * the first is later. The one "where is a device at this moment" of the maps, the replay and the table.
 */
export function lastAtOrBefore(times: ArrayLike<number>, count: number, time: number): number {
  let lo = 0;
  let hi = count - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid]! <= time) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Index of the last point at or before `time`, -1 when the track starts later. */
export function indexAtTime(track: DecodedTrack, time: number): number {
  return lastAtOrBefore(track.times, track.count, time);
}
