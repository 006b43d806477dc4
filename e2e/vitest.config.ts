import { defineConfig } from 'vitest/config';

// Browser specs against the built app and server (npm run test:e2e). Each spec file starts its own
// server on a free port with a fresh data directory, so files run in parallel: two at a time, one per
// core. Four at a time (tried) made each map spec five times slower than alone (software WebGL is
// CPU-bound) and timed out on CI; two at a time ran the whole suite faster (6.0 against 8.7 min).
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['src/**/*.spec.ts'],
    globalSetup: ['src/global-setup.ts'],
    // a failed test prints the browser steps it took, the one it was waiting on last (src/trail.ts)
    setupFiles: ['src/trail.ts'],
    // A test's whole budget; each step has its own (30 s, harness newContext).
    testTimeout: 180_000,
    hookTimeout: 120_000,
    // expect.poll waits for a state as long as a browser step may (30 s, like harness newContext), not
    // Vitest's 1 s default: in CI of c3a32f0 the globe came back 'on' after going back a page more than
    // 1 s later on the busy machine (map3d.spec). Polls that need longer still name their own timeout.
    expect: { poll: { timeout: 30_000 } },
    maxWorkers: 2,
    // No retry: a spec waits for the states it needs (no sleeps), so a failure is a failure.
    retry: 0,
  },
});
