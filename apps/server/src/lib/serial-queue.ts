/**
 * Work claimed from the database and run one item at a time in this process (Movebank imports, download
 * tasks): `drain` claims and runs items until none is left, a drain asked while one runs joins it, and
 * `close` stops claiming and waits for the item being run. Another process drains the same table beside
 * it: the claim (a conditional update, FOR UPDATE SKIP LOCKED) decides who runs an item.
 */
export class SerialQueue<T> {
  private draining: Promise<void> | null = null;
  private closing = false;

  constructor(
    private readonly claim: () => Promise<T | undefined>,
    private readonly run: (item: T) => Promise<void>,
  ) {}

  get closed(): boolean {
    return this.closing;
  }

  drain(): Promise<void> {
    if (this.closing) return Promise.resolve();
    this.draining ??= (async () => {
      try {
        for (;;) {
          if (this.closing) return;
          const item = await this.claim();
          if (item === undefined) return;
          await this.run(item);
        }
      } finally {
        this.draining = null;
      }
    })();
    return this.draining;
  }

  /** No more claims; `stop` ends what runs now, then the drain is waited for. */
  async close(stop: () => Promise<void>): Promise<void> {
    this.closing = true;
    await stop();
    await this.draining?.catch(() => undefined);
  }
}
