import { spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_BUILD_DIR, E2E_BUILD_ENV } from './support/env.ts';
import { attachServerLogsOnFailure, startSiteServer, tempDataDir } from './support/lead-server.ts';

/**
 * Deploys never break a running site: `npm start` rebuilding because a
 * public setting changed (here GTAG_ID) writes a new build beside the served
 * one, and a server already running keeps answering every page and every
 * asset those pages name from the build it started with until the new
 * build is complete; then it serves the new build (it follows BUILD_DIR,
 * docs/operations.md "Publishing the site").
 */

const root = path.resolve(import.meta.dirname, '..');

// eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring to pass testInfo.
test.afterEach(async ({}, testInfo) => attachServerLogsOnFailure(testInfo));

/**
 * The rebuild runs with every secret of the environment set (none may reach
 * a file a browser can fetch); these are their telltale parts.
 */
const SECRETS = {
  LEAD_WEBHOOK_URLS: 'https://hooks.example.net/e2e-hook-token-7c1d',
  LEAD_WEBHOOK_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
  LEAD_EMAIL_TO: 'owner-e2e-inbox@example.net',
  SMTP_URL: 'smtps://mailer:e2e-smtp-pa55word-41f@mail.example.net:465',
  // The build reads the site content from the store, so the database must
  // answer: the test database, carrying a telltale as its application name.
  // Without one (no PostgreSQL here) the build runs on the embedded store.
  ...(process.env.TEST_DATABASE_URL
    ? {
        DATABASE_URL: `${process.env.TEST_DATABASE_URL}${process.env.TEST_DATABASE_URL.includes('?') ? '&' : '?'}application_name=e2e-db-telltale-9b2`,
      }
    : {}),
};
const TELLTALES = [
  'e2e-hook-token-7c1d',
  SECRETS.LEAD_WEBHOOK_SECRET.slice('whsec_'.length),
  'owner-e2e-inbox',
  'e2e-smtp-pa55word-41f',
  'e2e-db-telltale-9b2',
];

test('a running server answers 200 for its pages and their assets throughout a rebuild; the rebuild, made with every secret set, puts none in a file a browser can fetch', async () => {
  test.setTimeout(15 * 60_000);
  // A deployed site of its own: BUILD_DIR linking to a copy of the test build,
  // inside the project (the server bundle finds its packages in node_modules).
  const scratch = mkdtempSync(path.join(root, 'build-rebuild-test-'));
  const buildDir = path.join(scratch, 'build');
  const first = path.join(scratch, 'build-releases', 'first');
  cpSync(realpathSync(path.resolve(root, E2E_BUILD_DIR)), first, { recursive: true });
  symlinkSync(first, buildDir);
  const data = tempDataDir();
  const server = await startSiteServer({ BUILD_DIR: buildDir, DATA_DIR: data.dir });
  let rebuild: ChildProcess | undefined;

  try {
    const home = await (await fetch(`${server.url}/`)).text();
    const assets = [...home.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(assets.length).toBeGreaterThan(1);
    const urls = ['/', '/services/windows', '/quote', ...new Set(assets)];

    const child = spawn(process.execPath, ['scripts/ensure-build.ts'], {
      cwd: root,
      env: {
        ...(process.env as Record<string, string>),
        ...E2E_BUILD_ENV,
        ...SECRETS,
        BUILD_DIR: buildDir,
        GTAG_ID: 'G-REBUILT01',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    rebuild = child;
    let rebuildOutput = '';
    child.stdout.on('data', (chunk: Buffer) => (rebuildOutput += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (rebuildOutput += chunk.toString()));
    let exitCode: number | null | undefined;
    const exited = new Promise<void>((resolve) =>
      child.on('exit', (code) => {
        exitCode = code;
        resolve();
      }),
    );

    // Every page and asset, over and over, until the rebuild has finished:
    // the first build's while it is served, then the new build's pages.
    const failures: string[] = [];
    let rounds = 0;
    let switched = false;
    while (exitCode === undefined) {
      for (const url of urls) {
        if (switched && url.startsWith('/assets/')) continue;
        try {
          const response = await fetch(`${server.url}${url}`);
          const body = await response.text();
          if (response.status !== 200) failures.push(`${url}: ${response.status}`);
          else if (url === '/' && body !== home) {
            // Another page only once the server has switched to the new build.
            if (server.output().includes('site switched to content version')) switched = true;
            else failures.push('/ is no longer the first build, and the server did not switch');
          }
        } catch (error) {
          // A file rewritten while it was being sent ends the response early.
          failures.push(`${url}: ${String((error as Error).cause ?? error)}`);
        }
      }
      rounds += 1;
    }
    await exited;
    expect(exitCode, rebuildOutput).toBe(0);
    expect(rebuildOutput).toContain('public settings changed');
    expect(failures).toEqual([]);
    expect(rounds).toBeGreaterThan(1);

    // The new build is in place for the next start, the served one kept while in use.
    const current = realpathSync(buildDir);
    expect(current).not.toBe(realpathSync(first));
    // The new analytics id is in the new build's scripts.
    const scripts = readdirSync(path.join(current, 'client/assets')).filter((file) =>
      file.endsWith('.js'),
    );
    expect(
      scripts.some((file) =>
        readFileSync(path.join(current, 'client/assets', file), 'utf8').includes('G-REBUILT01'),
      ),
    ).toBe(true);
    // Every file the server sends a browser (client/: pages, scripts, styles,
    // images, feeds) is free of the secrets the build could see.
    const leaks: string[] = [];
    for (const file of readdirSync(path.join(current, 'client'), {
      recursive: true,
      encoding: 'utf8',
    })) {
      const full = path.join(current, 'client', file);
      if (!statSync(full).isFile() || /\.(?:br|gz)$/.test(file)) continue;
      const text = readFileSync(full, 'latin1');
      for (const telltale of TELLTALES)
        if (text.includes(telltale)) leaks.push(`${file}: ${telltale}`);
    }
    expect(leaks).toEqual([]);
    // The first build is kept while the requests still on it may need it.
    expect(existsSync(path.join(first, 'client/index.html'))).toBe(true);
    // The server serves the new build, within a second or so of its publishing.
    await expect.poll(() => server.output()).toContain(`"release":"${path.basename(current)}"`);
    expect(server.output()).toContain('site switched to content version');
    const after = await fetch(`${server.url}/`);
    expect(after.status).toBe(200);
    expect(await after.text()).not.toBe(home);
  } finally {
    // A failed test must not leave the build writing into the folder removed below.
    if (rebuild && rebuild.exitCode === null && rebuild.signalCode === null) {
      const stopped = new Promise((resolve) => rebuild!.once('exit', resolve));
      rebuild.kill();
      await stopped;
    }
    await server.stop();
    data.remove();
    rmSync(scratch, { recursive: true, force: true });
  }
});
