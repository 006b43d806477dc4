/// <reference lib="webworker" />
import { decodeBase64Tracks, transferables } from './decode';

/** Decodes a TrackSet off the main thread: base64 text in, typed arrays out (transferred, not copied). */
declare const self: DedicatedWorkerGlobalScope;

export interface DecodeRequest {
  id: number;
  base64: string;
}
export type DecodeReply = { id: number; tracks: ReturnType<typeof decodeBase64Tracks>; ms: number } | { id: number; error: string };

self.onmessage = (event: MessageEvent<DecodeRequest>) => {
  const { id, base64 } = event.data;
  try {
    const started = performance.now();
    const tracks = decodeBase64Tracks(base64);
    const reply: DecodeReply = { id, tracks, ms: performance.now() - started };
    self.postMessage(reply, transferables(tracks));
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) } satisfies DecodeReply);
  }
};
