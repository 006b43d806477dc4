import { useSyncExternalStore } from 'react';

/**
 * The global loading overlay is a counter: every request that shows it adds one and takes it away on
 * every outcome (§8 "The loading overlay closes on every outcome").
 */
let count = 0;
const listeners = new Set<() => void>();

function emit(): void {
  for (const listener of listeners) listener();
}

/** Opens the overlay for one request; the returned function closes it and is safe to call twice. */
export function beginLoading(): () => void {
  count += 1;
  emit();
  let done = false;
  return () => {
    if (done) return;
    done = true;
    count = Math.max(0, count - 1);
    emit();
  };
}

export function loadingCount(): number {
  return count;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useLoadingCount(): number {
  return useSyncExternalStore(subscribe, loadingCount, loadingCount);
}
