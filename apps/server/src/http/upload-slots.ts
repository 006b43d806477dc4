import type { FastifyReply, FastifyRequest } from 'fastify';
import { Code } from '@wildtrack/contract';
import type { SignedIn } from './caller.js';
import { AppError } from './errors.js';

/** Whether a request sends a multipart body: a console upload (the calls that take files read it themselves). */
export function isUpload(request: FastifyRequest): boolean {
  return /^multipart\/form-data\b/i.test(String(request.headers['content-type'] ?? ''));
}

/**
 * A per-user cap on console uploads in progress (issue 26 M3: ten picture uploads held at 19 of 20 MB by
 * one user stayed open for good, +158 MiB). A slot is taken once the session is known, before a byte of the
 * body is read, and given back when the answer is sent or the connection goes; past the cap the upload is
 * refused 1012 in the caller's language and its connection closed, so its body is not read either. Per
 * process: with several processes behind a balancer a user has the cap in each (the timeouts and the
 * minimum body rate, http/body-rate.ts, bound how long any slot is held).
 */
export class UploadSlots {
  private readonly inUse = new Map<number, number>();

  constructor(private readonly perUser: number) {}

  take(request: FastifyRequest, reply: FastifyReply, session: SignedIn): void {
    const user = session.userId;
    const had = this.inUse.get(user) ?? 0;
    if (had >= this.perUser) {
      void reply.header('connection', 'close');
      throw new AppError(Code.TooManyRequests, 'upload.tooMany', { count: this.perUser });
    }
    this.inUse.set(user, had + 1);
    let held = true;
    reply.raw.once('close', () => {
      if (!held) return;
      held = false;
      const left = (this.inUse.get(user) ?? 1) - 1;
      if (left > 0) this.inUse.set(user, left);
      else this.inUse.delete(user);
    });
  }

  /** Uploads the user has in progress now (tests). */
  inProgress(userId: number): number {
    return this.inUse.get(userId) ?? 0;
  }
}
