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
    // Ceilings, not waits (tests wait on conditions): room for a shared, loaded machine.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
