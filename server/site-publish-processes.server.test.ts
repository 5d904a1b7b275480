import { spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSiteContent, type SiteContent } from '../app/content/site-content.ts';
import { type AppStore } from '../app/db/store.server.ts';
import { openStore } from '../app/db/open-store.server.ts';
import {
  eventually,
  POSTGRES_SKIP_MESSAGE,
  TEST_DATABASE_URL,
} from '../app/leads/testing/test-support.server.ts';
import { watchServerOutput } from './testing/server-output.server.ts';

/**
 * Two hosts on one PostgreSQL, each with a BUILD_DIR of its own and its
 * web server and builder as `npm start` runs them (scripts/start.ts), as
 * docs/operations.md#publishing-the-site promises: a
 * version an owner publishes is built and served by both within 60 s, and
 * the store records it as live. Here the two builds share the machine's
 * cores with the other test files running beside them, so the wait is
 * 90 s: measured on two cores, both served after 15 s on a quiet machine,
 * about 37 s in a full run, and once 61 s with two full runs at once.
 * The figure printed is the one to watch. When one's build fails, the other serves
 * the version and the failure is the failing host's
 * (docs/operations.md#several-hosts).
 */

/** A minute on a server; more under the test suite's own load (above). */
const SERVED_WITHIN_MS = 90_000;

if (!TEST_DATABASE_URL) console.warn(POSTGRES_SKIP_MESSAGE);

const root = path.resolve(import.meta.dirname, '..');
const SITE_URL = 'http://localhost:3999';
const NEW_PHONE = { display: '07 555 0199', e164: '+6475550199' };
const NEWER_PHONE = { display: '07 555 0188', e164: '+6475550188' };

describe.skipIf(!TEST_DATABASE_URL)('publishing with two processes on one PostgreSQL', () => {
  const schema = `site_publish_${randomBytes(6).toString('hex')}`;
  let scratch: string;
  let databaseUrl: string;
  let admin: pg.Client;
  let store: AppStore;
  const servers: { child: ChildProcess; url: string; output: () => string }[] = [];

  /** Each process's build cache: the second's becomes a file, so its builds fail. */
  const cacheOf = (buildDir: string) => path.join(path.dirname(buildDir), 'cache');
  const env = (buildDir: string): NodeJS.ProcessEnv => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SITE_URL,
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(scratch, 'no-embedded-store'),
    BUILD_DIR: buildDir,
    BUILD_CACHE_DIR: cacheOf(buildDir),
    ASTRO_TELEMETRY_DISABLED: '1',
    LOG_LEVEL: 'info',
    PORT: '0',
    HOST: '127.0.0.1',
    SITE_PUBLISH_INTERVAL_S: '1',
  });

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = new URL(TEST_DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
    store = await openStore({ dataDir: '', databaseUrl });
    // Inside the project, so the server bundle finds its packages.
    scratch = mkdtempSync(path.join(root, 'build-publish-test-'));

    // The first machine builds what is live (the defaults); the second gets a copy.
    const buildA = path.join(scratch, 'a/build');
    const built = spawn(process.execPath, ['scripts/build.ts'], {
      cwd: root,
      env: env(buildA),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    built.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    built.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    expect(await new Promise((resolve) => built.once('close', resolve)), output).toBe(0);
    const buildB = path.join(scratch, 'b/build');
    mkdirSync(path.join(scratch, 'b/build-releases'), { recursive: true });
    const copy = path.join(scratch, 'b/build-releases/first');
    cpSync(realpathSync(buildA), copy, { recursive: true });
    symlinkSync(copy, buildB);

    for (const buildDir of [buildA, buildB]) {
      // The web server and the builder; the output is both's.
      const child = spawn(process.execPath, ['scripts/start.ts'], {
        cwd: root,
        env: env(buildDir),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const watched = watchServerOutput(child, { timeoutMs: 60_000 });
      servers.push({ child, url: '', output: watched.text });
      servers.at(-1)!.url = `http://127.0.0.1:${await watched.port}`;
    }
  }, 180_000);

  afterAll(async () => {
    await Promise.all(
      servers.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
      ),
    );
    await store?.close();
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.end();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('both serve a published change within the wait, and the version is live', async () => {
    for (const { url } of servers) {
      expect(await (await fetch(`${url}/`)).text()).toContain(
        defaultSiteContent.identity.phone.display,
      );
    }
    const changed: SiteContent = {
      ...defaultSiteContent,
      identity: { ...defaultSiteContent.identity, phone: NEW_PHONE },
    };
    const startedAt = Date.now();
    const { version } = await store.createSiteContentVersion(changed, null);

    const servedAfter: number[] = [];
    await Promise.all(
      servers.map(async ({ url, output }) => {
        await eventually(
          async () => {
            const page = await (await fetch(`${url}/`)).text();
            expect(page, output().slice(-2_000)).toContain(NEW_PHONE.display);
          },
          SERVED_WITHIN_MS,
          200,
        );
        servedAfter.push(Date.now() - startedAt);
      }),
    );
    console.info(`served by both processes after ${servedAfter.join(' and ')} ms`);
    expect(Math.max(...servedAfter)).toBeLessThan(SERVED_WITHIN_MS);
    await eventually(async () =>
      expect((await store.siteContentVersion(version))?.state).toBe('live'),
    );
    // The old number is gone from every page each serves.
    for (const { url } of servers) {
      expect(await (await fetch(`${url}/contact`)).text()).not.toContain(
        defaultSiteContent.identity.phone.display,
      );
    }
  }, 120_000);

  it('one process’s build fails: the other serves the version, and the failure is that host’s', async () => {
    const [first, second] = servers;
    const outputBefore = servers[0]!.output().length;
    // The second machine's builds now fail: its build cache is a file.
    const cache = cacheOf(path.join(scratch, 'b/build'));
    rmSync(cache, { recursive: true, force: true });
    writeFileSync(cache, 'not a folder');
    const changed: SiteContent = {
      ...defaultSiteContent,
      identity: { ...defaultSiteContent.identity, phone: NEWER_PHONE },
    };
    const { version } = await store.createSiteContentVersion(changed, null);

    // The second's failure is recorded first (it fails at once), the first's build goes live.
    await eventually(
      async () => {
        const builds = await store.listSiteBuilds(version);
        expect(
          builds.map((build) => build.state).sort(),
          `${first!.output().slice(-1_500)}\n${second!.output().slice(-1_500)}`,
        ).toEqual(['failed', 'live']);
      },
      90_000,
      250,
    );
    const builds = await store.listSiteBuilds(version);
    expect(new Set(builds.map((build) => build.host)).size).toBe(2);
    expect(builds.find((build) => build.state === 'failed')?.error).toContain('ENOTDIR');
    expect((await store.siteContentVersion(version))?.state).toBe('live');
    // Live once built into BUILD_DIR; its web server serves it within a second or so.
    await eventually(
      async () =>
        expect(await (await fetch(`${first!.url}/`)).text()).toContain(NEWER_PHONE.display),
      30_000,
      100,
    );
    // The second still serves the version before; the first is never rolled back.
    expect(await (await fetch(`${second!.url}/`)).text()).toContain(NEW_PHONE.display);
    expect(first!.output().slice(outputBefore)).not.toMatch(
      new RegExp(`building content version ${version - 1}\\b`),
    );
    expect(await (await fetch(`${first!.url}/contact`)).text()).toContain(NEWER_PHONE.display);
  }, 150_000);
});
