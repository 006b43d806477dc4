import type { z } from 'zod';

/**
 * The browser's key-value stores, read and written safely: a store can be blocked (privacy settings,
 * sandboxed frames: even touching `window.localStorage` throws), full, or hold a value an older version
 * or a hand wrote. Every read says what it accepts and yields undefined for anything else; every write
 * that fails leaves the value to live in memory only, which is what each caller wants.
 */

export type StoreKind = 'local' | 'session';

function store(kind: StoreKind): Storage | null {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null;
  }
}

/** The text kept under `key`, if the store can be read and `accept` (when given) takes it. */
export function readStored<T extends string = string>(kind: StoreKind, key: string, accept?: (value: string) => value is T): T | undefined {
  let value: string | null = null;
  try {
    value = store(kind)?.getItem(key) ?? null;
  } catch {
    return undefined;
  }
  if (value === null) return undefined;
  return !accept || accept(value) ? (value as T) : undefined;
}

/** The JSON value kept under `key`, if it parses and the schema takes it. */
export function readStoredJson<S extends z.ZodType>(kind: StoreKind, key: string, schema: S): z.output<S> | undefined {
  const text = readStored(kind, key);
  if (text === undefined) return undefined;
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Keeps a text; false when the store is blocked or full. */
export function writeStored(kind: StoreKind, key: string, value: string): boolean {
  try {
    const s = store(kind);
    if (!s) return false;
    s.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

export function writeStoredJson(kind: StoreKind, key: string, value: unknown): boolean {
  return writeStored(kind, key, JSON.stringify(value));
}

export function removeStored(kind: StoreKind, ...keys: string[]): void {
  try {
    const s = store(kind);
    for (const key of keys) s?.removeItem(key);
  } catch {
    // blocked: there is nothing kept to remove
  }
}

/** A type guard for a value among a fixed list (a stored choice). */
export function oneOf<T extends string>(values: readonly T[]): (value: string) => value is T {
  return (value: string): value is T => (values as readonly string[]).includes(value);
}
