import type { FastifyReply, FastifyRequest } from 'fastify';
import { Code } from '@wildtrack/contract';
import { AppError } from './errors.js';

/**
 * A multipart upload whose client goes away or stalls mid-body. Gone: its request closes incomplete, and
 * neither the multipart iterator nor a part's stream ends (busboy waits for bytes that never come).
 * Stalled: nothing arrives for `idleMs` while the connection stays open, and the handler would wait for
 * good, holding its open file (100 such uploads: +200 descriptors, 100 files in imports/). `cut` rejects
 * in both cases (after `onCut`: destroy what is open), so the handler's own clean-up runs at once; a
 * stalled one is answered (601 naming the wait) and its connection closed; `done()` once the body was read.
 */
export function watchCut(request: FastifyRequest, reply: FastifyReply, idleMs: number, onCut: () => void): { cut: Promise<never>; done(): void } {
  let reject: (err: AppError) => void = () => {};
  const cut = new Promise<never>((_, r) => (reject = r));
  // never unhandled: the handler races it, and after done() it may never settle
  cut.catch(() => {});
  const raw = request.raw;
  // progress is read from the socket's byte count: a 'data' listener would take the body from busboy
  let seen = -1;
  const stop = () => {
    clearInterval(timer);
    raw.off('close', onClose);
  };
  const fail = (err: AppError) => {
    stop();
    onCut();
    reject(err);
  };
  const onClose = () => {
    // answered as an upload that ended early, should the client still listen
    if (!raw.complete) fail(new AppError(Code.Invalid, 'upload.truncated'));
  };
  const timer = setInterval(() => {
    const read = (raw.socket as { bytesRead?: number } | null)?.bytesRead ?? seen + 1;
    if (raw.complete || read !== seen) {
      seen = read;
      return;
    }
    reply.header('connection', 'close');
    fail(new AppError(Code.Invalid, 'upload.stalled', { seconds: Math.round(idleMs / 100) / 10 }));
  }, idleMs).unref();
  if (raw.destroyed && !raw.complete) queueMicrotask(onClose);
  else raw.once('close', onClose);
  return { cut, done: stop };
}

/**
 * A multipart body's Content-Type must name its boundary (RFC 7578): without one busboy can't read a
 * part and threw, answered as HTTP 500. Refused as the envelope's 601 instead, saying what is missing.
 */
export function requireBoundary(request: FastifyRequest): void {
  const type = request.headers['content-type'] ?? '';
  if (!/;\s*boundary=(?:"[^"]+"|[^;\s"]+)/i.test(type)) throw new AppError(Code.Invalid, 'upload.noBoundary');
}
