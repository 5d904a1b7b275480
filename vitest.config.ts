import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit, component and server tests live beside the code they test.
// Browser tests live in e2e/ and run under Playwright, not here.
export default defineConfig({
  test: {
    include: [
      'app/**/*.test.{ts,tsx}',
      'server/**/*.test.ts',
      'scripts/**/*.test.ts',
      'deploy/**/*.test.ts',
    ],
    environment: 'node',
    // A folder for the real builds that several test files share, each made
    // once per run (server/testing/site-build-test-support.server.ts).
    globalSetup: ['server/testing/site-build-test-support.server.ts'],
    // Many tests wait on other processes (a server, PostgreSQL, an SMTP
    // server), so one more worker than cores keeps the cores busy: on two
    // cores the suite takes 20 s instead of 51 s with Vitest's default
    // (cores - 1, one worker here).
    maxWorkers: availableParallelism() + 1,
    // Ceilings, not waits (tests wait on conditions): room for a shared, loaded machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
