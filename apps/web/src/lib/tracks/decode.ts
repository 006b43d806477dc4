import { decodeTrackSet, type TrackArrays } from '@wildtrack/contract/track-codec';

/** Base64 text to bytes: the browser's own decoder where it has one (Chromium 140+), else atob. */
export function base64ToBytes(text: string): Uint8Array {
  const native = (Uint8Array as unknown as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
  if (native) return native(text);
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function decodeBase64Tracks(text: string | Uint8Array): TrackArrays[] {
  // The bytes themselves when the answer came encrypted (lib/api callBinary), base64 when it came in clear.
  if (typeof text !== 'string') return text.length === 0 ? [] : decodeTrackSet(text);
  return text === '' ? [] : decodeTrackSet(base64ToBytes(text));
}

/** The buffers of decoded tracks, handed over (not copied) from the worker. */
export function transferables(tracks: readonly TrackArrays[]): ArrayBuffer[] {
  return tracks.flatMap((t) => [t.times.buffer, t.lonLat.buffer, t.alt.buffer, t.grade.buffer, t.valid.buffer, t.averaged.buffer] as ArrayBuffer[]);
}
