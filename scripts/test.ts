import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { E2E_BUILD_ENV } from '../e2e/support/env.ts';

/**
 * `npm test`: every check the project has, on a fresh clone. Format, lint,
 * types, the unit, component and server tests (Vitest) and the browser
 * suite's build first, side by side; then the browser suite (Playwright,
 * which starts the site). Every step runs even if an earlier one failed, and
 * the totals end the output as 'N passed, N failed'.
 */

const root = path.resolve(import.meta.dirname, '..');
const reports = path.join(root, 'reports');
rmSync(reports, { recursive: true, force: true });
mkdirSync(reports, { recursive: true });

interface Step {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

/**
 * The quick checks, Vitest and the browser suite's build run side by side
 * (each mostly on one core, and many Vitest tests wait on servers and child
 * processes, which leaves room for the others), their output printed whole
 * as each ends. Then the browser suite, using every core.
 */
const checks: Step[][] = [
  // The browser suite's build (Playwright's web server then finds it up to date).
  [
    {
      name: 'build',
      command: 'node',
      args: ['scripts/ensure-build.ts'],
      env: { ...E2E_BUILD_ENV },
    },
  ],
  [
    {
      name: 'unit',
      command: 'vitest',
      args: [
        'run',
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${path.join(reports, 'vitest.json')}`,
      ],
    },
  ],
  [{ name: 'format', command: 'prettier', args: ['--check', '.', '--log-level', 'warn'] }],
  [{ name: 'lint', command: 'eslint', args: ['--max-warnings=0', '.'] }],
  // Types of every .ts, .tsx and .astro file (astro check syncs Astro's
  // module types first, then type-checks the project with the .astro files).
  [
    {
      name: 'types',
      command: 'astro',
      args: ['check', '--minimumFailingSeverity', 'warning'],
      env: { ASTRO_TELEMETRY_DISABLED: '1' },
    },
  ],
];
const browser: Step = {
  name: 'browser',
  command: 'playwright',
  args: ['test', '--reporter=list,json'],
  env: { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, 'playwright.json') },
};

const failedSteps: string[] = [];

function report(step: Step, status: number | null, started: number) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (status === 0) {
    console.log(`✔ ${step.name} (${seconds} s)`);
  } else {
    console.log(`✘ ${step.name} failed (${seconds} s)`);
    failedSteps.push(step.name);
  }
}

/** Runs one step with its output collected, and prints it whole when it ends. */
function runCollected(step: Step): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const output: Buffer[] = [];
    const child = spawn(step.command, step.args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...step.env },
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on('close', (status) => {
      console.log(`\n▶ ${step.name}: ${step.command} ${step.args.join(' ')}`);
      process.stdout.write(Buffer.concat(output));
      report(step, status, started);
      resolve();
    });
  });
}

await Promise.all(
  checks.map(async (chain) => {
    for (const step of chain) await runCollected(step);
  }),
);

// The browser suite alone, its output live.
console.log(`\n▶ ${browser.name}: ${browser.command} ${browser.args.join(' ')}`);
const browserStarted = Date.now();
const browserRun = spawnSync(browser.command, browser.args, {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...browser.env },
});
report(browser, browserRun.status, browserStarted);

interface PlaywrightSuite {
  specs?: {
    title: string;
    file: string;
    line: number;
    tests?: { status: string; results?: { error?: { message?: string } }[] }[];
  }[];
  suites?: PlaywrightSuite[];
}

// Totals of individual tests, from the runners' own JSON reports.
let passed = 0;
let failed = 0;
let skipped = 0;
/** Each failed test and the first line of why, so the end of a long log names them. */
const failures: string[] = [];
const firstLine = (text: string | undefined) =>
  stripVTControlCharacters(text ?? '')
    .trim()
    .split('\n')[0]
    ?.slice(0, 200) ?? '';
const vitestReport = path.join(reports, 'vitest.json');
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
    testResults?: {
      name: string;
      assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
    }[];
  };
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const where = path.relative(root, file.name);
      failures.push(
        `unit: ${where} › ${test.fullName}\n    ${firstLine(test.failureMessages?.[0])}`,
      );
    }
  }
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}
const playwrightReport = path.join(reports, 'playwright.json');
if (existsSync(playwrightReport)) {
  const report = JSON.parse(readFileSync(playwrightReport, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    suites?: PlaywrightSuite[];
  };
  const visit = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status !== 'unexpected') continue;
        const error = test.results?.at(-1)?.error?.message;
        failures.push(
          `browser: ${spec.file}:${spec.line} › ${spec.title}\n    ${firstLine(error)}`,
        );
      }
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  for (const suite of report.suites ?? []) visit(suite);
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  skipped += report.stats.skipped;
}
// A step that failed without failing a test (lint, types, a crash) still fails the run.
failed += failedSteps.filter((name) => !['unit', 'browser'].includes(name)).length;

if (failures.length)
  console.log(`\nFailed tests:\n${failures.map((line) => `  ${line}`).join('\n')}`);
console.log(
  failedSteps.length ? `\nFailed steps: ${failedSteps.join(', ')}` : '\nEvery step passed.',
);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps.length ? 1 : 0);
