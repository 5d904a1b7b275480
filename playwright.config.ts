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
  // One more than this machine's two cores: a test that waits for a
  // timeout, a child process or a rebuild leaves a core idle, and the third
  // worker's test uses it.
  workers: 3,
  retries: process.env.CI ? 1 : 0,
  // Ceilings, not waits: every test waits on conditions, and these only decide
  // how long a broken one takes to fail. They are generous because this
  // machine is shared: at a load average of 10 to 50 on two cores, hydrating a
  // page or starting a server takes many times as long as on a quiet machine
  // (measured: a form test of a few seconds took 40 to 90 s at a load of 45).
  timeout: 180_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  use: {
    baseURL: E2E_BASE_URL,
    // Recording a trace of every test costs a fifth of the suite's time; a
    // failure is traced on its retry (CI), or locally with `--trace on`.
    trace: 'on-first-retry',
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
        // The analytics tag's host does not resolve, so a page loads as it
        // does for a visitor whose blocker stops the tag (this machine is
        // offline anyway). Tests of analytics answer it with a recording
        // stand-in (page.route, which takes the request before any lookup);
        // routing every test's requests through Playwright instead would
        // cost a seventh of each page load.
        '--host-resolver-rules=MAP www.googletagmanager.com ~NOTFOUND',
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
    // Builds first when the build is missing or was made with other settings;
    // then the web server and the builder, as `npm start` runs them.
    command: 'node scripts/ensure-build.ts && node scripts/start.ts',
    url: `${E2E_BASE_URL}/healthz`,
    env: e2eServerEnv(),
    reuseExistingServer: false,
    // A build from scratch, on a loaded machine.
    timeout: 600_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
