import type { MediaQuery } from '@wildtrack/contract';
import type { MediaItem } from '../device.js';

/** The media query of an item, in the order of MediaQuerySchema, without absent fields. */
export function mediaQuery(item: MediaItem): MediaQuery {
  const q: MediaQuery = { kind: item.kind, t: item.t, lon: item.lon, lat: item.lat, alt: item.alt };
  for (const k of ['width', 'height', 'duration', 'rate', 'bitDepth', 'track'] as const) {
    if (item[k] !== undefined) q[k] = item[k];
  }
  return q;
}
