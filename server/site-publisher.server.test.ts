import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentKey, defaultSiteContent } from '../app/content/site-content.ts';
import { openSqliteStore } from '../app/db/store-sqlite.server.ts';
import {
  captureLogger,
  eventually,
  tempDataDir,
} from '../app/leads/testing/test-support.server.ts';
import { createApp } from './app.server.ts';
import { createRelease, currentRelease, publishRelease, pruneReleases } from './build-releases.ts';
import { parseEnv } from './env.server.ts';
import { followBuildDir } from './release-follower.server.ts';
import { createRuntime, type Runtime } from './runtime.server.ts';
import {
  buildErrorSummary,
  createSitePublisher,
  type SitePublishSource,
} from './site-publisher.server.ts';
import { readReleaseStamp, ServedSite, type ContentStamp } from './site-release.server.ts';

/**
 * Publishing with real builds (`node scripts/build.ts`) into a BUILD_DIR of
 * the test's own, as the builder runs them, and a real server following
 * BUILD_DIR (release-follower.server.ts), switching releases while it
 * answers. The releases differ by SITE_URL, which every page's canonical
 * link names.
 */

const root = path.resolve(import.meta.dirname, '..');
const scratch = tempDataDir('publish-');
const buildDir = path.join(scratch.dir, 'state/build');
const SITE_A = 'https://a.example.nz';
const SITE_B = 'https://b.example.nz';

/** The environment of a build: nothing of Vitest's, caches in the test's folder. */
function buildEnv(siteUrl: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    SITE_URL: siteUrl,
    BUILD_CACHE_DIR: path.join(scratch.dir, 'cache'),
    DATA_DIR: dataDir,
    ASTRO_TELEMETRY_DISABLED: '1',
  };
}

const dataDir = path.join(scratch.dir, 'leads');

/**
 * Stores a content version as the owner's pages would publish it (the
 * build reads it from the embedded store), and says how it should be
 * served. The versions differ only by number: the pages differ by SITE_URL.
 */
async function storedVersion(): Promise<ContentStamp> {
  const store = await openSqliteStore({ dataDir });
  try {
    const { version } = await store.createSiteContentVersion(defaultSiteContent, null);
    return { version, key: contentKey(version, defaultSiteContent, new Date()) };
  } finally {
    await store.close();
  }
}

/** A stand-in for the content store: what should be served, and what was reported. */
class Source implements SitePublishSource {
  wanted: ContentStamp | null = null;
  readonly built: [number, boolean, string | null][] = [];
  readonly serving: number[] = [];
  desired() {
    return Promise.resolve(this.wanted);
  }
  onBuildStarting() {}
  onBuilt(version: number, ok: boolean, error: string | null) {
    this.built.push([version, ok, error]);
  }
  onServing(version: number) {
    this.serving.push(version);
  }
}

interface RunningSite {
  url: string;
  site: ServedSite;
  leads: Runtime;
  log: ReturnType<typeof captureLogger>;
  /** Looks at BUILD_DIR now, as the server does every second. */
  follow(): Promise<void>;
  close(): Promise<void>;
}

