import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { contentKey, defaultSiteContent, type SiteContent } from '../app/content/site-content.ts';
import { openStore } from '../app/db/open-store.server.ts';
import type { AppStore } from '../app/db/store.server.ts';
import {
  captureLogger,
  eventually,
  POSTGRES_SKIP_MESSAGE,
  tempDataDir,
  TEST_DATABASE_URL,
} from '../app/leads/testing/test-support.server.ts';
import { createRelease, publishRelease } from './build-releases.ts';
import { listenForPublish, publishNotifier, PUBLISH_CHANNEL } from './publish-signal.server.ts';

/**
 * The builder (`node server/builder.ts`) is woken by "Publish"
 * (docs/decisions/0010-builds-in-their-own-process.md): with PostgreSQL by
 * a NOTIFY, with the embedded store by the newest version's number, read
 * every second. Its periodic check is an hour apart here, so only the
 * wake-up can start the build within the test. The version published
 * names a job photo that is not stored, so its build fails at once, and
 * the builder records that failure as its host's.
 */

if (!TEST_DATABASE_URL) console.warn(POSTGRES_SKIP_MESSAGE);

const root = path.resolve(import.meta.dirname, '..');
const HOST_NAME = 'builder-test-host';

/** Content whose build fails before Astro starts: its job photo is not stored. */
const unbuildable: SiteContent = {
  ...defaultSiteContent,
  jobPhotos: [{ photoId: randomUUID(), service: 'windows', alt: 'A new lounge window' }],
};

/** A BUILD_DIR whose release has the defaults (version 0): nothing to build at start. */
function buildDirWithDefaults(dir: string): string {
  const buildDir = path.join(dir, 'build');
  const release = createRelease(buildDir);
  writeFileSync(
    path.join(release, 'build-stamp.json'),
    JSON.stringify({ content: { version: 0, key: contentKey(0, defaultSiteContent, new Date()) } }),
  );
  publishRelease(buildDir, release);
  return buildDir;
}

interface RunningBuilder {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

function startBuilder(env: Record<string, string>): RunningBuilder {
  const child = spawn(process.execPath, ['server/builder.ts'], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      SITE_URL: 'http://localhost:3999',
      SITE_HOST_NAME: HOST_NAME,
      // Only a wake-up starts a build within the test.
      SITE_PUBLISH_INTERVAL_S: '3600',
      ASTRO_TELEMETRY_DISABLED: '1',
      LOG_LEVEL: 'debug',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * Resolves once the builder has made its first `checks` checks (and found
 * nothing to build): at start, and with PostgreSQL once more when it
 * starts listening.
 */
async function firstChecksDone(builder: RunningBuilder, checks: number, extra?: RegExp) {
  await eventually(
    () => {
      expect(builder.child.exitCode, builder.output()).toBeNull();
      if (extra) expect(builder.output()).toMatch(extra);
      expect(builder.output().split('"msg":"publish check"').length - 1).toBe(checks);
    },
    60_000,
    50,
  );
  expect(builder.output()).not.toContain('building content version');
}

/** The builder builds `version`, its build fails, and that is recorded as its host's. */
async function failedBuildRecorded(builder: RunningBuilder, store: AppStore, version: number) {
  await eventually(
    async () => {
      const builds = await store.listSiteBuilds(version);
      expect(
        builds.map((build) => [build.host, build.state]),
        builder.output(),
      ).toEqual([[HOST_NAME, 'failed']]);
    },
    60_000,
    100,
  );
  expect(builder.output()).toContain(`building content version ${version}`);
  expect((await store.listSiteBuilds(version))[0]?.error).toContain('not stored');
}

describe('the builder with the embedded store', () => {
  const scratch = tempDataDir('builder-');
  let builder: RunningBuilder | undefined;

  afterEach(async () => builder?.stop());
  afterAll(() => scratch.remove());

  it('builds a version within seconds of its publishing: it reads the newest version', async () => {
    const dataDir = path.join(scratch.dir, 'leads');
    mkdirSync(dataDir, { recursive: true });
    const store = await openStore({ dataDir, databaseUrl: undefined });
    try {
      builder = startBuilder({
        DATA_DIR: dataDir,
        BUILD_DIR: buildDirWithDefaults(scratch.dir),
      });
      await firstChecksDone(builder, 1);
      const { version } = await store.createSiteContentVersion(unbuildable, null);
      await failedBuildRecorded(builder, store, version);
    } finally {
      await store.close();
    }
  }, 120_000);
});

describe.skipIf(!TEST_DATABASE_URL)('the builder with PostgreSQL', () => {
  const schema = `builder_wake_${randomBytes(6).toString('hex')}`;
  const scratch = tempDataDir('builder-pg-');
  let admin: pg.Client;
  let databaseUrl: string;
  let store: AppStore;
  let builder: RunningBuilder | undefined;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA ${schema}`);
    const url = new URL(TEST_DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    databaseUrl = url.toString();
    store = await openStore({ dataDir: '', databaseUrl });
  });

  afterEach(async () => builder?.stop());

  afterAll(async () => {
    await store?.close();
    await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await admin?.end();
    scratch.remove();
  });

  it('a NOTIFY reaches the listener; the notifier sends it', async () => {
    const log = captureLogger('info');
    let woken = 0;
    const listener = listenForPublish({ databaseUrl, logger: log.logger, wake: () => woken++ });
    const notifier = publishNotifier(databaseUrl, log.logger);
    try {
      await listener.listening;
      // Once when it connects (anything sent before is lost), then once per notification.
      expect(woken).toBe(1);
      notifier.notify(7);
      await eventually(() => expect(woken).toBe(2), 30_000, 20);
    } finally {
      await notifier.close();
      await listener.close();
    }
  });

  it('is woken by "Publish": a NOTIFY starts the build at once', async () => {
    builder = startBuilder({
      DATABASE_URL: databaseUrl,
      DATA_DIR: path.join(scratch.dir, 'no-embedded-store'),
      BUILD_DIR: buildDirWithDefaults(scratch.dir),
    });
    await firstChecksDone(builder, 2, /"msg":"listening for \\"Publish\\""/);
    // Stored, as "Publish" stores it, and no build yet: nothing told the builder.
    const { version } = await store.createSiteContentVersion(unbuildable, null);
    await admin.query('SELECT pg_notify($1, $2)', [PUBLISH_CHANNEL, String(version)]);
    await failedBuildRecorded(builder, store, version);
  }, 120_000);
});
