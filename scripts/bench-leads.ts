import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import sharp from 'sharp';
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
 * A third run adds the lead e-mail (docs/operations.md#lead-e-mail): the embedded store with
 * LEAD_EMAIL_TO set and a local SMTP server that takes every message, still
 * in `stored` mode, so the figure shows what the e-mail target costs the
 * answer (the outbox sends in the background, and while the server is
 * saturated it waits, at most 10 s a round, so most of a run's e-mails are
 * sent after it). After each e-mail run the bench waits, unmeasured, until
 * every lead of that run's store has its e-mail at the SMTP server, and
 * prints how long that took; BENCH_EMAIL=0 leaves it out.
 *
 * Visitors: BENCH_CLIENTS (default 1000) client addresses, sent through
 * X-Forwarded-For as a proxy on this machine would (TRUST_PROXY loopback).
 * The site allows one address ten enquiries in ten minutes, so a thousand
 * leads a second come from many visitors, each with a rate-limit row of its
 * own; BENCH_CLIENTS=1 sends them all as one address, which makes the shared
 * PostgreSQL limit a single hot row that every request queues on.
 *
 * Rounds: BENCH_ROUNDS (default 3) rounds, each running every store in
 * turn; a row is the median of its store's runs, because one run on a busy
 * two-core machine can be 20% off either way.
 *
 * An upload run (docs/operations.md#photos-with-an-enquiry; BENCH_UPLOAD=0
 * leaves it out): the embedded store, each request a multipart enquiry
 * with one 12-megapixel JPEG of about 4 MB (4000×3000 of noise, made once
 * per run at the quality that lands nearest 4 MB), which the server makes
 * safe (decoded, fitted to 2048 px, encoded again) and stores.
 *
 * Prints requests per second, p50 and p99 latency, errors and the server
 * process's peak resident memory (VmHWM) per store, and writes them (and
 * every run) to reports/bench-leads.json.
 */

const root = path.resolve(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const clients = Math.max(1, Number(process.env.BENCH_CLIENTS ?? 1000));
const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
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

async function startServer(
  env: Record<string, string>,
  cwd: string,
): Promise<{
  origin: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}> {
  const port = await freePort();
  const child = spawn(process.execPath, ['server/start.ts'], {
    cwd,
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
  const key = randomUUID();
  return JSON.stringify({
    name: 'Bench Mark',
    email: 'bench@example.nz',
    phone: '027 555 0199',
    service: 'Windows',
    // Each its own: the same message twice in a day is spam, delivered nowhere
    // (docs/operations.md#spam), and the benchmark measures real enquiries.
    message: `A benchmark lead: a cracked pane in the lounge window (${key.slice(0, 8)}).`,
    source: 'quote_form',
    idempotency_key: key,
  });
}

/** The upload run's body: one enquiry with one photo, as a browser's FormData sends it. */
interface UploadBody {
  body: Buffer;
  contentType: string;
  photoBytes: number;
}

/** A 4000×3000 JPEG of noise, at the quality whose size is nearest 4 MB. */
async function benchPhoto(): Promise<Buffer> {
  const [width, height] = [4000, 3000];
  const pixels = await sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: 128, g: 128, b: 128 },
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .raw()
    .toBuffer();
  const encode = (quality: number) =>
    sharp(pixels, { raw: { width, height, channels: 3 } })
      .jpeg({ quality })
      .toBuffer();
  const target = 4 * 1000 * 1000;
  let [low, high] = [1, 100];
  let best = await encode(50);
  while (low <= high) {
    const quality = Math.floor((low + high) / 2);
    const jpeg = await encode(quality);
    if (Math.abs(jpeg.length - target) < Math.abs(best.length - target)) best = jpeg;
    if (jpeg.length < target) low = quality + 1;
    else high = quality - 1;
  }
  return best;
}

async function uploadBody(): Promise<UploadBody> {
  const photo = await benchPhoto();
  const form = new FormData();
  for (const [name, value] of Object.entries(JSON.parse(leadBody()) as Record<string, string>)) {
    if (name !== 'idempotency_key') form.append(name, value);
  }
  form.append('photos', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
  const encoded = new Response(form);
  return {
    body: Buffer.from(await encoded.arrayBuffer()),
    contentType: encoded.headers.get('content-type') ?? '',
    photoBytes: photo.length,
  };
}

/** The process's peak (VmHWM) or present (VmRSS) resident memory, in MB (Linux; null elsewhere). */
function rssMb(pid: number | undefined, field: 'VmHWM' | 'VmRSS' = 'VmHWM'): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(status)?.[1]);
    return Number.isFinite(kb) ? Math.round(kb / 1024) : null;
  } catch {
    return null;
  }
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
  /**
   * E-mail runs: every lead of the run's store (warm-up included) and how
   * many of their e-mails had arrived, and when, once the load stopped.
   */
  drained?: { leads: number; emails: number; seconds: number };
  /** The server process's peak resident memory at the end of the run (VmHWM), in MB. */
  peakRssMb: number | null;
  /** Its resident memory once started, before any request, in MB. */
  startRssMb: number | null;
}

