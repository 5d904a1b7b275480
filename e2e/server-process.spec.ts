import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_BUILD_ENV, E2E_PORT } from './support/env.ts';

/** The production server as a process: start-up checks and graceful shutdown. */

const PORT = E2E_PORT + 50;

function startServer(env: Record<string, string>) {
  const child = spawn('node', ['server/start.ts'], {
    env: {
      ...process.env,
      ...E2E_BUILD_ENV,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'glass-process-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => output };
}

/** Resolves once the server answers /healthz; fails only if it exits first (the test's limit bounds the rest). */
async function waitForHealth(server: ReturnType<typeof startServer>) {
  let exited = false;
  void server.exited.then(() => (exited = true));
  await expect
    .poll(
      async () => {
        if (exited) throw new Error(`server exited before it was healthy:\n${server.output()}`);
        return fetch(`http://127.0.0.1:${PORT}/healthz`).then(
          (response) => response.ok,
          () => false,
        );
      },
      { timeout: 0, intervals: [100, 250, 500] },
    )
    .toBe(true);
}

test('a bad environment value stops the server with a message naming the variable', async () => {
  const server = startServer({
    LEAD_RATE_LIMIT: 'lots',
    SITE_URL: 'not-a-url',
    TRUST_PROXY: 'true',
  });
  expect(await server.exited).toBe(1);
  expect(server.output()).toContain('LEAD_RATE_LIMIT');
  expect(server.output()).toContain('SITE_URL');
  expect(server.output()).toContain('TRUST_PROXY');
});

test('SIGTERM lets a request in flight finish, then the server exits cleanly', async () => {
  const server = startServer({});
  await waitForHealth(server);
  // The response has begun when SIGTERM arrives; it must still arrive whole.
  const body = await new Promise<{ status: number; length: number; expected: number }>(
    (resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port: PORT, path: '/services/windows', method: 'GET' },
        (res) => {
          server.child.kill('SIGTERM');
          let length = 0;
          res.on('data', (chunk: Buffer) => (length += chunk.length));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              length,
              expected: Number(res.headers['content-length']),
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    },
  );
  expect(body.status).toBe(200);
  expect(body.length).toBe(body.expected);
  expect(await server.exited).toBe(0);
  expect(server.output()).toContain('"msg":"stopped"');
  // Request logs carry no personal data: no query strings, no addresses.
  expect(server.output()).not.toMatch(/"(ip|remoteAddress|query)"/);
});
