import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * `npm test`: every check the project has, in order, on a fresh clone.
 * Format, lint and types first (fast), then unit, component and server tests
 * (Vitest), then the browser suite (Playwright, which builds and starts the
 * site). Every step runs even if an earlier one failed, and the totals end the
 * output as 'N passed, N failed'.
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

const steps: Step[] = [
  { name: 'format', command: 'prettier', args: ['--check', '.', '--log-level', 'warn'] },
  { name: 'lint', command: 'eslint', args: ['--max-warnings=0', '.'] },
  { name: 'typegen', command: 'react-router', args: ['typegen'] },
  { name: 'types', command: 'tsc', args: ['--noEmit', '-p', '.'] },
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
  {
    name: 'browser',
    command: 'playwright',
    args: ['test', '--reporter=list,json'],
    env: { PLAYWRIGHT_JSON_OUTPUT_NAME: path.join(reports, 'playwright.json') },
  },
];

const failedSteps: string[] = [];
for (const step of steps) {
  console.log(`\n▶ ${step.name}: ${step.command} ${step.args.join(' ')}`);
  const started = Date.now();
  const result = spawnSync(step.command, step.args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...step.env },
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status === 0) {
    console.log(`✔ ${step.name} (${seconds} s)`);
  } else {
    console.log(`✘ ${step.name} failed (${seconds} s)`);
    failedSteps.push(step.name);
  }
}

// Totals of individual tests, from the runners' own JSON reports.
let passed = 0;
let failed = 0;
let skipped = 0;
const vitestReport = path.join(reports, 'vitest.json');
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8')) as {
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + report.numTodoTests;
}
const playwrightReport = path.join(reports, 'playwright.json');
if (existsSync(playwrightReport)) {
  const report = JSON.parse(readFileSync(playwrightReport, 'utf8')) as {
    stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  };
  passed += report.stats.expected + report.stats.flaky;
  failed += report.stats.unexpected;
  skipped += report.stats.skipped;
}
// A step that failed without failing a test (lint, types, a crash) still fails the run.
failed += failedSteps.filter((name) => !['unit', 'browser'].includes(name)).length;

console.log(
  failedSteps.length ? `\nFailed steps: ${failedSteps.join(', ')}` : '\nEvery step passed.',
);
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedSteps.length ? 1 : 0);
