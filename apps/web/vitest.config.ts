import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { i18nParts } from './vite.config';

export default defineConfig({
  plugins: [react(), i18nParts()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    testTimeout: 30_000,
  },
});
