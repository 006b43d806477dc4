import { describe, expect, it, vi } from 'vitest';
import { advanceClock, clockIsReal, now, setClock, startClock, useRealClock } from './clock.js';

const T = Date.UTC(2026, 10, 1, 0, 0, 0);

describe('the server clock', () => {
  it('reads the system clock by default, fake timers included', () => {
    expect(clockIsReal()).toBe(true);
    // eslint-disable-next-line no-restricted-syntax -- the real clock's own test: it reads Date, faked here
    vi.useFakeTimers({ toFake: ['Date'], now: T + 123 });
    try {
      expect(now()).toBe(T + 123);
    } finally {
      vi.useRealTimers();
    }
  });

  it('holds a fixed instant until set or advanced, and goes back to the real clock', () => {
    setClock(T);
    expect([now(), now()]).toEqual([T, T]);
    advanceClock(1_500);
    expect(now()).toBe(T + 1_500);
    advanceClock(-500);
    expect(now()).toBe(T + 1_000);
    useRealClock();
    // eslint-disable-next-line no-restricted-syntax -- the real clock's own test: it is the system's again
    expect(Math.abs(now() - Date.now())).toBeLessThan(60_000);
    expect(() => setClock(T + 0.5)).toThrow(RangeError);
  });

  it('started at an instant, runs on with elapsed time in whole ms, and does not step back with the system clock', () => {
    const before = performance.now();
    startClock(T);
    const a = now();
    // the system clock set back a year: the started clock does not follow it
    // eslint-disable-next-line no-restricted-syntax -- the started clock's own test: the system's Date moved under it
    vi.useFakeTimers({ toFake: ['Date'], now: T - 365 * 86_400_000 });
    let b: number;
    try {
      b = now();
    } finally {
      vi.useRealTimers();
    }
    const elapsed = performance.now() - before;
    expect(a).toBeGreaterThanOrEqual(T);
    expect(b).toBeGreaterThanOrEqual(a);
    expect(b - T).toBeLessThanOrEqual(Math.ceil(elapsed));
    expect(Number.isInteger(b)).toBe(true);
    expect(clockIsReal()).toBe(false);
  });

  it('is the real clock again in the next test (test/setup.ts)', () => {
    expect(clockIsReal()).toBe(true);
  });
});
