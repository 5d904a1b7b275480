import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSiteContent } from '../app/content/site-content.ts';
import { openSqliteStore } from '../app/db/store-sqlite.server.ts';
import { eventually, tempDataDir } from '../app/leads/testing/test-support.server.ts';
import { createRelease, publishRelease, releasesDirOf } from './build-releases.ts';
import { descendantsOf, watchServerOutput } from './testing/server-output.server.ts';

/**
 * The web server (`node server/start.ts`) never builds
 * (docs/decisions/0010-builds-in-their-own-process.md): run alone, with a
 * store that asks for a content version BUILD_DIR does not have, it starts
 * no process and makes no release; when another process publishes a
 * release into BUILD_DIR, it serves that release within seconds and
 * records the version it serves for its host.
 */

const root = path.resolve(import.meta.dirname, '..');
const scratch = tempDataDir('follow-');
const buildDir = path.join(scratch.dir, 'state/build');
const dataDir = path.join(scratch.dir, 'leads');
const HOST_NAME = 'follow-test-host';

/** A release of the smallest kind start.ts serves, with a build stamp naming `content`. */
function stubRelease(title: string, content: { version: number; key: string }): string {
  const release = createRelease(buildDir);
  mkdirSync(path.join(release, 'client'));
  writeFileSync(
    path.join(release, 'client/index.html'),
    `<!doctype html><html lang="en"><title>${title}</title><h1>${title}</h1></html>`,
  );
  mkdirSync(path.join(release, 'server'));
  writeFileSync(
    path.join(release, 'server/entry.mjs'),
    "export const handler = (req, res) => { res.status(404).type('text/plain').send('Not found'); };\n",
  );
  writeFileSync(path.join(release, 'build-stamp.json'), JSON.stringify({ content }));
  return release;
}

describe('the web server', () => {
  let server: ChildProcess;
  let output: () => string;
  let url: string;
  let version: number;
  const seen = new Set<string>();
  let sampler: NodeJS.Timeout;

  beforeAll(async () => {
    // The owner published version 1; BUILD_DIR has none of it.
    const store = await openSqliteStore({ dataDir });
    try {
      ({ version } = await store.createSiteContentVersion(defaultSiteContent, null));
    } finally {
      await store.close();
    }
    publishRelease(buildDir, stubRelease('Release A', { version: 0, key: 'v0' }));
    server = spawn(process.execPath, ['server/start.ts'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        SITE_URL: 'http://localhost:3999',
        DATA_DIR: dataDir,
        BUILD_DIR: buildDir,
        BUILD_CACHE_DIR: path.join(scratch.dir, 'cache'),
        SITE_HOST_NAME: HOST_NAME,
        SITE_PUBLISH_INTERVAL_S: '1',
        ASTRO_TELEMETRY_DISABLED: '1',
        LOG_LEVEL: 'info',
        PORT: '0',
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // What runs below the server, looked at ten times a second for as long as the tests run.
    sampler = setInterval(() => {
      for (const below of descendantsOf(server.pid!)) seen.add(below);
    }, 100);
    const watched = watchServerOutput(server, { timeoutMs: 60_000 });
    output = watched.text;
    url = `http://127.0.0.1:${await watched.port}`;
  }, 90_000);

  afterAll(async () => {
    clearInterval(sampler);
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    scratch.remove();
  });

  const home = async () => (await fetch(`${url}/`)).text();

  it('serves a release another process publishes into BUILD_DIR, and never builds', async () => {
    expect(await home()).toContain('Release A');
    // Another process (the builder) publishes a release of version 1, with a
    // key the store would not build (so only following BUILD_DIR serves it).
    const releaseB = stubRelease('Release B', { version, key: 'built elsewhere' });
    publishRelease(buildDir, releaseB);
    await eventually(
      async () => expect(await home(), output()).toContain('Release B'),
      30_000,
      100,
    );
    // Served, and recorded as this host's.
    const store = await openSqliteStore({ dataDir });
    try {
      await eventually(
        async () => {
          const builds = await store.listSiteBuilds(version);
          expect(
            builds.map((build) => [build.host, build.state]),
            output(),
          ).toEqual([[HOST_NAME, 'live']]);
        },
        30_000,
        100,
      );
      expect((await store.siteContentVersion(version))?.state).toBe('live');
    } finally {
      await store.close();
    }
    expect(output()).toMatch(/"msg":"site switched to content version 1 in \d+ ms"/);

    // Nothing ran below it, and it made no release: the two are the test's own.
    expect([...seen]).toEqual([]);
    const releases = readdirSync(releasesDirOf(buildDir)).filter(
      (name) => !name.endsWith('.lock') && name !== 'node_modules',
    );
    expect(releases).toHaveLength(2);
    expect(output()).not.toContain('building content version');
  }, 90_000);
});
