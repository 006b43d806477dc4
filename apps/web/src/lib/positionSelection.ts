import { spanRange } from '@wildtrack/contract';
import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { readStoredJson, removeStored, writeStoredJson } from './storage';

/**
 * What the position screens look at, shared by /track, /map2d and /map3d so that moving between them
 * keeps the devices and the range: chosen devices, and a range that is either a span of §9 (recomputed
 * against today whenever it is read) or a custom start and end. Kept for the browser session.
 */
export interface PositionRange {
  /** A span of §9 in days, or null for a custom range. */
  span: number | null;
  /** 'YYYY-MM-DD HH:mm:ss' in the user's zone. */
  start: string;
  end: string;
}

export interface PositionSelection {
  imeis: string[];
  range: PositionRange;
}

const KEY = 'wildtrack_position_selection';
export const DEFAULT_SPAN_DAYS = 7;

const listeners = new Set<() => void>();
let state: PositionSelection | null = null;

/** What a kept selection must look like to be used (anything else: start afresh). */
const StoredSelection = z.object({
  imeis: z.array(z.string()),
  range: z.object({ span: z.number().nullable(), start: z.string(), end: z.string() }),
});

function load(): PositionSelection {
  return readStoredJson('session', KEY, StoredSelection) ?? { imeis: [], range: { span: DEFAULT_SPAN_DAYS, start: '', end: '' } };
}

function current(): PositionSelection {
  state ??= load();
  return state;
}

function update(next: PositionSelection): void {
  state = next;
  // storage blocked or full: keeps working in memory
  writeStoredJson('session', KEY, next);
  for (const l of listeners) l();
}

export function setSelectedImeis(imeis: readonly string[]): void {
  const prev = current();
  if (prev.imeis.length === imeis.length && prev.imeis.every((x, i) => x === imeis[i])) return;
  update({ ...prev, imeis: [...imeis] });
}

export function setPositionRange(range: PositionRange): void {
  update({ ...current(), range });
}

/** The range to query: a span is resolved against today in the zone. */
export function resolveRange(range: PositionRange, zone: string, now = Date.now()): { start: string; end: string } {
  if (range.span !== null) {
    const r = spanRange(range.span, zone, now);
    return { start: r.startTime, end: r.endTime };
  }
  return { start: range.start, end: range.end };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePositionSelection() {
  const selection = useSyncExternalStore(subscribe, current, current);
  return { ...selection, setImeis: setSelectedImeis, setRange: setPositionRange };
}

/** For tests: forget the selection. */
export function resetPositionSelection(): void {
  state = null;
  removeStored('session', KEY);
  for (const l of listeners) l();
}
