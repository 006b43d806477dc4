import { afterAll, beforeAll, beforeEach } from 'vitest';
import { setClock, useRealClock } from '../lib/clock.js';

export { advanceClock, now, setClock } from '../lib/clock.js';

/**
 * Fixes the server's clock (lib/clock.ts) at `instantMs` for the tests of the describe it is called in:
 * its beforeAll (the data it builds) and each of its tests start at that instant; a test moves it with
 * `setClock` / `advanceClock`. Every test ends on the real clock again (test/setup.ts), so nothing leaks
 * into the next file or describe. The test client (helper.ts `call`) signs with the same clock.
 */
export function useFixedClock(instantMs: number): void {
  beforeAll(() => setClock(instantMs));
  beforeEach(() => setClock(instantMs));
  afterAll(() => useRealClock());
}
