import { RecordUserLog, USER_LOG_BATCH_MAX, type UserLogEntry, type UserLogType } from '@wildtrack/contract';
import { call } from './api';
import { hasToken } from './session';

/**
 * The user log's recorder (§7.2 UserLog/Record): page visits (from the router, app/Root.tsx) and key
 * actions are queued and sent in one quiet call a few seconds later (or when the queue is full, the page
 * is hidden, or someone reads the log), so recording costs no request per click. A failure is never
 * shown (§8): the call is `quiet` and the entries are dropped.
 */
const FLUSH_AFTER_MS = 3000;
const queue: UserLogEntry[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
// Unit tests render screens with a mocked server: they record only when a test asks (enableUserLog).
let enabled = import.meta.env.MODE !== 'test';

export function enableUserLog(on: boolean): void {
  enabled = on;
}

/** A path or action name the server accepts: no query, no spaces, at most 120 characters. */
export function logTarget(text: string): string {
  return text.split(/[?#]/, 1)[0]!.replace(/[^A-Za-z0-9_\-./:]/g, '_').slice(0, 120) || '/';
}

function push(entryType: UserLogType, target: string): void {
  if (!enabled || !hasToken()) return;
  queue.push({ entryType, target: logTarget(target), time: Date.now() });
  if (queue.length >= USER_LOG_BATCH_MAX) void flushUserLog();
  else if (timer === undefined) timer = setTimeout(() => void flushUserLog(), FLUSH_AFTER_MS);
}

export function recordVisit(pathname: string): void {
  push('visit', pathname);
}

export function recordAction(name: string): void {
  push('action', name);
}

/** The sends under way, in turn: a flush resolves only after every earlier one's entries reached the server. */
let sending: Promise<void> = Promise.resolve();

/**
 * Sends what is queued now; resolves when the server answered (or failed, silently), and not before the
 * sends already under way did: a reader's flush must not list the log while the timer's send of the
 * entries it just took from the queue is still on its way (the primary user's own visit then missed the list).
 */
export function flushUserLog(): Promise<void> {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  const entries = queue.splice(0, queue.length);
  sending = sending.then(async () => {
    for (let i = 0; i < entries.length; i += USER_LOG_BATCH_MAX) {
      if (!hasToken()) return;
      try {
        await call(RecordUserLog, { entries: entries.slice(i, i + USER_LOG_BATCH_MAX) }, { quiet: true, notify: false, loading: false, repeatCheck: false });
      } catch {
        // §8: the log never bothers the user; these entries are lost
      }
    }
  });
  return sending;
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', () => void flushUserLog());
