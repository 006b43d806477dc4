import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // Each test ends on the real clock (src/lib/clock.ts), whatever it fixed.
    setupFiles: ['src/test/setup.ts'],
    // One SQLite file and one PostgreSQL database migrated per run; each test app starts from a copy of it
    // (src/test/global-setup.ts says what that saves).
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for a state up to 15 s, not Vitest's 1 s default: a busy two-core CI machine
    // (PostgreSQL, browsers and another test file beside) can take longer than a second to get there.
    expect: { poll: { timeout: 15_000 } },
  },
});
