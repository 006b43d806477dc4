import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and route tests of every workspace; the browser specs in e2e/ run separately (npm run test:e2e).
export default defineConfig({
  test: {
    // Two test files at a time at least: vitest's own default is one fewer than the cores, which on a 2-core CI
    // machine ran the files one by one while the other core mostly waited (on PostgreSQL, SQLite, the disk).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      'packages/contract',
      'packages/sample-fleet',
      'apps/server',
      'apps/web',
      'tools/simulator',
      // The repository's own checks (the layer rules of eslint.config.js).
      // Its first lint loads typescript-eslint and the resolver: 1-3 s alone, 16 s with both cores busy.
      { test: { name: 'scripts', include: ['scripts/**/*.test.ts'], environment: 'node', testTimeout: 120_000 } },
    ],
  },
});