/** The server as start.ts assembles it, serving and following BUILD_DIR's current release. */
async function startSite(onServing?: (version: number) => void): Promise<RunningSite> {
  const env = parseEnv({ DATA_DIR: dataDir, SITE_URL: SITE_A });
  const log = captureLogger('info');
  const site = await ServedSite.open(currentRelease(buildDir)!, {
    env,
    logger: log.logger,
    graceMs: 0,
  });
  const leads: Runtime = await createRuntime(env, log.logger);
  const server = http.createServer(await createApp({ env, logger: log.logger, site, leads }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // Looked at when the test says, not every second.
  const follower = followBuildDir({ buildDir, site, logger: log.logger, onServing });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    site,
    leads,
    log,
    follow: () => follower.check(),
    async close() {
      await follower.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await leads.close();
      site.close();
    },
  };
}

/** A builder's publisher on the test's BUILD_DIR, logging into `running`'s log. */
function publisherFor(running: RunningSite, source: SitePublishSource, siteUrl: string) {
  return createSitePublisher({
    source,
    root,
    buildDir,
    logger: running.log.logger,
    intervalMs: 3_600_000,
    buildEnv: buildEnv(siteUrl),
    lockPollMs: 20,
  });
}

const home = async (url: string) => (await fetch(`${url}/`)).text();

let first: RunningSite;
let releaseA: string;

beforeAll(async () => {
  // Release A, built as `npm run build` would before the server starts.
  const a = await storedVersion();
  const child = spawn(process.execPath, ['scripts/build.ts'], {
    cwd: root,
    env: {
      ...buildEnv(SITE_A),
      BUILD_DIR: buildDir,
      SITE_CONTENT_VERSION: String(a.version),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise((resolve) => child.once('close', resolve));
  expect(code, output).toBe(0);
  releaseA = currentRelease(buildDir)!;
  first = await startSite();
}, 180_000);

afterAll(async () => {
  await first?.close();
  scratch.remove();
});

describe('publishing the site', () => {
  it('builds into BUILD_DIR; the server follows it, every request answered', async () => {
    expect(await home(first.url)).toContain(`${SITE_A}/`);
    const source = new Source();
    const wanted = await storedVersion();
    source.wanted = wanted;
    const publisher = publisherFor(first, source, SITE_B);

    // Visitors keep coming while the build runs and the server switches.
    const expected: Record<string, number> = { '/': 200, '/contact': 200, '/no-such-page': 404 };
    const pages = Object.keys(expected);
    const answers: string[] = [];
    let stop = false;
    const visitors = (async () => {
      for (let i = 0; !stop; i += 1) {
        const page = pages[i % pages.length]!;
        const response = await fetch(`${first.url}${page}`);
        await response.arrayBuffer();
        answers.push(`${page} ${response.status}`);
      }
    })();
    const outcome = await publisher.publishNow();
    expect(outcome).toMatchObject({ kind: 'built', version: wanted.version });
    // Built, not yet served: the server switches when it next looks at BUILD_DIR.
    expect(first.site.current.dir).toBe(releaseA);
    expect(currentRelease(buildDir)).not.toBe(releaseA);
    await first.follow();
    // A few more requests on the new release.
    const switchedAt = answers.length;
    await eventually(() => expect(answers.length).toBeGreaterThan(switchedAt + 8));
    stop = true;
    await visitors;

    expect(answers.length).toBeGreaterThan(switchedAt);
    // Every page answered as it should be, by either release: 200, and 404 for the unknown one.
    const wrong = answers.filter((answer) => {
      const [page, status] = answer.split(' ');
      return Number(status) !== expected[page!];
    });
    expect(wrong).toEqual([]);
    const page = await home(first.url);
    expect(page).toContain(`${SITE_B}/`);
    expect(page).not.toContain(SITE_A);
    expect(first.site.current.stamp?.content).toEqual(wanted);
    expect(source.built).toEqual([[wanted.version, true, null]]);
    const switched = first.log.entries().find((line) => line.to === wanted.version);
    expect(switched).toMatchObject({ from: wanted.version - 1 });
    expect(switched?.ms).toEqual(expect.any(Number));
    expect(
      first.log
        .entries()
        .some((line) => String(line.msg).startsWith(`built content version ${wanted.version} in`)),
    ).toBe(true);

    // A's files are no longer served, but its server bundle is the code this
    // server runs (a publication loads none): no pruning removes A while the
    // server lives.
    pruneReleases(buildDir);
    expect(existsSync(releaseA)).toBe(true);
    await publisher.close();
  }, 180_000);

  it('a failed build leaves the served release, reports why and is not retried at once', async () => {
    const served = first.site.current.dir;
    const source = new Source();
    const wanted = await storedVersion();
    source.wanted = wanted;
    // A SITE_URL the build refuses: its configuration fails to load.
    const publisher = publisherFor(first, source, 'not a web address');
    const outcome = await publisher.publishNow();
    expect(outcome).toMatchObject({ kind: 'failed', version: wanted.version });
    expect(source.built).toHaveLength(1);
    const [version, ok, error] = source.built[0]!;
    expect([version, ok]).toEqual([wanted.version, false]);
    expect(error).toContain('SITE_URL');
    expect(error).not.toMatch(/^\s+at /m);
    await first.follow();
    expect(first.site.current.dir).toBe(served);
    expect(currentRelease(buildDir)).toBe(served);
    expect(await home(first.url)).toContain(`${SITE_B}/`);
    expect(first.log.entries().some((line) => line.msg === 'site build failed')).toBe(true);

    // The same content again: no new build until the back-off is over.
    expect(await publisher.publishNow()).toEqual({
      kind: 'waiting-to-retry',
      version: wanted.version,
    });
    expect(source.built).toHaveLength(1);
    await publisher.close();
  }, 180_000);

  it('two builders on one BUILD_DIR build once; both servers serve the build', async () => {
    const serving: number[] = [];
    const second = await startSite((version) => void serving.push(version));
    try {
      await second.follow();
      serving.length = 0;
      const sources = [new Source(), new Source()];
      const wanted = await storedVersion();
      for (const source of sources) source.wanted = wanted;
      const publishers = [
        publisherFor(first, sources[0]!, SITE_A),
        publisherFor(second, sources[1]!, SITE_A),
      ];
      const outcomes = await Promise.all(publishers.map((publisher) => publisher.publishNow()));
      expect(outcomes.map((outcome) => outcome.kind).sort()).toEqual(['built', 'current']);
      expect([...sources[0]!.built, ...sources[1]!.built]).toEqual([[wanted.version, true, null]]);
      const builds = [first, second].flatMap((running) =>
        running.log
          .entries()
          .filter((line) => line.msg === `building content version ${wanted.version}`),
      );
      expect(builds).toHaveLength(1);
      await Promise.all([first.follow(), second.follow()]);
      expect(second.site.current.dir).toBe(first.site.current.dir);
      expect(second.site.current.dir).toBe(currentRelease(buildDir));
      // The server records what it serves, once.
      await second.follow();
      expect(serving).toEqual([wanted.version]);
      for (const running of [first, second]) {
        expect(await home(running.url)).toContain(`${SITE_A}/`);
      }
      await Promise.all(publishers.map((publisher) => publisher.close()));
    } finally {
      await second.close();
    }
  }, 180_000);

  it('five publishes in a row: two builds, and the versions passed over are marked superseded', async () => {
    // The server's own source: the newest version an owner published, and the store's states.
    const publisher = publisherFor(first, first.leads.sitePublishing!, SITE_A);
    const firstVersion = await storedVersion();
    const outcomes = [publisher.publishNow()];
    const building = (version: number) =>
      first.log.entries().filter((line) => line.msg === `building content version ${version}`);
    await eventually(() => expect(building(firstVersion.version)).toHaveLength(1));
    // Four more while the first one builds: each asks for a publish at once.
    const later: ContentStamp[] = [];
    for (let i = 0; i < 4; i += 1) {
      later.push(await storedVersion());
      outcomes.push(publisher.publishNow());
    }
    const last = later.at(-1)!.version;
    expect((await Promise.all(outcomes)).map((outcome) => outcome.kind)).toEqual(
      Array(5).fill('built'),
    );
    await first.follow();
    expect(first.site.current.stamp?.content?.version).toBe(last);
    expect(later.slice(0, -1).flatMap((stamp) => building(stamp.version))).toEqual([]);
    expect(building(last)).toHaveLength(1);

    const store = await openSqliteStore({ dataDir });
    try {
      const states = await Promise.all(
        [firstVersion, ...later].map(async ({ version }) => [
          version,
          (await store.siteContentVersion(version))?.state,
        ]),
      );
      expect(states).toEqual([
        [firstVersion.version, 'live'],
        ...later.slice(0, -1).map(({ version }) => [version, 'superseded']),
        [last, 'live'],
      ]);
    } finally {
      await store.close();
    }
    await publisher.close();
  }, 180_000);
});

describe('what a server serves', () => {
  it('is current when BUILD_DIR has the content: no build', async () => {
    const source = new Source();
    source.wanted = readReleaseStamp(currentRelease(buildDir)!)!.content!;
    const publisher = publisherFor(first, source, SITE_A);
    expect(await publisher.publishNow()).toEqual({
      kind: 'current',
      version: source.wanted.version,
    });
    expect(source.built).toEqual([]);
    await publisher.close();
  });

  it('is reported once: at its first look, and after each switch', async () => {
    const serving: number[] = [];
    const running = await startSite((version) => void serving.push(version));
    try {
      await running.follow();
      await running.follow();
      expect(serving).toEqual([running.site.current.stamp!.content!.version]);
    } finally {
      await running.close();
    }
  });
});

describe('a release the server cannot load', () => {
  it('leaves the release served before, is logged once, and the next one is served', async () => {
    const dir = path.join(scratch.dir, 'broken/build');
    const good = (version: number) => {
      const release = createRelease(dir);
      mkdirSync(path.join(release, 'client'));
      writeFileSync(
        path.join(release, 'client/index.html'),
        `<!doctype html><title>${version}</title>`,
      );
      mkdirSync(path.join(release, 'server'));
      writeFileSync(
        path.join(release, 'server/entry.mjs'),
        "export function handler(_req, res) { res.statusCode = 404; res.end('not found'); }\n",
      );
      writeFileSync(
        path.join(release, 'build-stamp.json'),
        JSON.stringify({ content: { version, key: `v${version}` } }),
      );
      return release;
    };
    const first = good(1);
    publishRelease(dir, first);
    const log = captureLogger('info');
    const site = await ServedSite.open(dir, {
      env: parseEnv({ SITE_URL: SITE_A }),
      logger: log.logger,
      graceMs: 0,
    });
    const follower = followBuildDir({ buildDir: dir, site, logger: log.logger });
    try {
      // Another process points BUILD_DIR at a release without its server bundle.
      const broken = createRelease(dir);
      mkdirSync(path.join(broken, 'client'));
      publishRelease(dir, broken);
      await follower.check();
      await follower.check();
      expect(site.current.dir).toBe(first);
      const refused = log
        .entries()
        .filter((line) => line.msg === 'cannot serve the new build; the build served before stays');
      expect(refused).toHaveLength(1);

      const next = good(2);
      publishRelease(dir, next);
      await follower.check();
      expect(site.current.dir).toBe(next);
      expect(site.current.stamp?.content?.version).toBe(2);
    } finally {
      await follower.close();
      site.close();
    }
  });
});

describe('a release as served', () => {
  it("frames the map its content names, in every page's CSP", async () => {
    const dir = path.join(scratch.dir, 'map');
    const release = createRelease(dir);
    mkdirSync(path.join(release, 'client'));
    writeFileSync(path.join(release, 'client/index.html'), '<!doctype html><title>Home</title>');
    mkdirSync(path.join(release, 'server'));
    writeFileSync(
      path.join(release, 'server/entry.mjs'),
      "export function handler(_req, res) { res.statusCode = 404; res.end('not found'); }\n",
    );
    mkdirSync(path.join(release, 'content'));
    writeFileSync(
      path.join(release, 'content/site-content.json'),
      JSON.stringify({
        version: 1,
        key: 'v1',
        content: { identity: { mapEmbedUrl: 'https://maps.example.nz/embed?q=Tauriko' } },
      }),
    );
    publishRelease(dir, release);
    const env = parseEnv({ SITE_URL: SITE_A });
    const site = await ServedSite.open(dir, { env, logger: captureLogger().logger });
    try {
      const csp = site.current.pages.get('/')!.csp;
      expect(csp).toContain('frame-src https://maps.example.nz');
      expect(csp).not.toContain('google.com');
      expect(site.current.renderedPageCsp).toContain('frame-src https://maps.example.nz');
    } finally {
      site.close();
    }
  });

  it('summarises a failed build by its last lines, without colours or stack frames', () => {
    const output = [
      'building…',
      '\u001b[31m[ERROR]\u001b[39m Invalid environment:',
      '  SITE_URL: must be an absolute http: or https: URL',
      '  Stack trace:',
      '    at parseEnv (file:///srv/glass-site/server/env.server.ts:1:1)',
      '',
    ].join('\n');
    expect(buildErrorSummary(output)).toBe(
      'building…\n[ERROR] Invalid environment:\n  SITE_URL: must be an absolute http: or https: URL',
    );
  });
});

it("finds the project's packages from a BUILD_DIR outside the project", () => {
  // The server bundle imports them by name (build-releases.ts, linkDependencies).
  const linked = path.join(`${buildDir}-releases`, 'node_modules/astro/package.json');
  expect(JSON.parse(readFileSync(linked, 'utf8'))).toMatchObject({ name: 'astro' });
});
