import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_BUILD_DIR } from './support/env.ts';

test.describe.configure({ timeout: 180_000 });

interface VnuMessage {
  type: string;
  url: string;
  message: string;
  lastLine?: number;
}

/** The Nu HTML Checker over every prerendered page and the server-rendered 404. */
test('the Nu HTML Checker finds no error on any page', async ({ request }) => {
  const clientDir = path.resolve(E2E_BUILD_DIR, 'client');
  const files = readdirSync(clientDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('index.html'))
    .map((file) => path.join(clientDir, file));
  expect(files.length).toBeGreaterThanOrEqual(30);

  const scratch = mkdtempSync(path.join(tmpdir(), 'vnu-'));
  const notFound = path.join(scratch, 'not-found.html');
  writeFileSync(notFound, await (await request.get('/no-such-page')).text());

  const vnuJar = createRequire(import.meta.url)('vnu-jar') as string;
  const result = spawnSync(
    'java',
    ['-jar', vnuJar, '--errors-only', '--format', 'json', ...files, notFound],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const report = JSON.parse(result.stderr || '{"messages":[]}') as { messages: VnuMessage[] };
  const errors = report.messages
    .filter((message) => message.type === 'error' || message.type === 'non-document-error')
    .map(
      (message) =>
        `${message.url.replace(`file:${clientDir}`, '')}:${message.lastLine ?? ''} ${message.message}`,
    );
  expect(errors).toEqual([]);
});
