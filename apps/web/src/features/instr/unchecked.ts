import type { InstrType } from '@wildtrack/contract';
import { useSyncExternalStore } from 'react';

/**
 * The devices /instr unchecked because they are at today's limit for a type it sends (§9), with the
 * count that put them there: kept outside React beside the tree's own selection (both change together
 * when a limit answer comes), until the user dismisses the note.
 */
export interface Unchecked {
  imei: string;
  name: string;
  type: InstrType;
  count: number;
}

let notes: readonly Unchecked[] = [];
const listeners = new Set<() => void>();

function emit(next: readonly Unchecked[]): void {
  notes = next;
  for (const l of listeners) l();
}

/** Adds notes (a device and type noted again replaces its older note). */
export function noteUnchecked(added: readonly Unchecked[]): void {
  emit([...added, ...notes.filter((n) => !added.some((a) => a.imei === n.imei && a.type === n.type))]);
}

export function clearUnchecked(): void {
  emit([]);
}

export function useUnchecked(): readonly Unchecked[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => notes,
    () => notes,
  );
}
