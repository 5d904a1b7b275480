import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';
import { E2E_BASE_URL, E2E_BUILD_DIR, e2eServerEnv } from './e2e/support/env.ts';

// Debian's Chromium where it exists (this machine, CI); Playwright's own browser elsewhere.
const executablePath = existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;

export default defineConfig({
  testDir: 'e2e',
  // One output folder per build, so parallel runs do not delete each other's traces.
  outputDir: `test-results/${E2E_BUILD_DIR}`,
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    },
  },
  projects: [
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    // Builds first when the build is missing or was made with other settings.
    command: 'node scripts/ensure-build.ts && node server/start.ts',
    url: `${E2E_BASE_URL}/healthz`,
    env: e2eServerEnv(),
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
