import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pg from 'pg';
import { pino, type Logger } from 'pino';
import { openPostgresStore } from '../../db/store-postgres.server.ts';
import { openSqliteStore } from '../../db/store-sqlite.server.ts';
import type { AppStore } from '../../db/store.server.ts';

/**
 * Test helpers (not a test file; imported by the *.test.ts files of the
 * lead feature and the API): real webhook receivers on 127.0.0.1, a
 * capturing logger and temporary data directories.
 */

/**
 * 'drop' stands for a receiver that is down: the connection is cut without
 * an answer, while the port stays taken (a closed port could be given to
 * another process before the receiver comes back).
 */
export type ReceiverMode = 'ok' | 'fail' | 'hang' | 'drop';

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: unknown;
}

export interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly requests: ReceivedRequest[];
  mode: ReceiverMode;
  /** HTTP status for mode 'fail' (default 500). */
  failStatus: number;
  /** Extra response headers for mode 'fail' (e.g. Retry-After). */
  headers: Record<string, string>;
  failBody: string;
  /** Delay before answering in modes 'ok' and 'fail' (default 0). */
  delayMs: number;
  /** Resolves once `count` requests have arrived. */
  waitForRequests(count: number, timeoutMs?: number): Promise<void>;
  /** Stops listening (connections closed, hanging ones too). */
  close(): Promise<void>;
}

/** A webhook receiver that answers 2xx ('ok'), 5xx ('fail'), never ('hang') or cuts the connection ('drop'). */
export async function startReceiver(
  mode: ReceiverMode = 'ok',
  options: { port?: number; path?: string } = {},
): Promise<Receiver> {
  const requests: ReceivedRequest[] = [];
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body,
        json,
      });
      for (const waiter of [...waiters]) {
        if (requests.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
      if (receiver.mode === 'hang') return;
      if (receiver.mode === 'drop') {
        req.socket.destroy();
        return;
      }
      const answer = () => {
        if (receiver.mode === 'fail') {
          res.writeHead(receiver.failStatus, {
            'content-type': 'text/plain',
            ...receiver.headers,
          });
          res.end(receiver.failBody);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      };
      if (receiver.delayMs > 0) setTimeout(answer, receiver.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}${options.path ?? '/hook'}`,
    port,
    requests,
    mode,
    failStatus: 500,
    headers: {},
    failBody: 'receiver is down for maintenance',
    delayMs: 0,
    waitForRequests(count, timeoutMs = 30_000) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`expected ${count} requests, got ${requests.length}`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    close() {
      return new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
  return receiver;
}

export interface CapturedLogger {
  logger: Logger;
  /** Every log line so far, parsed. */
  entries(): Array<Record<string, unknown>>;
  /** Every log line so far, raw. */
  text(): string;
}

/** A pino logger writing into memory, to assert on what was (not) logged. */
export function captureLogger(level: pino.Level = 'debug'): CapturedLogger {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const logger = pino({ level }, stream);
  return {
    logger,
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => lines.join('\n'),
  };
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** A temporary directory, removed by the returned function. */
export function tempDataDir(prefix = 'leads-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Polls until `check` passes or the time is up (for background work like the
 * outbox). The limit is a ceiling for a loaded machine, not a wait.
 */
export async function eventually(
  check: () => Promise<void> | void,
  timeoutMs = 30_000,
  intervalMs = 25,
): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() >= giveUpAt) throw error;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

// ---------------------------------------------------------------------------
// Store harnesses: the same tests against SQLite and PostgreSQL.

export interface StoreHarness {
  /** Opens a store on the harness's data (a file, or a schema); may be called repeatedly. */
  open(): Promise<AppStore>;
  /** Removes the data once every store it opened is closed. */
  cleanup(): Promise<void>;
}

/** PostgreSQL for tests, from TEST_DATABASE_URL (see README.md); undefined skips those tests. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

export const POSTGRES_SKIP_MESSAGE =
  'PostgreSQL store tests skipped: set TEST_DATABASE_URL to run them';

export async function sqliteHarness(): Promise<StoreHarness> {
  const data = tempDataDir('leads-sqlite-');
  return {
    open: () => openSqliteStore({ dataDir: data.dir }),
    cleanup: async () => data.remove(),
  };
}

async function withAdmin<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh schema per harness, dropped by cleanup(), so runs never see each other's rows. */
export async function postgresHarness(
  databaseUrl: string | undefined = TEST_DATABASE_URL,
): Promise<StoreHarness & { schema: string }> {
  if (!databaseUrl) throw new Error(POSTGRES_SKIP_MESSAGE);
  const schema = `leads_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(databaseUrl, (client) => client.query(`CREATE SCHEMA ${schema}`));
  return {
    schema,
    open: () => openPostgresStore({ connectionString: databaseUrl, schema }),
    cleanup: async () => {
      await withAdmin(databaseUrl, (client) =>
        client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`),
      );
    },
  };
}

/** Both backends, the PostgreSQL one skipped (with a visible warning) without TEST_DATABASE_URL. */
export const STORE_BACKENDS: ReadonlyArray<{
  label: string;
  skip: boolean;
  harness: () => Promise<StoreHarness>;
}> = [
  { label: 'SQLite', skip: false, harness: sqliteHarness },
  { label: 'PostgreSQL', skip: !TEST_DATABASE_URL, harness: () => postgresHarness() },
];
