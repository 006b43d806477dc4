import {
  type Ack,
  type FenceAck,
  INGEST_BASE,
  type IngestAnswer,
  IngestAnswerSchema,
  type IngestBatch,
  ingestHeaders,
} from '@wildtrack/contract';
import { type MediaItem, mediaQuery } from '@wildtrack/sample-fleet';

export interface DeviceCredentials {
  imei: string;
  secret: string;
}

/** The server said no (4xx): retrying the same request will not help. */
export class IngestRefused extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly reason: string,
  ) {
    super(`HTTP ${status} ${error}: ${reason}`);
    this.name = 'IngestRefused';
  }
}

export function mediaPath(item: MediaItem): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(mediaQuery(item))) if (v !== undefined) q.set(k, String(v));
  return `${INGEST_BASE}/media?${q.toString()}`;
}

export interface ClientOptions {
  /** Attempts per request on network errors, 5xx and 429 (default 6). */
  attempts?: number;
  /** First back-off, ms (doubles each time, at most 10 s). */
  backoffMs?: number;
  fetch?: typeof fetch;
  onRetry?: (what: string, attempt: number, error: string) => void;
}

/**
 * A device's side of the ingest protocol. Each attempt is signed afresh (new timestamp and nonce), so a
 * retry after a network error is a new request; the records it repeats are deduplicated by the server.
 */
export class IngestClient {
  private readonly base: URL;
  constructor(
    server: string,
    readonly device: DeviceCredentials,
    private readonly opts: ClientOptions = {},
  ) {
    this.base = new URL(server.endsWith('/') ? server : `${server}/`);
  }

  async sendBatch(batch: IngestBatch): Promise<IngestAnswer> {
    return IngestAnswerSchema.parse(await this.post(`${INGEST_BASE}/batch`, JSON.stringify(batch), 'application/json'));
  }

  async sendMedia(item: MediaItem): Promise<IngestAnswer> {
    return IngestAnswerSchema.parse(await this.post(mediaPath(item), item.body, item.contentType));
  }

  async ack(ack: Ack): Promise<unknown> {
    return this.post(`${INGEST_BASE}/ack`, JSON.stringify(ack), 'application/json');
  }

  /** The device applied (or dropped) a device-side fence rule at this version (POST /fence-ack). */
  async ackFence(ack: FenceAck): Promise<unknown> {
    return this.post(`${INGEST_BASE}/fence-ack`, JSON.stringify(ack), 'application/json');
  }

  private async post(path: string, body: string | Uint8Array, contentType: string): Promise<unknown> {
    const url = new URL(path.replace(/^\//, ''), this.base);
    const signedPath = url.pathname + url.search;
    const attempts = this.opts.attempts ?? 6;
    const doFetch = this.opts.fetch ?? fetch;
    let last = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) {
        this.opts.onRetry?.(path.split('?')[0]!, attempt, last);
        await new Promise((r) => setTimeout(r, Math.min(10_000, (this.opts.backoffMs ?? 500) * 2 ** (attempt - 2))));
      }
      let res: Response;
      try {
        const headers = { ...ingestHeaders({ imei: this.device.imei, secret: this.device.secret, path: signedPath, body }), 'content-type': contentType };
        res = await doFetch(url, { method: 'POST', headers, body: typeof body === 'string' ? body : new Blob([body as Uint8Array<ArrayBuffer>]) });
      } catch (e) {
        last = e instanceof Error ? `${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ''}` : String(e);
        continue;
      }
      const text = await res.text();
      let json: unknown = null;
      try {
        json = text ? JSON.parse(text) : null;
      } catch {
        json = null;
      }
      if (res.ok) return json;
      const err = (json ?? {}) as { error?: string; reason?: string };
      if (res.status >= 500 || res.status === 429) {
        last = `HTTP ${res.status} ${err.error ?? text.slice(0, 200)}`;
        continue;
      }
      throw new IngestRefused(res.status, err.error ?? 'refused', err.reason ?? text.slice(0, 300));
    }
    throw new Error(`${path.split('?')[0]}: gave up after ${attempts} attempts: ${last}`);
  }
}
