import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { oneOf, readStored, readStoredJson, removeStored, writeStored, writeStoredJson } from './storage';

afterEach(() => {
  vi.unstubAllGlobals();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

describe('safe storage', () => {
  it('reads back what it wrote, and only what the reader accepts', () => {
    expect(writeStored('local', 'k', 'b')).toBe(true);
    expect(readStored('local', 'k')).toBe('b');
    expect(readStored('local', 'k', oneOf(['a', 'b']))).toBe('b');
    expect(readStored('local', 'k', oneOf(['a']))).toBeUndefined();
    expect(readStored('session', 'k')).toBeUndefined();
    removeStored('local', 'k');
    expect(readStored('local', 'k')).toBeUndefined();
  });

  it('gives undefined for damaged JSON or JSON of another shape', () => {
    const Shape = z.object({ n: z.number() });
    writeStoredJson('session', 'j', { n: 3 });
    expect(readStoredJson('session', 'j', Shape)).toEqual({ n: 3 });
    writeStored('session', 'j', '{"n":');
    expect(readStoredJson('session', 'j', Shape)).toBeUndefined();
    writeStoredJson('session', 'j', { n: 'three' });
    expect(readStoredJson('session', 'j', Shape)).toBeUndefined();
  });

  it('keeps working when the browser blocks storage', () => {
    const blocked = () => {
      throw new DOMException('blocked', 'SecurityError');
    };
    vi.spyOn(window, 'localStorage', 'get').mockImplementation(blocked);
    expect(writeStored('local', 'k', 'v')).toBe(false);
    expect(readStored('local', 'k')).toBeUndefined();
    expect(() => removeStored('local', 'k')).not.toThrow();
    vi.restoreAllMocks();
  });
});
