import { useSyncExternalStore } from 'react';

/**
 * The moment the acceleration panel points at (a burst's sample hovered or played), for the /track map to
 * mark where the animal was then (AccelerationMark). A store of one value: epoch ms or null.
 */
let moment: number | null = null;
let owner = '';
const listeners = new Set<() => void>();

/**
 * Points the map at a moment (`time`), or at none (null). `from` names who points (the burst list, the
 * viewer): a source letting go clears only its own moment, so the pointer moving from the viewer onto a
 * row is not undone by the viewer's late leave.
 */
export function setAccelerationMoment(time: number | null, from = ''): void {
  if (time === null && moment !== null && owner !== from) return;
  owner = from;
  if (time === moment) return;
  moment = time;
  for (const l of listeners) l();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAccelerationMoment(): number | null {
  return useSyncExternalStore(
    subscribe,
    () => moment,
    () => null,
  );
}
