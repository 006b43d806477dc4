import { defineConfig } from 'vitest/config';

// 30 s a test as the server's: the walks over every call (validation.test: each call's timeZone, text rules)
// took 5.2 s once with both cores busy with PostgreSQL tests, past Vitest's 5 s default.
export default defineConfig({ test: { name: 'contract', environment: 'node', include: ['src/**/*.test.ts'], testTimeout: 30_000 } });