function countStored(env: Record<string, string>, cwd: string): number | null {
  const result = spawnSync(
    process.execPath,
    ['server/cli/leads-cli.ts', 'export', '--format', 'json'],
    {
      cwd,
      env: { ...process.env, ...env },
      maxBuffer: 512 * 1024 * 1024,
      encoding: 'utf8',
    },
  );
  if (result.status !== 0) return null;
  return (JSON.parse(result.stdout) as unknown[]).length;
}

/**
 * After an e-mail run: waits (at most BENCH_DRAIN_SECONDS, default 120) until
 * the SMTP server has every lead's e-mail, so the run shows that the outbox's
 * waiting while the server was busy delays the e-mails but loses none.
 */
async function drainEmails(leads: number, emailsAtStart: number) {
  const started = performance.now();
  const limit = Number(process.env.BENCH_DRAIN_SECONDS ?? 120) * 1000;
  while (emailsReceived - emailsAtStart < leads && performance.now() - started < limit) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    leads,
    emails: emailsReceived - emailsAtStart,
    seconds: Math.round((performance.now() - started) / 100) / 10,
  };
}

async function bench(
  store: string,
  env: Record<string, string>,
  cwd = root,
  drain = false,
  upload?: UploadBody,
): Promise<BenchRow> {
  const emailsAtStart = emailsReceived;
  const server = await startServer(env, cwd);
  const startRss = rssMb(server.child.pid, 'VmRSS');
  // A JSON lead, or the upload's multipart body (the same bytes every time).
  const load = {
    method: 'POST' as const,
    headers: { 'content-type': upload ? upload.contentType : 'application/json' },
    requests: [
      {
        setupRequest: (request: { headers?: Record<string, string> }) => ({
          ...request,
          headers: { ...request.headers, 'x-forwarded-for': clientAddress() },
          body: upload ? upload.body : leadBody(),
        }),
      },
    ],
  };
  try {
    // A short warm-up (JIT, the store's first connections), not counted.
    await autocannon({
      url: `${server.origin}/api/leads`,
      connections,
      duration: 1,
      ...load,
    });
    const before = countStored(env, cwd);
    const emailsBeforeRun = emailsReceived;
    console.log(
      `\n${store}: ${seconds} s, ${connections} connections, ${clients} client addresses…`,
    );
    const result = await autocannon({
      url: `${server.origin}/api/leads`,
      connections,
      duration: seconds,
      // An upload takes far longer than autocannon's default 10 s allows at worst.
      ...(upload ? { timeout: 60 } : {}),
      ...load,
    });
    const peak = rssMb(server.child.pid);
    const emailsDuringRun = emailsReceived - emailsBeforeRun;
    const after = countStored(env, cwd);
    const drained = drain && after !== null ? await drainEmails(after, emailsAtStart) : undefined;
    if (drained) {
      console.log(
        `${store}: ${emailsDuringRun} lead e-mails arrived during the load; ${drained.emails} of ${drained.leads} had arrived ${drained.seconds} s after it stopped`,
      );
    }
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
      ...(drained ? { drained } : {}),
      peakRssMb: peak,
      startRssMb: startRss,
    };
  } finally {
    await server.stop();
  }
}

interface Config {
  store: string;
  /** The checkout whose built server runs (BENCH_BEFORE: an earlier one). */
  cwd?: string;
  /** The server's settings for one run; each run gets a fresh, empty store. */
  begin: () => Promise<{ env: Record<string, string>; end: () => Promise<void> }>;
  /** Posts the upload body instead of JSON leads. */
  upload?: boolean;
}

const notes: string[] = [];
const cleanups: Array<() => Promise<void>> = [];
const configs: Config[] = [
  {
    store: 'embedded (SQLite)',
    begin: async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'glass-bench-'));
      return {
        env: { DATA_DIR: dataDir, DATABASE_URL: '' },
        end: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  },
];

let emailsReceived = 0;
if (process.env.BENCH_EMAIL !== '0') {
  // A mail server that takes every message and keeps nothing: the cost
  // measured is the site's, not a mail server's.
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        emailsReceived += 1;
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  cleanups.push(() => new Promise<void>((resolve) => smtp.close(() => resolve())));
  const smtpPort = (smtp.server.address() as net.AddressInfo).port;
  configs.push({
    store: 'embedded + e-mail',
    begin: async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'glass-bench-email-'));
      return {
        env: {
          DATA_DIR: dataDir,
          DATABASE_URL: '',
          LEAD_ACCEPT: 'stored',
          LEAD_EMAIL_TO: 'office@glass.example.nz',
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        },
        end: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  });
}

let upload: UploadBody | undefined;
if (process.env.BENCH_UPLOAD !== '0') {
  upload = await uploadBody();
  notes.push(
    `The upload run posts one ${(upload.photoBytes / 1e6).toFixed(2)} MB, 4000×3000 JPEG per enquiry (${(upload.body.length / 1e6).toFixed(2)} MB bodies).`,
  );
  configs.push({
    store: 'embedded + 4 MB photo',
    upload: true,
    begin: async () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'glass-bench-upload-'));
      return {
        env: { DATA_DIR: dataDir, DATABASE_URL: '' },
        end: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  });
}

