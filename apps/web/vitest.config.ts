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
    // a test's whole budget, above the 20 s a single wait may take (src/test/setup.ts)
    testTimeout: 60_000,
  },
});
