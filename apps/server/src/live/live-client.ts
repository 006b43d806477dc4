import http from 'node:http';
import { API_BASE, callKeys, CIPHER_PREFIX, decryptBytes, fromBase64, LIVE_STREAM_PATH, type LiveMessage, LiveMessageSchema, newRequestCode, parseCredential, signedHeaders, signingKey } from '@wildtrack/contract';
import { now as clockNow } from '../lib/clock.js';

/**
 * A console's live stream read over HTTP as the web client reads it (signed GET, fetch streaming), for tests:
 * the messages so far, a wait for one, and whether the server ended it.
 */
export interface LiveReader {
  status: number;
  messages: LiveMessage[];
  /** The envelope of a refusal (when status or content type say it is not a stream). */
  refusal: { Code: number; Msg: string } | null;
  ended: Promise<void>;
  isEnded(): boolean;
  waitFor(pred: (m: LiveMessage) => boolean, timeoutMs?: number): Promise<LiveMessage>;
  close(): void;
}

/** `now`: the signature's timestamp, the server's clock (lib/clock.ts) unless given (a server process started at CLOCK_START). */
export async function openLiveReader(baseUrl: string, token: string | undefined, query: Record<string, string | number> = {}, now = clockNow()): Promise<LiveReader> {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const p = LIVE_STREAM_PATH + (qs ? `?${qs}` : '');
  const requestCode = newRequestCode();
  // Messages come encrypted with the stream request's answer key (docs/api.md "Encrypted bodies and answers").
  const keys = token ? callKeys(signingKey(parseCredential(token).token), requestCode) : undefined;
  const open = (text: string): unknown => {
    if (!keys || !text.startsWith(CIPHER_PREFIX)) return JSON.parse(text);
    return JSON.parse(new TextDecoder().decode(decryptBytes(keys.answer, keys.aad, fromBase64(text.slice(CIPHER_PREFIX.length))).subarray(1)));
  };
  // node:http rather than fetch: fetch's pool opens spare connections that hold a closing server for a minute.
  const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const req = http.get(baseUrl + API_BASE + p, { headers: signedHeaders({ token, method: 'GET', path: p, body: '', requestCode, now }), agent: false }, resolve);
    req.on('error', reject);
  });
  const messages: LiveMessage[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const status = res.statusCode ?? 0;
  if (!(res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    let text = '';
    for await (const chunk of res) text += String(chunk);
    const env = JSON.parse(text) as { Code: number; Msg: string };
    return { status, messages, refusal: env, ended: Promise.resolve(), isEnded: () => true, waitFor: () => Promise.reject(new Error('refused')), close: () => {} };
  }
  res.setEncoding('utf8');
  const done = (async () => {
    let buffer = '';
    try {
      for await (const chunk of res) {
        buffer += String(chunk);
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (data) messages.push(LiveMessageSchema.parse(open(data.slice(6))));
        }
        for (const w of waiters) w();
      }
    } catch {
      // closed by close()
    } finally {
      ended = true;
      for (const w of waiters) w();
    }
  })();
  return {
    status,
    messages,
    refusal: null,
    ended: done,
    isEnded: () => ended,
    waitFor: (pred, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const m = messages.find(pred);
          if (m) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve(m);
          } else if (ended) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`the stream ended without the message; got ${JSON.stringify(messages)}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such message within ${timeoutMs} ms; got ${JSON.stringify(messages)}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () => res.destroy(),
  };
}
