import { afterEach } from 'vitest';
import { useRealClock } from '../lib/clock.js';

// A test that fixed the server's clock (test/clock.ts) leaves the next one the real clock.
afterEach(() => useRealClock());
