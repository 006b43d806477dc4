import type { QueryClient } from '@tanstack/react-query';
import {
  API_BASE,
  Code,
  LanguageId,
  LIVE_RECONNECT_MAX_MS,
  LIVE_RECONNECT_MIN_MS,
  LIVE_STREAM_PATH,
  type LiveMessage,
  LiveMessageSchema,
  newRequestCode,
  parseCredential,
  signedHeaders,
  signingKey,
} from '@wildtrack/contract';
import { useSyncExternalStore } from 'react';
import { getLang } from '../i18n';
import { FIELD_CIPHER_SWITCH } from './api/client';
import { readStored } from '../browser/storage';
import { queryKeys } from './queryKeys';
import { positionKeys } from './tracks/hooks';

/**
 * The console's one live connection (issue 15 item 5; contract live.ts): a signed GET read as a stream with
 * fetch() (EventSource cannot send the signature headers), reconnected with a doubling delay after any
 * break (a server restart, the network) and told the last id of each kind it saw, so that what it missed
 * comes first. Each message invalidates the TanStack Query caches it changes: the notices (the avatar's
 * unread dot), the events (list and counts), a device's tracks and last positions (/map2d's markers move).
 */

export type LiveState = 'connecting' | 'open' | 'down';

let state: LiveState = 'connecting';
const listeners = new Set<() => void>();

function setState(next: LiveState): void {
  if (state === next) return;
  state = next;
  for (const l of listeners) l();
}

/** The live connection's state, for the header's small mark when it is down. */
export function useLiveState(): LiveState {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
}

interface Cursor {
  event?: number;
  notice?: number;
  fix?: string;
}

/** Devices whose positions changed, invalidated together at most this often (a fleet reporting at once is one refetch). */
const FIX_BATCH_MS = 1_500;

/** What each message changes in the caches. */
export function applyLiveMessage(client: QueryClient, msg: LiveMessage, pendingFixes: Set<string>, flushFixes: () => void): void {
  switch (msg.type) {
    case 'notice':
      void client.invalidateQueries({ queryKey: queryKeys.notices });
      break;
    case 'event':
      void client.invalidateQueries({ queryKey: queryKeys.events });
      break;
    case 'fix':
      pendingFixes.add(msg.imei);
      flushFixes();
      break;
    case 'access':
      // a share to the user ended or changed: the tree drops (or re-reads) its devices, and what shows them reads them again
      void client.invalidateQueries({ queryKey: queryKeys.tree });
      void client.invalidateQueries({ queryKey: positionKeys.all });
      break;
    case 'resync':
      if (msg.what === 'notice') void client.invalidateQueries({ queryKey: queryKeys.notices });
      else if (msg.what === 'event') void client.invalidateQueries({ queryKey: queryKeys.events });
      else void client.invalidateQueries({ queryKey: positionKeys.all });
      break;
    case 'ready':
      break;
  }
}

/** Whether a positions query names one of these devices (its third part is the list of IMEIs). */
function namesDevice(key: readonly unknown[], imeis: Set<string>): boolean {
  const list = key[2];
  return Array.isArray(list) && list.some((i) => typeof i === 'string' && imeis.has(i));
}

/**
 * Keeps the live connection open while `token` is the session; returns the function that closes it (sign-out,
 * another session). A refusal of the session itself (1004) stops it: the next call signs the user out.
 */