if (databaseUrl) {
  configs.push({
    store: 'PostgreSQL',
    begin: async () => {
      const schema = `leads_bench_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`);
      const url = new URL(databaseUrl);
      url.searchParams.set('options', `-c search_path=${schema}`);
      return {
        env: { DATABASE_URL: url.href },
        end: async () => {
          await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
          await admin.end();
        },
      };
    },
  });
} else {
  notes.push('PostgreSQL skipped: set TEST_DATABASE_URL (or DATABASE_URL) to include it.');
}

/**
 * BENCH_BEFORE: the path of another checkout of this site (an earlier
 * commit, built with its own `npm ci && npm run build`). Its server runs
 * the embedded and PostgreSQL configurations too, in the same rounds, so a
 * change is measured before and after on the same machine at the same time.
 */
const beforeRoot = process.env.BENCH_BEFORE?.trim();
if (beforeRoot) {
  const cwd = path.resolve(beforeRoot);
  for (const config of configs.filter((c) => c.store !== 'embedded + e-mail' && !c.upload)) {
    configs.push({ ...config, store: `before: ${config.store}`, cwd });
  }
}

/**
 * BENCH_ROUNDS rounds, each running every configuration in turn, so a
 * machine that is busier for a while slows them alike; each row is the
 * median run of its configuration (by requests per second).
 */
const runs = new Map<string, BenchRow[]>(configs.map((config) => [config.store, []]));
try {
  for (let round = 1; round <= rounds; round++) {
    for (const config of configs) {
      const { env, end } = await config.begin();
      try {
        runs
          .get(config.store)
          ?.push(
            await bench(
              `${config.store} (${round}/${rounds})`,
              env,
              config.cwd,
              config.store === 'embedded + e-mail',
              config.upload ? upload : undefined,
            ),
          );
      } finally {
        await end();
      }
    }
  }
} finally {
  for (const cleanup of cleanups) await cleanup();
}
if (configs.some((config) => config.store === 'embedded + e-mail')) {
  const drains = (runs.get('embedded + e-mail') ?? []).flatMap((run) =>
    run.drained ? [run.drained] : [],
  );
  notes.push(
    `The local SMTP server took ${emailsReceived} lead e-mails for ${drains.reduce((sum, d) => sum + d.leads, 0)} leads of the e-mail runs; the last arrived ${drains.map((d) => d.seconds).join(', ')} s after each run's load stopped.`,
  );
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};
const rows: BenchRow[] = configs.map((config) => {
  const all = runs.get(config.store) ?? [];
  const middle = [...all].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[
    Math.floor(all.length / 2)
  ] as BenchRow;
  return {
    ...middle,
    store: config.store,
    requestsPerSecond: median(all.map((run) => run.requestsPerSecond)),
    p50Ms: median(all.map((run) => run.p50Ms)),
    p99Ms: median(all.map((run) => run.p99Ms)),
  };
});
if (rounds > 1) {
  for (const config of configs) {
    const all = runs.get(config.store) ?? [];
    notes.push(
      `${config.store}: req/s ${all.map((run) => run.requestsPerSecond.toFixed(0)).join(', ')}; p99 ms ${all.map((run) => run.p99Ms).join(', ')}`,
    );
  }
}
const baseline = rows.find((row) => row.store === 'embedded (SQLite)');
const withEmail = rows.find((row) => row.store === 'embedded + e-mail');
if (baseline && withEmail) {
  const change = (withEmail.requestsPerSecond / baseline.requestsPerSecond - 1) * 100;
  notes.push(
    `The e-mail target changes requests per second by ${change >= 0 ? '+' : ''}${change.toFixed(1)}% (medians).`,
  );
}

const pad = (text: string | number, width: number) => String(text).padStart(width);
console.log(
  `\n${'store'.padEnd(30)}${pad('req/s', 9)}${pad('p50 ms', 9)}${pad('p99 ms', 9)}${pad('requests', 10)}${pad('2xx', 9)}${pad('non-2xx', 9)}${pad('errors', 8)}${pad('stored', 9)}${pad('RSS MB start/peak', 19)}`,
);
for (const row of rows) {
  console.log(
    `${row.store.padEnd(30)}${pad(row.requestsPerSecond.toFixed(row.requestsPerSecond < 100 ? 1 : 0), 9)}${pad(row.p50Ms, 9)}${pad(row.p99Ms, 9)}${pad(row.requests, 10)}${pad(row.accepted, 9)}${pad(row.non2xx, 9)}${pad(row.errors + row.timeouts, 8)}${pad(row.stored ?? '?', 9)}${pad(`${row.startRssMb ?? '?'}/${row.peakRssMb ?? '?'}`, 19)}`,
  );
}
for (const note of notes) console.log(note);

mkdirSync(path.join(root, 'reports'), { recursive: true });
writeFileSync(
  path.join(root, 'reports/bench-leads.json'),
  `${JSON.stringify({ seconds, connections, clients, rounds, rows, runs: Object.fromEntries(runs), notes, at: new Date().toISOString() }, null, 2)}\n`,
);
