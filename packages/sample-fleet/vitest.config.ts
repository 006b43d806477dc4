import { defineConfig } from 'vitest/config';

export default defineConfig({ test: { name: 'sample-fleet', environment: 'node', include: ['src/**/*.test.ts'] } });
