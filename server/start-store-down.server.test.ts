import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSiteContent } from '../app/content/site-content.ts';
import { openPostgresStore } from '../app/db/store-postgres.server.ts';
import {
  eventually,
  POSTGRES_SKIP_MESSAGE,
  TEST_DATABASE_URL,
  tempDataDir,
} from '../app/leads/testing/test-support.server.ts';

/**
 * `npm start` with its database down and a build due: with no build yet,
 * the build cannot read the site content and builds from the shipped
 * defaults, says so in one line, and the server serves; once the database
 * answers, the builder beside it builds the content published meanwhile.
 * In the next outage a changed SITE_URL makes a build due again: it is made
 * from the content of the release served. The database is a real
 * PostgreSQL behind a relay on loopback, closed at first.
 */

const root = path.resolve(import.meta.dirname, '..');
const scratch = tempDataDir('start-store-down-');
const cleanups: (() => Promise<void> | void)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  scratch.remove();
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Forwards connections on `port` to the test's PostgreSQL, once started. */
async function startRelay(port: number, target: URL) {
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => relay.listen(port, '127.0.0.1', resolve));
  return () =>
    new Promise<void>((resolve) => {
      relay.close(() => resolve());
      for (const socket of sockets) socket.destroy();
    });
}

/** `npm start` as package.json runs it, its output collected. */
function npmStart(env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn(
    'sh',
    ['-c', 'node scripts/ensure-build.ts && exec node scripts/start.ts'],
    { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let exit: number | string | null | undefined;
  child.once('exit', (code, signal) => (exit = code ?? signal));
  return {
    output: () => output,
    exited: () => exit,
    async stop() {
      if (exit !== undefined) return;
      const done = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await done;
    },
  };
}

/**
 * A build's ceiling on a loaded machine, and a poll every quarter second:
 * each poll of a page that is up asks the server for the whole home page,
 * which at eventually()'s default (every 25 ms) takes CPU from the build
 * being waited on.
 */
const WHILE_BUILDING = [240_000, 250] as const;

async function page(url: string): Promise<{ status: number; body: string }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: await response.text() };
}

describe.skipIf(!TEST_DATABASE_URL)('npm start while the database is down', () => {
  it('builds from the defaults or the served release, serves, and catches up once the database answers', async () => {
    const target = new URL(TEST_DATABASE_URL!);
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    const schema = `start_down_${randomBytes(6).toString('hex')}`;
    await admin.query(`CREATE SCHEMA ${schema}`);
    cleanups.push(async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    });

    // The relay's port, closed: connections to it are refused (ECONNREFUSED).
    const relayPort = await freePort();
    const databaseUrl = new URL(TEST_DATABASE_URL!);
    databaseUrl.host = `127.0.0.1:${relayPort}`;
    databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
    const port = await freePort();
    const site = `http://127.0.0.1:${port}`;
    const env = {
      PATH: [path.join(root, 'node_modules/.bin'), process.env.PATH].join(path.delimiter),
      HOME: process.env.HOME,
      PORT: String(port),
      HOST: '127.0.0.1',
      SITE_URL: `http://localhost:${port}`,
      DATABASE_URL: databaseUrl.href,
      LEAD_ACCEPT: 'stored',
      DATA_DIR: path.join(scratch.dir, 'data'),
      BUILD_DIR: path.join(scratch.dir, 'build'),
      BUILD_CACHE_DIR: path.join(scratch.dir, 'cache'),
      SITE_PUBLISH_INTERVAL_S: '1',
      ASTRO_TELEMETRY_DISABLED: '1',
    };
    const server = npmStart(env);
    cleanups.push(() => server.stop());

    // Serving, or ended: an ended process is the failure, at once.
    await eventually(
      async () => {
        if (server.exited() === undefined) expect((await page(`${site}/`)).status).toBe(200);
      },
      ...WHILE_BUILDING,
    );
    expect(server.exited(), server.output()).toBeUndefined();
    const home = await page(`${site}/`);
    expect(home.body).toContain(defaultSiteContent.identity.name);
    const health = await fetch(`${site}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ ok: false, store: { state: 'down' } });
    const said = server
      .output()
      .split('\n')
      .filter((line) => line.includes('Cannot read the site content'));
    expect(said).toEqual([
      expect.stringContaining('building from the shipped defaults (no release served has any)'),
    ]);
    expect(server.output()).not.toContain(`:${databaseUrl.password}@`);

    // The owner had published a version; the database comes back.
    const store = await openPostgresStore({ connectionString: TEST_DATABASE_URL!, schema });
    try {
      const content = {
        ...defaultSiteContent,
        identity: { ...defaultSiteContent.identity, name: 'Back Online Glass Ltd' },
      };
      const { version } = await store.createSiteContentVersion(content, null);
      await store.setSiteContentVersionState(version, 'live');
    } finally {
      await store.close();
    }
    const closeRelay = await startRelay(relayPort, target);
    cleanups.push(closeRelay);

    await eventually(
      async () => {
        expect((await page(`${site}/`)).body).toContain('Back Online Glass Ltd');
      },
      ...WHILE_BUILDING,
    );
    expect((await fetch(`${site}/healthz`)).status).toBe(200);

    // A deploy during the next outage: the database down again, and a
    // changed SITE_URL makes a build due. It is made from the content the
    // site served, which is what it goes on serving.
    await server.stop();
    await closeRelay();
    const moved = `http://127.0.0.1:${port}`;
    const again = npmStart({ ...env, SITE_URL: moved });
    cleanups.push(() => again.stop());
    await eventually(
      async () => {
        if (again.exited() === undefined) expect((await page(`${site}/`)).status).toBe(200);
      },
      ...WHILE_BUILDING,
    );
    expect(again.exited(), again.output()).toBeUndefined();
    expect(again.output()).toContain('Building the site (public settings changed)');
    const redeployed = (await page(`${site}/`)).body;
    expect(redeployed).toContain('Back Online Glass Ltd');
    expect(redeployed).toContain(`<link rel="canonical" href="${moved}/"`);
    expect(
      again
        .output()
        .split('\n')
        .filter((line) => line.includes('Cannot read the site content')),
    ).toEqual([
      expect.stringContaining('building from the content of the release being served (version 1)'),
    ]);
  }, 600_000);
});

it.skipIf(TEST_DATABASE_URL)('needs PostgreSQL', () => {
  console.warn(POSTGRES_SKIP_MESSAGE);
});
