import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';

/**
 * `npm run bench:leads` (not part of `npm test`): how many lead submissions
 * per second POST /api/leads takes, and how fast it answers, with the
 * embedded store and with PostgreSQL.
 *
 * For each store: a production server from the current build (LEAD_ACCEPT
 * stored, no webhooks, so the figure is the service and its store, not a
 * remote automation service; LEAD_RATE_LIMIT at its maximum so the limiter
 * does not answer instead), then autocannon for BENCH_SECONDS (default 10)
 * with BENCH_CONNECTIONS (default 10) connections, each request a valid
 * JSON lead with its own idempotency key. PostgreSQL runs when
 * TEST_DATABASE_URL or DATABASE_URL is set, in a schema of its own that is
 * dropped afterwards; otherwise it is reported as skipped.
 *
 * A third run adds the lead e-mail (issue 14): the embedded store with
 * LEAD_EMAIL_TO set and a local SMTP server that takes every message, still
 * in `stored` mode, so the figure shows what the e-mail target costs the
 * answer (the outbox sends in the background); BENCH_EMAIL=0 leaves it out.
 *
 * Visitors: BENCH_CLIENTS (default 1000) client addresses, sent through
 * X-Forwarded-For as a proxy on this machine would (TRUST_PROXY loopback).
 * The site allows one address ten enquiries in ten minutes, so a thousand
 * leads a second come from many visitors, each with a rate-limit row of its
 * own; BENCH_CLIENTS=1 sends them all as one address, which makes the shared
 * PostgreSQL limit a single hot row that every request queues on.
 *
 * Prints requests per second, p50 and p99 latency and errors per store, and
 * writes them to reports/bench-leads.json.
 */

const root = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const clients = Math.max(1, Number(process.env.BENCH_CLIENTS ?? 1000));
let clientCounter = 0;
/** The next visitor's address, 10.0.x.y, round robin over `clients` addresses. */
function clientAddress(): string {
  const n = clientCounter++ % clients;
  return `10.0.${Math.floor(n / 256)}.${n % 256}`;
}
const databaseUrl = process.env.TEST_DATABASE_URL?.trim() || process.env.DATABASE_URL?.trim();

const built = spawnSync(process.execPath, ['scripts/ensure-build.ts'], {
  cwd: root,
  stdio: 'inherit',
});
if (built.status !== 0) process.exit(built.status ?? 1);

/** A port nobody uses right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(env: Record<string, string>): Promise<{
  origin: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}> {
  const port = await freePort();
  const child = spawn(process.execPath, ['server/start.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      // Per-request info logs would cost more than some of what is measured.
      LOG_LEVEL: 'warn',
      LEAD_ACCEPT: 'stored',
      LEAD_WEBHOOK_URLS: '',
      LEAD_RATE_LIMIT: '100000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (attempt > 150 || child.exitCode !== null) throw new Error('The server did not start.');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    origin,
    child,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function leadBody(): string {
  return JSON.stringify({
    name: 'Bench Mark',
    email: 'bench@example.nz',
    phone: '027 555 0199',
    service: 'Windows',
    message: 'A benchmark lead: a cracked pane in the lounge window.',
    source: 'quote_form',
    idempotency_key: randomUUID(),
  });
}

interface BenchRow {
  store: string;
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  accepted: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Leads the store gained during the measured run, by the operator's CLI. */
  stored: number | null;
}

function countStored(env: Record<string, string>): number | null {
  const result = spawnSync(
    process.execPath,
    ['server/leads-cli.ts', 'export', '--format', 'json'],
    {
      cwd: root,
      env: { ...process.env, ...env },
      maxBuffer: 512 * 1024 * 1024,
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) return null;
  return (JSON.parse(result.stdout) as unknown[]).length;
}

async function bench(store: string, env: Record<string, string>): Promise<BenchRow> {
  const server = await startServer(env);
  try {
    // A short warm-up (JIT, the store's first connections), not counted.
    await autocannon({
      url: `${server.origin}/api/leads`,
      connections,
      duration: 1,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, 'x-forwarded-for': clientAddress() },
            body: leadBody(),
          }),
        },
      ],
    });
    const before = countStored(env);
    console.log(
      `\n${store}: ${seconds} s, ${connections} connections, ${clients} client addresses…`,
    );
    const result = await autocannon({
      url: `${server.origin}/api/leads`,
      connections,
      duration: seconds,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            headers: { ...request.headers, 'x-forwarded-for': clientAddress() },
            body: leadBody(),
          }),
        },
      ],
    });
    const after = countStored(env);
    return {
      store,
      requestsPerSecond: result.requests.average,
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      requests: result.requests.total,
      accepted: result['2xx'],
      non2xx: result.non2xx,
      errors: result.errors,
      timeouts: result.timeouts,
      stored: after === null || before === null ? null : after - before,
    };
  } finally {
    await server.stop();
  }
}

const rows: BenchRow[] = [];
const notes: string[] = [];

const dataDir = mkdtempSync(path.join(tmpdir(), 'glass-bench-'));
try {
  rows.push(await bench('embedded (SQLite)', { DATA_DIR: dataDir, DATABASE_URL: '' }));
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}

if (process.env.BENCH_EMAIL !== '0') {
  // A mail server that takes every message and keeps nothing: the cost
  // measured is the site's, not a mail server's.
  let received = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        received += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  const smtpPort = (smtp.server.address() as net.AddressInfo).port;
  const emailDataDir = mkdtempSync(path.join(tmpdir(), 'glass-bench-email-'));
  try {
    rows.push(
      await bench('embedded + e-mail', {
        DATA_DIR: emailDataDir,
        DATABASE_URL: '',
        LEAD_ACCEPT: 'stored',
        LEAD_EMAIL_TO: 'office@glass.example.nz',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
      }),
    );
    notes.push(`The local SMTP server took ${received} lead e-mails during the e-mail run.`);
  } finally {
    rmSync(emailDataDir, { recursive: true, force: true });
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}

if (databaseUrl) {
  const schema = `leads_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    rows.push(await bench('PostgreSQL', { DATABASE_URL: url.href }));
  } finally {
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin.end();
  }
} else {
  notes.push('PostgreSQL skipped: set TEST_DATABASE_URL (or DATABASE_URL) to include it.');
}

const pad = (text: string | number, width: number) => String(text).padStart(width);
console.log(
  `\n${'store'.padEnd(18)}${pad('req/s', 9)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('requests', 10)}${pad('2xx', 9)}${pad('non-2xx', 9)}${pad('errors', 8)}${pad('stored', 9)}`,
);
for (const row of rows) {
  console.log(
    `${row.store.padEnd(18)}${pad(row.requestsPerSecond.toFixed(0), 9)}${pad(row.p50Ms, 9)}${pad(row.p99Ms, 9)}${pad(row.requests, 10)}${pad(row.accepted, 9)}${pad(row.non2xx, 9)}${pad(row.errors + row.timeouts, 8)}${pad(row.stored ?? '?', 9)}`,
  );
}
for (const note of notes) console.log(note);

mkdirSync(path.join(root, 'reports'), { recursive: true });
writeFileSync(
  path.join(root, 'reports/bench-leads.json'),
  `${JSON.stringify({ seconds, connections, clients, rows, notes, at: new Date().toISOString() }, null, 2)}\n`,
);
