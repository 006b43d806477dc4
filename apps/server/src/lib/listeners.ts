/**
 * The subscribers of one kind of news (a fence crossing, fixes stored, a sign-out...): each `add` is one
 * more, never a replacement (shared/CONVENTIONS.md 19), so a new channel is one more subscriber and does
 * not unhook the ones before it.
 *
 * - `emit` tells each in the order added and does not wait: a listener that throws, or whose promise
 *   rejects, is logged and the others are still told. For news whose producer goes on regardless.
 * - `emitInTurn` awaits each in order; after all were told it throws the one failure, or an
 *   AggregateError of several. For a producer that must wait for its subscribers (a member disabled: their
 *   shares end before the call answers).
 *
 * The lowest room of the server (lib/): it imports nothing of the app (lint).
 */

/** Where `emit` writes a listener's failure (a pino logger fits; console by default). */
export interface ListenerLog {
  error(obj: object, msg: string): void;
}

const consoleLog: ListenerLog = { error: (obj, msg) => console.error(msg, obj) };

export class Listeners<A extends unknown[]> {
  // one entry per `add`: the same function added twice is told twice, and each removal takes out its own
  private entries: { fn: (...args: A) => unknown }[] = [];

  /** `what` names the news in the log line of a failure. */
  constructor(
    private readonly what: string,
    private readonly log: ListenerLog = consoleLog,
  ) {}

  /** Adds a listener; returns the function that removes it (again: nothing). */
  add(fn: (...args: A) => unknown): () => void {
    const entry = { fn };
    this.entries = [...this.entries, entry];
    return () => {
      this.entries = this.entries.filter((e) => e !== entry);
    };
  }

  get size(): number {
    return this.entries.length;
  }

  /** Tells each listener, not waiting; each failure (thrown, or a rejected promise) is logged. */
  emit(...args: A): void {
    // the list as it was: a listener that adds or removes one does not change who is told this time
    for (const { fn } of this.entries) {
      try {
        const out = fn(...args);
        if (out instanceof Promise) out.catch((err: unknown) => this.failed(err));
      } catch (err) {
        this.failed(err);
      }
    }
  }

  /** Tells each listener in turn, awaiting each; then throws the failure, or an AggregateError of the failures. */
  async emitInTurn(...args: A): Promise<void> {
    const errors: unknown[] = [];
    for (const { fn } of this.entries) {
      try {
        await fn(...args);
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, `${errors.length} listeners of ${this.what} failed`);
  }

  private failed(err: unknown): void {
    try {
      this.log.error({ err }, `a listener of ${this.what} failed`);
    } catch {
      // a log that throws must not stop the other listeners either
    }
  }
}