export function startLive(client: QueryClient, token: string): () => void {
  let stopped = false;
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let fixTimer: ReturnType<typeof setTimeout> | undefined;
  let delay = LIVE_RECONNECT_MIN_MS;
  const cursor: Cursor = {};
  const pendingFixes = new Set<string>();
  let wasDown = false;

  const flushFixes = (): void => {
    if (fixTimer !== undefined) return;
    fixTimer = setTimeout(() => {
      fixTimer = undefined;
      const imeis = new Set(pendingFixes);
      pendingFixes.clear();
      void client.invalidateQueries({ queryKey: positionKeys.all, predicate: (q) => namesDevice(q.queryKey, imeis) });
      void client.invalidateQueries({ queryKey: queryKeys.tree });
    }, FIX_BATCH_MS);
  };

  const advance = (msg: LiveMessage): void => {
    if (msg.type === 'ready') {
      cursor.event ??= msg.cursor.event;
      cursor.notice ??= msg.cursor.notice;
      cursor.fix ??= msg.cursor.fix;
    } else if (msg.type === 'event') cursor.event = Math.max(cursor.event ?? 0, msg.eventId);
    else if (msg.type === 'notice') cursor.notice = Math.max(cursor.notice ?? 0, msg.noticeId);
    else if (msg.type === 'fix') cursor.fix = msg.id.slice(2);
  };

  const connect = async (): Promise<void> => {
    if (stopped) return;
    const params = new URLSearchParams();
    if (cursor.event !== undefined) params.set('event', String(cursor.event));
    if (cursor.notice !== undefined) params.set('notice', String(cursor.notice));
    if (cursor.fix !== undefined) params.set('fix', cursor.fix);
    const requestCode = newRequestCode();
    // The messages come encrypted with this request's answer key, as a call's Data does (lib/api/client.ts);
    // the cursors go encrypted too. The cipher module is loaded by the first signed-in call already.
    const cipher = readStored('local', FIELD_CIPHER_SWITCH) === 'off' ? undefined : await import('@wildtrack/contract/field-cipher');
    const keys = cipher?.callKeys(signingKey(parseCredential(token).token), requestCode);
    let qs = params.toString();
    if (cipher && keys) qs = `Encrypted=${encodeURIComponent(cipher.encryptJson(keys.request, keys.aad, Object.fromEntries(params)))}`;
    const path = LIVE_STREAM_PATH + (qs ? `?${qs}` : '');
    controller = new AbortController();
    let refusedSession = false;
    try {
      const res = await fetch(API_BASE + path, {
        headers: signedHeaders({ token, method: 'GET', path, body: '', lcid: LanguageId[getLang()], requestCode }),
        signal: controller.signal,
        credentials: 'same-origin',
        cache: 'no-store',
      });
      if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream') || !res.body) {
        const env = (await res.json().catch(() => null)) as { Code?: number } | null;
        refusedSession = env?.Code === Code.SessionExpired;
        throw new Error(`live stream refused: ${res.status} ${env?.Code ?? ''}`);
      }
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const data = frame.split('\n').find((l) => l.startsWith('data: '));
          if (!data) continue;
          const text = data.slice(6);
          // With the cipher, a message in clear was not written by the server: dropped.
          let value: unknown;
          if (cipher && keys) {
            if (!cipher.isEncryptedText(text)) continue;
            value = await cipher.openData(keys.answer, keys.aad, text).then((o) => o.value, () => undefined);
          } else value = JSON.parse(text);
          const parsed = LiveMessageSchema.safeParse(value);
          if (!parsed.success) continue;
          const msg = parsed.data;
          if (msg.type === 'ready') {
            setState('open');
            delay = LIVE_RECONNECT_MIN_MS;
            // Back after a break: whatever the replay can't say (positions, counts) is read again.
            if (wasDown) {
              wasDown = false;
              void client.invalidateQueries({ queryKey: queryKeys.notices });
              void client.invalidateQueries({ queryKey: queryKeys.events });
            }
          }
          applyLiveMessage(client, msg, pendingFixes, flushFixes);
          advance(msg);
        }
      }
    } catch {
      // a break or a refusal: reconnect below
    }
    if (stopped || refusedSession) return;
    wasDown = true;
    setState('down');
    retryTimer = setTimeout(() => void connect(), delay);
    delay = Math.min(delay * 2, LIVE_RECONNECT_MAX_MS);
  };

  setState('connecting');
  void connect();
  return () => {
    stopped = true;
    clearTimeout(retryTimer);
    clearTimeout(fixTimer);
    controller?.abort();
    setState('connecting');
  };
}
