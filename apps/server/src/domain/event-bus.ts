import { Listeners } from '../lib/listeners.js';

/**
 * The seam for live delivery (issue 15 item 5): "a notice was created" / "an event was created", announced
 * in this process by whoever stored it, after its transaction committed. Live delivery (L1) listens with
 * onCreated and carries it to consoles (and across processes); nothing here knows who reads it.
 *
 * - notice: written by NoticeService.send (the CLI's send-notice; orgId null = to all) and sendToUser (a
 *   system notice to one user: userId, who alone reads it; null = every user of orgId).
 * - event: whoever stores an event (fences at ingest, detection, instruction status changes) calls
 *   announceCreated({ kind: 'event', ... }) once the row is committed.
 *
 * The announcement is deferred to the next turn of the event loop (setImmediate) so that a caller inside a
 * synchronous transaction, or about to commit, is done before a listener reads the row.
 */
export type Created =
  | { kind: 'notice'; noticeId: number; orgId: number | null; userId: number | null }
  | { kind: 'event'; eventId: number; deviceId: number; type: number; happenTime: number };

// A listener that throws is logged and the others still hear it (an EventEmitter's throw, out of
// setImmediate, would have ended the process).
const feed = new Listeners<[Created]>('a row created');

export function announceCreated(c: Created): void {
  setImmediate(() => feed.emit(c));
}

/** Listens to what is created in this process; returns the function that stops listening. */
export function onCreated(listener: (c: Created) => void): () => void {
  return feed.add(listener);
}
