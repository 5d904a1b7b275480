import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestInfo } from '@playwright/test';
import { main } from '../../server/cli/leads-cli.ts';
import { E2E_BUILD_ENV } from './env.ts';
import { watchServerOutput } from '../../server/testing/server-output.server.ts';

/**
 * The production server as a separate process, for tests that need their own
 * settings (webhook receivers, LEAD_ACCEPT, a low rate limit, a store that
 * fails) or that kill it. It serves the build the Playwright config made
 * (E2E_BUILD_ENV: the test build's folder and its public settings), on a port
 * the system picks (PORT=0), so parallel runs never collide.
 */

const root = path.resolve(import.meta.dirname, '../..');

export interface SiteServer {
  readonly url: string;
  readonly env: Record<string, string>;
  readonly process: ChildProcess;
  /** Everything the server printed so far (pino JSON lines). */
  output(): string;
  /** Everything its builder printed so far; empty without one. */
  builderOutput(): string;
  /** Graceful stop (SIGTERM), waiting for the exit. */
  stop(): Promise<void>;
  /** SIGKILL, like a crash or an OOM kill, waiting for the exit. */
  kill(): Promise<void>;
}

export function tempDataDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'glass-leads-e2e-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Servers started in this worker, for their logs when a test fails. */
const started = new Set<SiteServer>();

/** Attaches the log of every server this worker started to a failed test's report. */
export async function attachServerLogsOnFailure(testInfo: TestInfo): Promise<void> {
  if (testInfo.status === testInfo.expectedStatus) return;
  for (const server of started) {
    await testInfo.attach(`server ${server.url}`, {
      body: server.output(),
      contentType: 'text/plain',
    });
    if (server.builderOutput() !== '') {
      await testInfo.attach(`builder of ${server.url}`, {
        body: server.builderOutput(),
        contentType: 'text/plain',
      });
    }
  }
}

/**
 * Starts `node server/start.ts` and resolves once it listens; with
 * `builder`, the builder beside it (`node server/builder.ts`, as `npm start`
 * runs them), for tests that publish the site.
 */
export async function startSiteServer(
  env: Record<string, string>,
  options: { builder?: boolean } = {},
): Promise<SiteServer> {
  const fullEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...E2E_BUILD_ENV,
    HOST: '127.0.0.1',
    PORT: '0',
    LEAD_RATE_LIMIT: '1000',
    ...env,
    // The port the system chose is read from the 'Listening' line, logged at info.
    LOG_LEVEL: 'info',
  };
  const child = spawn(process.execPath, ['server/start.ts'], {
    cwd: root,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  // A ceiling for a server that hangs before listening; a loaded machine needs many seconds.
  const printed = watchServerOutput(child, { timeoutMs: 120_000 });
  // The builder starts with it, as under `npm start`, and is ready before the test goes on.
  let builderText = '';
  const builder = options.builder
    ? spawn(process.execPath, ['server/builder.ts'], {
        cwd: root,
        env: fullEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : undefined;
  const builderExited = builder
    ? new Promise<void>((resolve) => builder.once('exit', () => resolve()))
    : Promise.resolve();
  const builderReady = new Promise<void>((resolve, reject) => {
    if (!builder) return resolve();
    const timer = setTimeout(
      () => reject(new Error(`the builder did not start:\n${builderText}`)),
      120_000,
    );
    const collect = (chunk: Buffer) => {
      builderText = (builderText + chunk.toString()).slice(-200_000);
      if (builderText.includes('"msg":"builder started"')) {
        clearTimeout(timer);
        resolve();
      }
    };
    builder.stdout.on('data', collect);
    builder.stderr.on('data', collect);
    builder.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the builder exited (${code}) before it started:\n${builderText}`));
    });
  });
  builderReady.catch(() => undefined);
  let port: number;
  try {
    [port] = await Promise.all([printed.port, builderReady]);
  } catch (error) {
    for (const running of [child, builder]) {
      if (running && running.exitCode === null && running.signalCode === null) running.kill();
    }
    throw error;
  }
  const stopWith = async (signal: NodeJS.Signals) => {
    for (const running of [child, builder]) {
      if (running && running.exitCode === null && running.signalCode === null) {
        running.kill(signal);
      }
    }
    await Promise.all([exited, builderExited]);
  };
  const server: SiteServer = {
    url: `http://127.0.0.1:${port}`,
    env: fullEnv,
    process: child,
    output: printed.text,
    builderOutput: () => builderText,
    stop: () => stopWith('SIGTERM'),
    kill: () => stopWith('SIGKILL'),
  };
  started.add(server);
  // Kept for a while after it stopped: a test's failure may be about its last words.
  void exited.then(() => setTimeout(() => started.delete(server), 120_000).unref());
  return server;
}

export interface ExportedLead {
  id: string;
  name: string;
  email: string;
  phone: string;
  service: string;
  message: string;
  created_at: string;
  source: string;
  status: string;
  deliveries: Array<{
    target: string;
    state: string;
    attempts: number;
    last_error: string | null;
    delivered_at: string | null;
  }>;
}

/**
 * docs/operations.md#commands: `leads export --format json`, against the store a
 * server used. The CLI's own main(), run in this process (what
 * `npm run leads` runs, without starting a Node process for each look).
 */
export async function exportLeads(env: Record<string, string>): Promise<ExportedLead[]> {
  let stdout = '';
  let stderr = '';
  const code = await main(['export', '--format', 'json'], {
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  if (code !== 0) throw new Error(`leads export failed (exit ${code}): ${stderr}`);
  return JSON.parse(stdout) as ExportedLead[];
}

/** A unique word for one test's leads, so tests sharing a store find their own. */
export function uniqueToken(): string {
  return Math.random().toString(36).slice(2, 10);
}
