import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { expect, test as base } from '@playwright/test';
import { E2E_BUILD_DIR } from './support/env.ts';
import { PAGE_PATHS } from './support/pages.ts';
import { freePort } from './support/free-port.ts';

interface VnuMessage {
  type: string;
  message: string;
  lastLine?: number;
}

type CheckHtml = (html: string) => Promise<VnuMessage[]>;

/**
 * The Nu HTML Checker as a local web service, started once per worker: Java
 * and the HTML schemas load once (a minute on a busy machine), then each page
 * is one request of a fraction of a second, in a test of its own.
 */
const test = base.extend<object, { checkHtml: CheckHtml }>({
  checkHtml: [
    // Playwright reads the fixtures a fixture uses from its first parameter's pattern: none here.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const port = await freePort();
      const vnuJar = createRequire(import.meta.url)('vnu-jar') as string;
      const checker = spawn(
        'java',
        [
          // The schema loader recurses deeply.
          '-Xss4m',
          '-Dnu.validator.servlet.bind-address=127.0.0.1',
          '-cp',
          vnuJar,
          'nu.validator.servlet.Main',
          String(port),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let output = '';
      checker.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      checker.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<void>((resolve) => checker.once('exit', () => resolve()));
      const check: CheckHtml = async (html) => {
        const response = await fetch(`http://127.0.0.1:${port}/?out=json`, {
          method: 'POST',
          headers: { 'Content-Type': 'text/html; charset=utf-8' },
          body: html,
        });
        return ((await response.json()) as { messages: VnuMessage[] }).messages;
      };
      // Ready once it answers.
      await expect
        .poll(
          async () => {
            if (checker.exitCode !== null) throw new Error(`the HTML checker stopped:\n${output}`);
            return check('<!doctype html><html lang="en"><title>ready</title></html>').then(
              () => true,
              () => false,
            );
          },
          { timeout: 290_000, intervals: [250, 500, 1000] },
        )
        .toBe(true);
      await use(check);
      checker.kill();
      await exited;
    },
    { scope: 'worker', timeout: 300_000 },
  ],
});

// In order in one worker, so only one checker runs at a time beside the other tests.
test.describe.configure({ mode: 'default' });

test('every prerendered page is in the list checked below', () => {
  const clientDir = path.resolve(E2E_BUILD_DIR, 'client');
  const prerendered = readdirSync(clientDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file === 'index.html' || file.endsWith(`${path.sep}index.html`))
    .map((file) => `/${path.dirname(file)}`.replace(/^\/\.$/, '/'));
  expect(prerendered.sort()).toEqual([...PAGE_PATHS].sort());
});

for (const pagePath of [...PAGE_PATHS, '/no-such-page']) {
  test(`${pagePath}: the Nu HTML Checker finds no error`, async ({ request, checkHtml }) => {
    const response = await request.get(pagePath);
    expect(response.status()).toBe(pagePath === '/no-such-page' ? 404 : 200);
    const errors = (await checkHtml(await response.text()))
      .filter((message) => message.type === 'error' || message.type === 'non-document-error')
      .map((message) => `line ${message.lastLine ?? '?'}: ${message.message}`);
    expect(errors).toEqual([]);
  });
}
