import { defineConfig } from 'vitest/config';

// Browser specs against the built app and server (npm run test:e2e). Each spec file starts its own
// server on a free port with a fresh data directory, so files run in parallel.
export default defineConfig({
  test: {
    name: 'e2e',
    environment: 'node',
    include: ['src/**/*.spec.ts'],
    globalSetup: ['src/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 4,
    // A browser spec that fails once on this shared two-core machine is run again; a real failure
    // fails both times. The retry shows in the report.
    retry: 1,
  },
});
